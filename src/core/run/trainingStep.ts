/**
 * Which training step a record belongs to. verl's `rollout_data_dir` writes one file per step,
 * `{global_step}.jsonl`, whose records also carry `step`; other trainers append every step to one
 * file with a `step` or `global_step` field. The record's field wins; the number in the file's
 * name is the fallback, so a folder of step files needs no field at all.
 */

/** Record fields that name the training step, in the order they are looked for. */
export const STEP_FIELDS = ['step', 'global_step'] as const;

/** A whole number ≥ 0 from a number or a numeric string (`"40"`, `40.0`); null otherwise. */
function asStep(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+(\.0+)?\s*$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

/** The step a parsed record names in `step` or `global_step`, or null when it names none. */
export function stepOfRecord(value: unknown): number | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  for (const field of STEP_FIELDS) {
    const step = asStep(record[field]);
    if (step !== null) return step;
  }
  return null;
}

/** A step named in a file's or a folder's name: `step_12`, `step12`, `grpo_step_000100`, `global_step_40_evals`. */
const STEP_WORD = /(?:^|[^a-z])step[_-]?(\d+)(?!.*step[_-]?\d)/i;
/** How many folders above a file may name its step (prime-rl's `step_N/train/all/traces.jsonl` is three). */
const STEP_FOLDER_DEPTH = 3;

/**
 * The step a file's path names, looked for in this order:
 * - a step word in the file's name (`rollout_dump_data.step_12.jsonl` → 12, `run3-step40.jsonl` → 40);
 * - a step word in one of the three folders above it, the nearest first (`grpo_step_000100/sample_rollouts.jsonl`
 *   → 100, `global_step_40_evals/math500.jsonl` → 40, `step_3/train/all/traces.jsonl` → 3);
 * - AReaL's weight-version folder, `rollout/{version}/{task_id}.jsonl` (the name is the task, not the step);
 * - the last run of digits in the name without its extension (`40.jsonl` → 40, `completions_00040.parquet` → 40).
 * Null without one.
 */
export function stepOfFileName(path: string): number | null {
  const parts = path.replace(/\\/g, '/').split('/');
  const base = (parts[parts.length - 1] ?? '').replace(/\.[^.]*$/, '');
  const named = base.match(STEP_WORD);
  if (named) return asWhole(named[1]!);
  const folders = parts.slice(0, -1);
  for (let i = folders.length - 1; i >= Math.max(0, folders.length - STEP_FOLDER_DEPTH); i--) {
    const folder = folders[i]!.match(STEP_WORD);
    if (folder) return asWhole(folder[1]!);
  }
  if (/^\d+$/.test(base) && folders.length >= 2 && /^\d+$/.test(folders[folders.length - 1]!) && /^(eval-)?rollout$/.test(folders[folders.length - 2]!)) {
    return asWhole(folders[folders.length - 1]!);
  }
  const digits = base.match(/\d+/g);
  return digits ? asWhole(digits[digits.length - 1]!) : null;
}

function asWhole(digits: string): number | null {
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : null;
}

/** Order of a run's files: by the step in the name (files without one last), then by name. */
export function compareRunFiles(a: string, b: string): number {
  const sa = stepOfFileName(a);
  const sb = stepOfFileName(b);
  if (sa !== sb) return sa === null ? 1 : sb === null ? -1 : sa - sb;
  return a < b ? -1 : a > b ? 1 : 0;
}
