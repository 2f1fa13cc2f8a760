/**
 * How each trainer lays out a training run on disk (docs/trainer-dumps.md), and which of its files
 * are the training steps and which are validation dumps (read as a run of their own, never as
 * training steps):
 * - verl: `{global_step}.jsonl` in `rollout_data_dir`; `validation_data_dir` is a folder apart.
 * - TRL: `<output_dir>/completions/completions_{step:05d}.parquet`.
 * - NeMo-RL: `train_data_step{N}.jsonl` beside `val_data_step{N}.jsonl`.
 * - prime-rl: `rollouts/step_{N}/train/all/traces.jsonl` (every rollout; `effective` is the
 *   trained-on subset, left out) beside `step_{N}/eval/all/traces.jsonl`.
 * - open-instruct: `{run}_rollouts_{shard:06d}.jsonl` (records carry their step) beside
 *   `{run}_metadata.jsonl` (no rollouts).
 * - AReaL: `rollout/{version}/{task_id}.jsonl` beside `eval-rollout/{version}/…`.
 * - SkyRL: `dumped_evals/global_step_{N}_evals/{data_source}.jsonl` (its evaluation dumps; its
 *   training batches are pickles) beside `aggregated_results.jsonl` (no rollouts).
 * - ROLL, and loops written by hand: step files at the top (`rollout_dump_data.step_{N}.jsonl`), or
 *   one folder per step (`grpo_step_000100/sample_rollouts.jsonl`, `step_12/…`, `global_step_40/…`).
 * Paths here are relative to the run's folder, with `/` between segments.
 */

export type RunLayoutKind = 'step-files' | 'trl' | 'nemo-rl' | 'prime-rl' | 'open-instruct' | 'areal' | 'skyrl';

/** Layout names as the run view and `trend` say them. */
export const RUN_LAYOUT_NAMES: Readonly<Record<RunLayoutKind, string>> = {
  'step-files': 'a folder of step files',
  trl: 'TRL completions',
  'nemo-rl': 'NeMo-RL logs',
  'prime-rl': 'prime-rl rollouts',
  'open-instruct': 'open-instruct traces',
  areal: 'AReaL trajectories',
  skyrl: 'SkyRL evaluation dumps',
};

/** Which files of a run are read: its training steps, or its validation dumps. */
export type RunSplit = 'train' | 'validation';

/** A run folder's files, sorted out. */
export interface RunLayout {
  kind: RunLayoutKind;
  train: string[];
  validation: string[];
}

/** A folder named after its step: `step_12`, `grpo_step_000100`, `global_step_40`, `global_step_40_evals`. */
export const STEP_FOLDER = /^(?:.*[^a-z])?step[_-]?\d+(?:\D.*)?$/i;

/** Folders a trainer nests its step files in: the only ones looked into. */
export const LAYOUT_FOLDERS = /^(completions|rollouts|rollout|eval-rollout|dumped_evals|train|eval|all|effective|\d+)$/;

/** Whether the walk looks into a folder of this name. */
export function isLayoutFolder(name: string): boolean {
  return LAYOUT_FOLDERS.test(name) || STEP_FOLDER.test(name);
}

const STEP_FILE = /\.(jsonl|json|parquet)$/i;
const PRIME_TRACE = /^(?:rollouts\/)?step_\d+\/(train|eval)\/all\/traces\.jsonl$/;
const TRL_COMPLETIONS = /^(?:completions\/)?completions_\d+\.parquet$/;
const NEMO_TRAIN = /^train_data_step\d+\.jsonl$/;
const NEMO_VALIDATION = /^val_data_step\d+\.jsonl$/;
const OPEN_INSTRUCT_SHARD = /_rollouts_\d+\.jsonl$/;
const OPEN_INSTRUCT_METADATA = /_metadata\.jsonl$/;
const AREAL_TRAIN = /^(?:rollout\/)?\d+\/\d+\.jsonl$/;
const AREAL_EVAL = /^eval-rollout\/\d+\/\d+\.jsonl$/;
const SKYRL_EVALS = /^(?:dumped_evals\/)?global_step_\d+_evals\/[^/]+\.jsonl$/;

/** A step file one folder down, in a folder named after its step (`grpo_step_000100/sample_rollouts.jsonl`). */
function isInStepFolder(path: string): boolean {
  const parts = path.split('/');
  return parts.length === 2 && STEP_FOLDER.test(parts[0]!) && STEP_FILE.test(parts[1]!);
}

