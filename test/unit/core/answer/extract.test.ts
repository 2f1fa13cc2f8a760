import { describe, expect, it } from 'vitest';
import { extractAnswer, type ExtractedAnswer } from '../../../../src/core/answer/extract';
import { readFixtureJsonl } from './fixtureData';

const MODELS = ['6b_finetuning', '6b_verification', '175b_finetuning', '175b_verification'] as const;

interface GsmRow {
  ground_truth: string;
  [model: string]: { solution: string; is_correct: boolean } | string;
}

interface PrmRecord {
  question: { ground_truth_answer: string | null; pre_generated_steps?: string[]; pre_generated_answer?: string };
  label: {
    steps: { completions: { text: string }[] | null; chosen_completion: number | null; human_completion: { text: string } | null }[];
    finish_reason: string;
  };
}

function expectSlice(response: string, found: ExtractedAnswer | null): ExtractedAnswer {
  expect(found).not.toBeNull();
  const answer = found as ExtractedAnswer;
  expect(response.slice(answer.start, answer.end)).toBe(answer.text);
  return answer;
}

function followedTrajectory(record: PrmRecord): string {
  const texts: string[] = [];
  for (const step of record.label.steps) {
    const chosen = step.chosen_completion === null ? undefined : step.completions?.[step.chosen_completion];
    const text = chosen?.text ?? step.human_completion?.text;
    if (text === undefined) break;
    texts.push(text);
  }
  return texts.join('\n\n');
}

describe('extractAnswer on GSM8K model solutions (A: 18)', () => {
  const rows = readFixtureJsonl<GsmRow>('gsm8k_openai_example_model_solutions_first120.jsonl');

  it('finds the stated answer in every finished solution, and its offsets slice to it', () => {
    let found = 0;
    let unfinished = 0;
    for (const row of rows) {
      for (const model of MODELS) {
        const entry = row[model];
        if (typeof entry === 'string' || entry === undefined) continue;
        const answer = extractAnswer(entry.solution);
        if (answer === null) {
          // Two solutions in this sample were cut off before "A:"; nothing must be invented for them.
          expect(entry.solution).not.toMatch(/A:/);
          unfinished++;
          continue;
        }
        expectSlice(entry.solution, answer);
        expect(answer.method).toBe('a-colon');
        expect(answer.text).toMatch(/^-?[\d,.]+$/);
        found++;
      }
    }
    expect(found).toBe(478);
    expect(unfinished).toBe(2);
  });

  it('reads the reference answer from the dataset solution', () => {
    const first = rows[0];
    expect(first === undefined ? null : extractAnswer(first.ground_truth)?.text).toBe('18');
  });
});

describe('extractAnswer on Math-Shepherd (The answer is: X ки)', () => {
  const rows = readFixtureJsonl<{ input: string }>('openr_samples_math-shepherd.jsonl');

  it('reads the number after "The answer is:" without the step tag', () => {
    const answers = rows.map((r) => expectSlice(r.input, extractAnswer(r.input)));
    expect(answers.map((a) => a.text)).toEqual(['13520', '16000', '40', '900', '52', '2.2', '210']);
    expect(answers.every((a) => a.method === 'the-answer-is')).toBe(true);
  });
});

describe('extractAnswer on PRM800K (# Answer)', () => {
  const records = [
    ...readFixtureJsonl<PrmRecord>('prm800k_phase2_train_sample9.jsonl'),
    ...readFixtureJsonl<PrmRecord>('prm800k_phase1_train_sample.jsonl'),
    ...readFixtureJsonl<PrmRecord>('openr_samples_prm800k.jsonl'),
  ];

  it('reads the pre-generated answer from the pre-generated steps', () => {
    const withSteps = records.filter((r) => r.question.pre_generated_steps !== undefined);
    expect(withSteps.length).toBeGreaterThanOrEqual(9);
    for (const record of withSteps) {
      const response = (record.question.pre_generated_steps ?? []).join('\n\n');
      const answer = expectSlice(response, extractAnswer(response));
      expect(answer.method).toBe('answer-heading');
      expect(answer.text).toBe(record.question.pre_generated_answer);
    }
  });

  it('reads the answer at the end of each finished labelled trajectory', () => {
    const finished = records.filter((r) => r.label.finish_reason === 'solution');
    const answers = finished.map((r) => {
      const response = followedTrajectory(r);
      return expectSlice(response, extractAnswer(response)).text;
    });
    expect(answers).toEqual(['29', '40_9', '29', '468', '9', '8, 3, 1']);
  });
});

describe('extractAnswer on \\boxed', () => {
  it('keeps nested braces whole', () => {
    const response = 'So $x = \\boxed{\\frac{\\sqrt{3}}{2}}$.';
    expect(expectSlice(response, extractAnswer(response)).text).toBe('\\frac{\\sqrt{3}}{2}');
  });

  it('takes the last box when an earlier one was a first attempt', () => {
    const response = 'First try: $\\boxed{12}$. Wait, that is wrong; recounting gives\n\n$\\boxed{14}$';
    expect(expectSlice(response, extractAnswer(response)).text).toBe('14');
  });

  it('reads \\fbox and the brace-less "\\boxed 5"', () => {
    expect(extractAnswer('hence \\fbox{7} done')?.text).toBe('7');
    expect(extractAnswer('The total is $\\boxed 5$.')?.text).toBe('5');
  });

  it('joins boxes that are parts of one answer, and spans all of them', () => {
    const response = 'The roots are $\\boxed{-2}$ and $\\boxed{1}$.';
    const answer = extractAnswer(response);
    expect(answer?.text).toBe('-2, 1');
    expect(response.slice(answer?.start, answer?.end)).toBe('-2}$ and $\\boxed{1');
  });

  it('prefers a final statement that comes after a box in an intermediate step', () => {
    const response = 'Interest: $0.05 \\cdot 10200 / 2 = \\boxed{255}$. Final Answer: The final answer is $10,455$. I hope it is correct.';
    expect(expectSlice(response, extractAnswer(response)).text).toBe('$10,455$');
  });

  it('does not take "the answer is correct" over a box', () => {
    expect(extractAnswer('$\\boxed{3}$ and I think the answer is correct.')?.text).toBe('3');
  });

  it('runs an unclosed box to the end of the response rather than failing', () => {
    expect(extractAnswer('so \\boxed{42')?.text).toBe('42');
  });
});

describe('extractAnswer fallbacks', () => {
  it('returns null when nothing is stated, unless the last number is asked for', () => {
    const response = 'We add 3 and 4 to get 7 apples';
    expect(extractAnswer(response)).toBeNull();
    expect(extractAnswer(response, { lastNumber: true })).toEqual({ text: '7', start: 22, end: 23, method: 'last-number' });
  });

  it('reads "#### 72" (GSM8K dataset solutions)', () => {
    expect(extractAnswer('48/2 = <<48/2=24>>24\n#### 72')?.text).toBe('72');
  });

  it('takes the last answer marker: a final "#### 21" over an earlier "the answer is" phrase', () => {
    // As GSM8K-style prompts ask for `#### <answer>` on the last line (the real verl dumps' answers
    // read "correct according to th…" before this rule).
    expect(extractAnswer('I think the answer is correct according to the table.\n\n7 * 3 = 21\n#### 21')?.text).toBe('21');
    expect(extractAnswer('So the answer is either incorrect or not 27.\n\nRechecking: 21.\n\n#### 21')?.text).toBe('21');
    // A later "the answer is" with an answer in it is the last marker, and wins.
    expect(extractAnswer('#### 20\n\nWait, I made an error: the answer is 21.')?.text).toBe('21');
  });
});

