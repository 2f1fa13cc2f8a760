/**
 * Formats that carry human or automatic step labels: PRM800K, ProcessBench, Math-Shepherd, and
 * keyed model solutions (OpenAI's GSM8K example solutions: several solvers per problem).
 */
import type { SourceRecord } from '../model';
import type { AdaptResult, RolloutDraft } from './formatDraft';
import { asNumber, asText, type Json } from './fields';
import { KI_TAG } from '../steps/splitSteps';
import { stepScoreFields } from './stepScoreFields';
import { isRecord } from '../isRecord';

/** Try each labelled format; null when the record is none of them. */
export function adaptLabelled(record: SourceRecord): AdaptResult | null {
  const v = record.value as Json;
  if (isRecord(v.question) && isRecord(v.label) && Array.isArray((v.label as Json).steps)) return checked(record, () => adaptPrm800k(v));
  if (typeof v.problem === 'string' && Array.isArray(v.steps) && v.label !== undefined && 'final_answer_correct' in v) return checked(record, () => adaptProcessBench(v));
  if (typeof v.input === 'string' && typeof v.label === 'string' && v.input.includes(KI_TAG)) return ok(adaptMathShepherd(v));
  if (typeof v.question !== 'string') return null;
  // Only records with a question string can hold keyed solutions: the key scan is not paid per rollout line.
  const solvers = Object.keys(v).filter((k) => isRecord(v[k]) && typeof (v[k] as Json).solution === 'string' && 'is_correct' in (v[k] as Json));
  return solvers.length > 0 ? { drafts: adaptKeyedSolutions(v, solvers), diagnostics: [] } : null;
}

function ok(draft: RolloutDraft): AdaptResult {
  return { drafts: [draft], diagnostics: [] };
}

/** A step the record holds that is no text: a value nested too deep to be written out as one. */
class StepShapeError extends Error {}

/** The adapted record, or a diagnostic for a record whose steps cannot be read as texts. */
function checked(record: SourceRecord, adapt: () => RolloutDraft): AdaptResult {
  try {
    return ok(adapt());
  } catch (error) {
    if (!(error instanceof StepShapeError)) throw error;
    return { drafts: [], diagnostics: [{ line: record.line, severity: 'error', code: 'bad-steps', message: `line ${record.line}: ${error.message}` }] };
  }
}

/** Deepest nesting a step that is not a string may have. */
const MAX_STEP_DEPTH = 32;

/**
 * A step as text: a string as it is, anything else printed (`String()`) when it is shallow.
 * `String()` of a 200,000-deep array overflowed the stack and took the whole file's analysis
 * with it; such a step makes its record unreadable instead.
 */
function stepText(step: unknown, index: number): string {
  if (typeof step === 'string') return step;
  if (step === null || step === undefined) return '';
  if (typeof step !== 'object') return String(step);
  if (isDeeperThan(step, MAX_STEP_DEPTH)) throw new StepShapeError(`step ${index + 1} is not a text but a value nested more than ${MAX_STEP_DEPTH} deep`);
  return String(step);
}