/** The run's files among the paths found in its folder (top level and the trainers' own folders). */
export function classifyRunFiles(paths: readonly string[]): RunLayout {
  const prime = paths.filter((p) => PRIME_TRACE.test(p));
  if (prime.length) return { kind: 'prime-rl', train: prime.filter((p) => /\/train\//.test(p)), validation: prime.filter((p) => /\/eval\//.test(p)) };
  const trl = paths.filter((p) => TRL_COMPLETIONS.test(p));
  if (trl.length) return { kind: 'trl', train: trl, validation: [] };
  const areal = paths.filter((p) => AREAL_TRAIN.test(p) || AREAL_EVAL.test(p));
  if (areal.length) return { kind: 'areal', train: areal.filter((p) => AREAL_TRAIN.test(p)), validation: areal.filter((p) => AREAL_EVAL.test(p)) };
  const skyrl = paths.filter((p) => SKYRL_EVALS.test(p));
  if (skyrl.length) return { kind: 'skyrl', train: skyrl, validation: [] };
  const top = paths.filter((p) => !p.includes('/') && STEP_FILE.test(p));
  if (top.some((p) => NEMO_TRAIN.test(p) || NEMO_VALIDATION.test(p))) {
    return { kind: 'nemo-rl', train: top.filter((p) => NEMO_TRAIN.test(p)), validation: top.filter((p) => NEMO_VALIDATION.test(p)) };
  }
  if (top.some((p) => OPEN_INSTRUCT_SHARD.test(p))) return { kind: 'open-instruct', train: top.filter((p) => OPEN_INSTRUCT_SHARD.test(p)), validation: [] };
  return { kind: 'step-files', train: [...top.filter((p) => !OPEN_INSTRUCT_METADATA.test(p)), ...paths.filter(isInStepFolder)], validation: [] };
}

/**
 * Whether a run's file must show a rollout before it counts as a step: a `.json` document (a
 * config, an evaluation summary), or a file whose own name names no step (`metrics.jsonl`,
 * SkyRL's `aggregated_results.jsonl`, a loop's `sample_rollouts.jsonl`). A file named after its
 * step (`40.jsonl`) is a step even when it cannot be read, so that it is named as a problem.
 */
export function needsRolloutCheck(path: string): boolean {
  const name = path.replace(/^.*[\\/]/, '');
  return /\.json$/i.test(name) || (/\.jsonl$/i.test(name) && !/\d/.test(name));
}

/** The first number in a file's own name (`40.jsonl`, `completions_00040.parquet`), or null. */
function stepOfName(name: string): number | null {
  const digits = name.replace(/\.[^.]*$/, '').match(/\d+/);
  return digits ? Number(digits[0]) : null;
}

/** Whether a path (relative to the run's folder) is one of the run's files of `split`. */
export function isRunFile(layout: RunLayoutKind, relative: string, split: RunSplit = 'train'): boolean {
  const one = classifyRunFiles([relative.replace(/\\/g, '/')]);
  return one.kind === layout && one[split].length === 1;
}

/**
 * The run a step file belongs to, as a folder relative to the file: a prime-rl trace's run is four
 * folders up (`rollouts/step_N/train/all/traces.jsonl`), an AReaL or SkyRL file's three, a file in
 * a step folder's two, a TRL completions file's is its folder.
 * Null for a file no trainer's layout names (the caller decides from its neighbours).
 */
export function runFolderOfStepFile(path: string): string | null {
  const parts = path.replace(/\\/g, '/').split('/');
  const name = parts[parts.length - 1] ?? '';
  if (name === 'traces.jsonl' && parts.length >= 5 && /^step_\d+$/.test(parts[parts.length - 4] ?? '')) return parts.slice(0, -4).join('/') || '/';
  // AReaL's `{trial}/rollout/{version}/{task_id}.jsonl`; SkyRL's `{export}/dumped_evals/global_step_N_evals/{source}.jsonl`.
  if (/^\d+\.jsonl$/.test(name) && parts.length >= 4 && /^\d+$/.test(parts[parts.length - 2]!) && /^(eval-)?rollout$/.test(parts[parts.length - 3]!)) return parts.slice(0, -3).join('/') || '/';
  if (parts.length >= 4 && /^global_step_\d+_evals$/.test(parts[parts.length - 2]!) && parts[parts.length - 3] === 'dumped_evals') return parts.slice(0, -3).join('/') || '/';
  // A loop's `{run}/grpo_step_000100/sample_rollouts.jsonl`: the step is the folder's.
  if (parts.length >= 3 && STEP_FOLDER.test(parts[parts.length - 2]!) && stepOfName(name) === null) return parts.slice(0, -2).join('/') || '/';
  if (/^completions_\d+\.parquet$/.test(name) || NEMO_TRAIN.test(name) || NEMO_VALIDATION.test(name) || OPEN_INSTRUCT_SHARD.test(name)) return parts.slice(0, -1).join('/') || '/';
  return null;
}
