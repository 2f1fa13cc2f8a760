/**
 * Real NeMo Gym rollouts nobody on the project wrote: five rollouts of gpt-5 on math problems, as
 * NeMo Gym's `math_with_judge` resources server recorded them (Responses API records: the chat
 * `input` messages under `responses_create_params`, the model's `output` items under `response`,
 * the server's `reward`, `expected_answer`, `extracted_answer`, `library_reward` and the LLM
 * judge's calls). test/fixtures/real/README.md names the source and licence.
 *
 * The tool reads this record shape with no options (the NeMo Gym reader), and with a field mapping
 * (`--field`) as a user of an unknown shape would; both readings are checked against the file's own
 * truth — the server's `reward` and `expected_answer` — never against the tool's earlier output.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyseText } from '../../src/scoring/analysis/analyse';
import { eachRollout, groupNamesOfAnalysis } from '../../src/core/report/fileAnalysis';
import { runCli } from '../../src/cli/main';
import type { FieldRole } from '../../src/core/profSettings';

const REAL = fileURLToPath(new URL('../fixtures/real/', import.meta.url));
const DUMP = `${REAL}nemo_gym_math_with_judge_gpt5.jsonl`;

interface Message {
  role: string;
  content: string;
}
interface OutputItem {
  type: string;
  content?: { text: string }[];
}
interface GymRecord {
  responses_create_params: { input: Message[] };
  response: { output: OutputItem[] };
  reward: number;
  expected_answer: string;
  extracted_answer: string | null;
  library_reward: number;
  judge_evaluations: unknown[] | null;
}

const text = readFileSync(DUMP, 'utf8');
const records = text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as GymRecord);

/** Each record's one user message, and its one assistant message (after a reasoning item). */
const userText = (r: GymRecord): string => r.responses_create_params.input.find((m) => m.role === 'user')!.content;
const INSTRUCTION = 'Solve the following math problem. Make sure to put the answer (and only answer) inside \\boxed{}.';

/** Where the roles are in these records, as a user maps them with `--field`. */
const FIELDS: Partial<Record<FieldRole, string>> = {
  prompt: 'responses_create_params.input.0.content',
  response: 'response.output.1.content.0.text',
  gold: 'expected_answer',
  outcome: 'reward',
};

/** The file with the server's verdicts (`reward`, `library_reward`, `extracted_answer`, the judge's calls) taken out. */
function withoutVerdict(): string {
  return records.map(({ reward: _r, library_reward: _l, extracted_answer: _e, judge_evaluations: _j, ...rest }) => JSON.stringify(rest)).join('\n') + '\n';
}

