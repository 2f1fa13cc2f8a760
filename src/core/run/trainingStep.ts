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

/**
 * The step in a file's name: the last run of digits in the name without its extension
 * (`40.jsonl` → 40, `rollouts_step_000120.jsonl` → 120, `run3-step40.jsonl` → 40); null without one.
 */
export function stepOfFileName(name: string): number | null {
  const base = name.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '');
  const digits = base.match(/\d+/g);
  // prime-rl names the step in a folder: `step_3/train/all/traces.jsonl`.
  if (!digits) return stepOfFolder(name);
  const n = Number(digits[digits.length - 1]);
  return Number.isSafeInteger(n) ? n : null;
}

/** The step of the last `step_N` folder in a path, or null. */
function stepOfFolder(path: string): number | null {
  const folders = path.replace(/\\/g, '/').split('/').slice(0, -1).filter((p) => /^step_\d+$/.test(p));
  const last = folders[folders.length - 1];
  const n = last === undefined ? NaN : Number(last.slice(5));
  return Number.isSafeInteger(n) ? n : null;
}

/** Order of a run's files: by the step in the name (files without one last), then by name. */
export function compareRunFiles(a: string, b: string): number {
  const sa = stepOfFileName(a);
  const sb = stepOfFileName(b);
  if (sa !== sb) return sa === null ? 1 : sb === null ? -1 : sa - sb;
  return a < b ? -1 : a > b ? 1 : 0;
}