/** Whether `value` nests deeper than `limit`, walked without recursion. */
function isDeeperThan(value: object, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * PRM800K. Phase 2 records carry the model's whole solution (`pre_generated_steps`): that is the
 * rollout. Phase 1 records follow completions[chosen_completion], else the human completion, else
 * a lone rated completion (and stop there), else stop.
 */
function adaptPrm800k(v: Json): RolloutDraft {
  const q = v.question as Json;
  const { steps, labels } = Array.isArray(q.pre_generated_steps) ? pregenerated(q.pre_generated_steps, (v.label as Json).steps as Json[]) : followed((v.label as Json).steps as Json[]);
  const prompt = typeof q.problem === 'string' ? q.problem : '';
  const gold = asText(q.ground_truth_answer);
  return {
    id: 0,
    line: 0,
    index: 0,
    format: 'prm800k',
    group: `${prompt}\u0000${gold ?? ''}`,
    prompt,
    response: steps.join('\n\n'),
    gold,
    fileOutcome: { kind: 'unknown', source: 'none' },
    ...stepScoreFields(v),
    explicitSteps: steps,
    responsePath: null,
    responseShift: 0,
    stepLabels: labels,
    firstErrorStep: labels.findIndex((r) => r === -1),
  };
}

/** Phase 2: the model's whole pre-generated solution; the labeller rated its steps (completion 0) up to the first error. */
function pregenerated(pre: unknown[], rated: Json[]): { steps: string[]; labels: (number | null)[] } {
  const steps = pre.map(stepText);
  const labels = steps.map((_, i) => {
    const completions = rated[i]?.completions;
    return Array.isArray(completions) && completions[0] ? asNumber((completions[0] as Json).rating) : null;
  });
  return { steps, labels };
}

/** Phase 1: the trajectory the labeller followed. */
function followed(rated: Json[]): { steps: string[]; labels: (number | null)[] } {
  const steps: string[] = [];
  const labels: (number | null)[] = [];
  for (const step of rated) {
    const taken = followedCompletion(step);
    if (!taken) break;
    steps.push(taken.text);
    labels.push(taken.rating);
    if (taken.isLast) break;
  }
  return { steps, labels };
}

function followedCompletion(step: Json): { text: string; rating: number | null; isLast: boolean } | null {
  const completions = Array.isArray(step.completions) ? (step.completions as Json[]) : [];
  const chosen = asNumber(step.chosen_completion);
  const pick = chosen !== null ? completions[chosen] : undefined;
  if (pick && typeof pick.text === 'string') return { text: pick.text, rating: asNumber(pick.rating), isLast: false };
  const human = step.human_completion;
  if (isRecord(human) && typeof human.text === 'string') return { text: human.text, rating: null, isLast: false };
  const only = completions.length === 1 ? completions[0] : undefined;
  if (only && typeof only.text === 'string') return { text: only.text, rating: asNumber(only.rating), isLast: true };
  return null;
}

/**
 * ProcessBench: `steps`, `label` = index of the first wrong step or −1, `final_answer_correct`.
 * Its `id` names one item, not a group: the solutions to the same `problem` are the group.
 */
function adaptProcessBench(v: Json): RolloutDraft {
  const steps = (v.steps as unknown[]).map(stepText);
  const label = asNumber(v.label);
  const correct = v.final_answer_correct;
  const prompt = v.problem as string;
  return {
    id: 0,
    line: 0,
    index: 0,
    format: 'processbench',
    group: `${prompt}\u0000`,
    prompt,
    response: steps.join('\n\n'),
    gold: null,
    fileOutcome: typeof correct === 'boolean' ? { kind: correct ? 'correct' : 'incorrect', source: 'file', value: correct } : { kind: 'unknown', source: 'none' },
    ...stepScoreFields(v),
    explicitSteps: steps,
    responsePath: null,
    responseShift: 0,
    stepLabels: steps.map((_, i) => (label === null || label < 0 || i < label ? 1 : i === label ? -1 : null)),
    firstErrorStep: label === null ? null : label,
  };
}

/**
 * Math-Shepherd: `input` is question + steps each ended by ` ки`; `label` is the same text with
 * `+` or `-` in place of each tag. The question ends where "Step 1:" begins.
 */
function adaptMathShepherd(v: Json): RolloutDraft {
  const input = v.input as string;
  const stepStart = input.search(/Step\s*1\s*:/);
  const shift = stepStart > 0 ? stepStart : 0;
  const prompt = input.slice(0, shift).trim();
  const labels = shepherdLabels(v.label as string);
  const firstError = labels.findIndex((l) => l === -1);
  const last = labels[labels.length - 1];
  return {
    id: 0,
    line: 0,
    index: 0,
    format: 'math-shepherd',
    group: `${prompt}\u0000`,
    prompt,
    response: input.slice(shift),
    gold: null,
    fileOutcome: last === undefined ? { kind: 'unknown', source: 'none' } : { kind: last === 1 ? 'correct' : 'incorrect', source: 'file', value: last },
    ...stepScoreFields(v),
    explicitSteps: null,
    responsePath: ['input'],
    responseShift: shift,
    stepLabels: labels,
    firstErrorStep: firstError,
  };
}

/** The +/- marks where the input had step tags: a mark ends each step, before a newline or the end. */
function shepherdLabels(label: string): number[] {
  return [...label.matchAll(/ ([+-])(?=\n|$)/g)].map((m) => (m[1] === '+' ? 1 : -1));
}

/** `{question, ground_truth, <solver>: {is_correct, solution}, ...}`: one rollout per solver. */
function adaptKeyedSolutions(v: Json, solvers: string[]): RolloutDraft[] {
  const prompt = v.question as string;
  const goldText = asText(v.ground_truth) ?? asText(v.answer);
  const gold = goldText === null ? null : finalLineAnswer(goldText);
  return solvers.map((key, index) => {
    const s = v[key] as Json;
    const solution = s.solution as string;
    const correct = s.is_correct;
    return {
      id: 0,
      line: 0,
      index,
      format: 'grouped',
      group: `${prompt}\u0000${gold ?? ''}`,
      prompt,
      response: solution,
      gold,
      fileOutcome: typeof correct === 'boolean' ? { kind: correct ? 'correct' : 'incorrect', source: 'file', value: correct } : { kind: 'unknown', source: 'none' },
      ...stepScoreFields(s),
      // These solutions put one step per line.
      explicitSteps: solution.split('\n').map((l) => l.trim()).filter((l) => l.length > 0),
      responsePath: [key, 'solution'],
      responseShift: 0,
    };
  });
}

/**
 * GSM8K reference solutions end with `A: 18` or `#### 18`: the gold is that final answer (the
 * text after the marker, on the marker's line or, when that is empty, the next one). Found by
 * hand rather than by one regex: `\s*([^\n]+)\s*$` backtracked cubically over a line of spaces.
 */
export function finalLineAnswer(text: string): string {
  const body = text.trimEnd();
  const lineStart = body.lastIndexOf('\n') + 1;
  const answer = markedAnswer(body.slice(lineStart));
  if (answer !== null && answer !== '') return answer;
  // `A:` alone on its line (blank lines may follow), the value on the last line.
  let end = lineStart - 1;
  while (end > 0) {
    const start = body.lastIndexOf('\n', end - 1) + 1;
    const line = body.slice(start, end);
    if (line.trim() !== '') return markedAnswer(line) === '' ? body.slice(lineStart).trim() : text.trim();
    end = start - 1;
  }
  return text.trim();
}

/** The text after a leading `A:` or `####` marker (trimmed), or null when the line has none. */
function markedAnswer(line: string): string | null {
  const rest = line.trimStart();
  if (rest.startsWith('A:')) return rest.slice(2).trim();
  if (rest.startsWith('####')) return rest.slice(4).trim();
  return null;
}
