/**
 * Solutions with a known first wrong step, read from the public labelled datasets' own record
 * shapes (PRM800K, Math-Shepherd, ProcessBench, OpenAI's GSM8K example solutions), ready to be
 * scored by any scorer and turned into first-error evaluation items.
 */
import type { EvaluationItem } from './firstError';

/** One solution, split into steps, with where it first goes wrong. */
export interface LabelledSolution {
  subset: string;
  id: string;
  problem: string;
  steps: string[];
  /**
   * 0-based index of the first wrong step; −1 when no step is wrong; null when the solution is
   * known to be wrong but not where (GSM8K example solutions marked incorrect).
   */
  firstErrorStep: number | null;
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Pair a solution with step scores; null when its first error is unknown. */
export function toEvaluationItem(solution: LabelledSolution, stepScores: readonly (number | null)[]): EvaluationItem | null {
  if (solution.firstErrorStep === null) return null;
  return { subset: solution.subset, stepScores, firstErrorStep: solution.firstErrorStep };
}

/**
 * PRM800K: follow `chosen_completion`, else the human completion. Where a labeller chose nothing,
 * the step holds the completion rated −1 (in phase 2, the pre-generated one comes first): it is the
 * first error and the solution stops there. A chosen completion rated −1 is an error too.
 */
export function fromPrm800k(record: unknown, subset = 'prm800k'): LabelledSolution | null {
  if (!isObject(record) || !isObject(record.question) || !isObject(record.label)) return null;
  const rawSteps = record.label.steps;
  if (!Array.isArray(rawSteps)) return null;
  const steps: string[] = [];
  let firstErrorStep = -1;
  for (const step of rawSteps) {
    const taken = isObject(step) ? followed(step) : null;
    if (!taken) break;
    steps.push(taken.text);
    if (taken.rating === -1) {
      firstErrorStep = steps.length - 1;
      break;
    }
  }
  const problem = typeof record.question.problem === 'string' ? record.question.problem : '';
  const id = `${String(record.labeler ?? '')}@${String(record.timestamp ?? '')}`;
  return { subset, id, problem, steps, firstErrorStep };
}

function followed(step: Json): { text: string; rating: unknown } | null {
  const completions = Array.isArray(step.completions) ? step.completions.filter(isObject) : [];
  const chosen = typeof step.chosen_completion === 'number' ? completions[step.chosen_completion] : undefined;
  if (chosen && typeof chosen.text === 'string') return { text: chosen.text, rating: chosen.rating };
  const human = step.human_completion;
  if (isObject(human) && typeof human.text === 'string') return { text: human.text, rating: human.rating };
  const wrong = completions.find((c) => c.rating === -1 && typeof c.text === 'string');
  return wrong ? { text: String(wrong.text), rating: -1 } : null;
}

/** The Math-Shepherd step tag in `input`; `label` holds `+` or `-` in its place. */
const KI = '\u043a\u0438';

/** Math-Shepherd: steps end at ` ки` tags; the first `-` in `label` marks the first error. */
export function fromMathShepherd(record: unknown, subset = 'math-shepherd', id = ''): LabelledSolution | null {
  if (!isObject(record) || typeof record.input !== 'string' || typeof record.label !== 'string') return null;
  const input = record.input;
  const label = record.label;
  const marks: string[] = [];
  for (let at = input.indexOf(KI); at >= 0; at = input.indexOf(KI, at + KI.length)) {
    // Each earlier two-character tag became one character in `label`.
    marks.push(label[at - marks.length] ?? '');
  }
  if (marks.length === 0 || marks.some((m) => m !== '+' && m !== '-')) return null;
  const pieces = input.split(KI).slice(0, marks.length);
  const stepStart = (pieces[0] ?? '').search(/Step 1\s*:/);
  const problem = stepStart > 0 ? (pieces[0] ?? '').slice(0, stepStart).trim() : '';
  if (stepStart > 0) pieces[0] = (pieces[0] ?? '').slice(stepStart);
  return { subset, id, problem, steps: pieces.map((p) => p.trim()), firstErrorStep: marks.indexOf('-') };
}

/** ProcessBench: `steps`, `label` = first wrong step or −1. The subset is the file's name. */
export function fromProcessBench(record: unknown, subset: string): LabelledSolution | null {
  if (!isObject(record) || !Array.isArray(record.steps) || typeof record.label !== 'number') return null;
  if (!Number.isInteger(record.label) || record.label < -1 || record.label >= record.steps.length) return null;
  return {
    subset,
    id: String(record.id ?? ''),
    problem: typeof record.problem === 'string' ? record.problem : '',
    steps: record.steps.map((s) => (typeof s === 'string' ? s : String(s))),
    firstErrorStep: record.label,
  };
}

/**
 * OpenAI's GSM8K example solutions: `ground_truth` and each solver's `{is_correct, solution}`,
 * one step per line. A correct solution has no wrong step; for an incorrect one the step is unknown.
 */
export function fromGsm8kExampleSolutions(record: unknown, subset = 'gsm8k'): LabelledSolution[] {
  if (!isObject(record)) return [];
  const problem = typeof record.question === 'string' ? record.question : '';
  const out: LabelledSolution[] = [];
  const lines = (text: string): string[] => text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  if (typeof record.ground_truth === 'string') {
    out.push({ subset, id: 'ground_truth', problem, steps: lines(record.ground_truth), firstErrorStep: -1 });
  }
  for (const [key, value] of Object.entries(record)) {
    if (!isObject(value) || typeof value.solution !== 'string' || typeof value.is_correct !== 'boolean') continue;
    out.push({ subset, id: key, problem, steps: lines(value.solution), firstErrorStep: value.is_correct ? -1 : null });
  }
  return out;
}