describe('real NeMo Gym rollouts: math_with_judge, gpt-5 (5 rollouts)', () => {
  it('the records are as the mapping assumes: one user message, a reasoning item then one message', () => {
    expect(records.length).toBe(5);
    for (const r of records) {
      expect(r.responses_create_params.input.map((m) => m.role)).toEqual(['user']);
      expect(r.response.output.map((o) => o.type)).toEqual(['reasoning', 'message']);
      expect(userText(r).startsWith(INSTRUCTION)).toBe(true);
    }
  });

  it('with no options: read as NeMo Gym rollouts, every rollout read, one group per problem, the outcome is the reward', async () => {
    const a = await analyseText(text, { fileName: 'real.jsonl', scorer: 'checker' });
    expect(a.report.rollouts).toBe(records.length);
    expect(a.report.groups).toBe(new Set(records.map(userText)).size);
    expect(a.report.unreadableLines).toBe(0);
    const rollouts = [...eachRollout(a)];
    expect(rollouts.map((r) => r.format)).toEqual(records.map(() => 'nemo-gym'));
    expect(rollouts.map((r) => r.outcome.kind === 'correct')).toEqual(records.map((r) => r.reward > 0));
    expect(rollouts.map((r) => r.gold)).toEqual(records.map((r) => r.expected_answer));
    const answerText = (r: GymRecord): string => r.response.output.find((o) => o.type === 'message')!.content!.map((c) => c.text).join('');
    expect(rollouts.map((r) => r.response)).toEqual(records.map(answerText));
  }, 60_000);

  it("with no options, the verdicts taken out: grading agrees with the server's reward on 4 of 5", async () => {
    const a = await analyseText(withoutVerdict(), { fileName: 'graded.jsonl', scorer: 'checker' });
    const graded = [...eachRollout(a)];
    expect(graded.length).toBe(records.length);
    const agrees = graded.map((r) => r.outcome.kind !== 'unknown' && (r.outcome.kind === 'correct') === records[r.id]!.reward > 0);
    expect(agrees.filter(Boolean).length).toBeGreaterThanOrEqual(4);
  }, 60_000);

  it('with the mapping: every rollout read, one group per problem, the outcome is the reward', async () => {
    const a = await analyseText(text, { fileName: 'real.jsonl', scorer: 'checker', settings: { fields: FIELDS } });
    expect(a.report.rollouts).toBe(records.length);
    expect(a.report.groups).toBe(new Set(records.map(userText)).size);
    expect(a.report.unreadableLines).toBe(0);
    const outcomes = [...eachRollout(a)].map((r) => r.outcome.kind === 'correct');
    expect(outcomes).toEqual(records.map((r) => r.reward > 0));
  }, 60_000);

  it('names each group by its problem, without the instruction every prompt shares', async () => {
    const a = await analyseText(text, { fileName: 'real.jsonl', scorer: 'checker', settings: { fields: FIELDS } });
    const names = groupNamesOfAnalysis(a);
    for (const r of eachRollout(a)) {
      const problem = userText(records[r.id]!).slice(INSTRUCTION.length).replace(/\s+/g, ' ').trim();
      const name = names.get(r.id) ?? '';
      expect(name.length).toBeGreaterThan(0);
      expect(problem.startsWith(name.replace(/…$/, ''))).toBe(true);
    }
  }, 60_000);

  it("grading with the verdicts taken out: agrees with the server's reward on 4 of 5", async () => {
    const a = await analyseText(withoutVerdict(), { fileName: 'graded.jsonl', scorer: 'checker', settings: { fields: FIELDS } });
    const graded = [...eachRollout(a)];
    expect(graded.length).toBe(records.length);
    const agrees = graded.map((r) => r.outcome.kind !== 'unknown' && (r.outcome.kind === 'correct') === records[r.id]!.reward > 0);
    // Below the suite's 97%: the threshold is what the tool reaches today (4 of 5, 80%).
    expect(agrees.filter(Boolean).length).toBeGreaterThanOrEqual(4);
    // The one it misses (line 2) is an equivalent closed form the judge accepted:
    // (1+√3)^4033 − (1−√3)^4033 over 2^2017·√3 is the gold's ((3−√3)(2−√3)^2016 + (3+√3)(2+√3)^2016)/6,
    // since (1±√3)² = 2(2±√3). The values overflow a double; the tool calls it incorrect.
    // When the tool learns it, this line agrees too and the figure rises to 5 of 5.
    expect(records[1]!.reward).toBe(1);
  }, 60_000);

  it('report with the mapping states how its grading agrees with the reward', async () => {
    let out = '';
    const dir = fileURLToPath(new URL('.', import.meta.url));
    const path = `${process.env.PROF_LENS_CACHE_DIR ?? dir}/nemo-gym.jsonl`;
    writeFileSync(path, text);
    const args = Object.entries(FIELDS).flatMap(([role, p]) => ['--field', `${role}=${p}`]);
    const code = await runCli(['report', path, '--json', ...args], { stdout: (t) => (out += t), stderr: () => undefined, isStderrTty: false, cwd: dir });
    expect(code).toBe(0);
    const json = JSON.parse(out) as { rollouts: number; gradingAgreement: { graded: number; agrees: number } };
    expect(json.rollouts).toBe(records.length);
    expect(json.gradingAgreement.graded).toBe(records.length);
    expect(json.gradingAgreement.agrees).toBeGreaterThanOrEqual(4);
  }, 60_000);
});
