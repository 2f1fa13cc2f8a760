/**
 * Records as RL trainers write them (docs/trainer-dumps.md), recognised from their shape alone:
 * TRL's completions table, open-instruct's token-id traces (and its run metadata), slime's samples
 * once converted from `torch.save`, and — each in a file of its own — NeMo-RL's message logs and
 * prime-rl's episodes (agents.ts), ROLL's column dumps, AReaL's trajectories and SkyRL's
 * evaluation dumps and NeMo Gym's Responses API rollouts. verl's flat dumps are read with the other flat formats (adaptRecord.ts).
 */
import type { Diagnostic, SourceRecord } from '../model';
import type { AdaptResult, RolloutDraft } from './formatDraft';
import { asText, outcomeFromValue, type Json } from './fields';
import { adaptNemoRl, adaptPrimeRl } from './agents';
import { adaptRoll, isRollDump } from './roll';
import { adaptAreal, isArealSample } from './areal';
import { adaptSkyrl, isSkyrlEval } from './skyrl';
import { adaptNemoGym, isNemoGymRollout } from './nemoGym';
import { rewardFieldsOf, rewardValue } from './rewardFields';
import { readRolloutTexts } from '../transcript/rolloutText';
import { promptGroup, trainerDraft } from './trainerDraft';
import { stepScoreFields } from './stepScoreFields';

/** Turns token ids back into text with the tokenizer of the model that wrote them. */
export interface TokenDecoder {
  /** The tokenizer's name (the model id) and where it was found, for messages. */
  name: string;
  /** The text of `ids`; throws, with the reason in words, when they are not read (too long, a tokenizer that overran its time). */
  decode(ids: readonly number[]): string;
  /**
   * Decodes what `records` hold before they are adapted (the tokenizer runs elsewhere, on a time
   * budget); adapting stays synchronous. Every reader of token-id traces awaits it first.
   */
  prepare?(records: readonly SourceRecord[]): Promise<void>;
}

/** Why token ids were not read: for one list (too long), or for the whole file (the tokenizer is not used). */
export class TraceDecodeError extends Error {
  override readonly name = 'TraceDecodeError';
  constructor(message: string, readonly isWholeFile: boolean) {
    super(message);
  }
}

/** What a trainer's record may need from outside the file. */
export interface AdaptContext {
  /** The tokenizer for records that hold token ids only (open-instruct). */
  decoder?: TokenDecoder | null;
  /** When no tokenizer was found: what the user must provide, said exactly. */
  decoderProblem?: string;
  /** Collect the reward fields beside the outcome (default true; a run summary shows none). */
  rewards?: boolean;
}

/** A trainer's record adapted, or null when the record is not one of theirs. */
export function adaptTrainerRecord(record: SourceRecord, context: AdaptContext): AdaptResult | null {
  const value = record.value as Json;
  if (isTrlRow(value)) return { drafts: [adaptTrl(value)], diagnostics: trlNotes(value, record.line) };
  if (Array.isArray(value.prompt_tokens) && Array.isArray(value.response_tokens)) return adaptOpenInstruct(record, context);
  if (isOpenInstructMetadata(value)) return { drafts: [], diagnostics: [metadataNote(value, record.line)] };
  if (Array.isArray(value.traces) && value.task !== null && typeof value.task === 'object') return adaptPrimeRl(record);
  if (Array.isArray(value.content) && Array.isArray(value.rewards)) return adaptNemoRl(record);
  if ('group_index' in value && typeof value.response === 'string' && 'label' in value) return { drafts: [adaptSlime(value, record.line)], diagnostics: [] };
  if (isRollDump(value)) return adaptRoll(record);
  if (isArealSample(value)) return adaptAreal(record);
  if (isSkyrlEval(value)) return adaptSkyrl(record);
  if (isNemoGymRollout(value)) return adaptNemoGym(record);
  return null;
}

/**
 * TRL GRPOTrainer's completions table (`completions/completions_{step:05d}.parquet`): `step`,
 * `prompt`, `completion`, one column per reward function, the columns reward functions log
 * (`solution` …), `advantage`. The reward columns are the numbers between `completion` and
 * `advantage`.
 */
function isTrlRow(value: Json): boolean {
  return typeof value.prompt === 'string' && typeof value.completion === 'string' && 'advantage' in value && 'step' in value;
}

/** TRL's reward columns, in the table's order. */
export function trlRewardColumns(row: Json): string[] {
  const columns: string[] = [];
  let isAfterCompletion = false;
  for (const key in row) {
    if (key === 'completion') isAfterCompletion = true;
    else if (key === 'advantage') break;
    else if (isAfterCompletion && rewardValue(row[key]) !== undefined) columns.push(key);
  }
  return columns;
}

/** A reward function whose name says it checks the answer (TRL's `accuracy_reward`, …). */
const ACCURACY_NAME = /accura|correct|(^|_)acc($|_)|verif|exact|math|answer/i;

/**
 * The reward column that is the outcome: the first whose name says it checks the answer. A table
 * with none (only format or length rewards) has no outcome until the user names one: a format
 * reward is not correctness.
 */
export function trlOutcomeColumn(columns: readonly string[]): string | null {
  return columns.find((c) => ACCURACY_NAME.test(c)) ?? null;
}

function adaptTrl(row: Json): RolloutDraft {
  const prompt = row.prompt as string;
  const response = row.completion as string;
  const columns = trlRewardColumns(row);
  const outcomeColumn = trlOutcomeColumn(columns);
  // TRL's accuracy_reward logs the gold as `solution`.
  const gold = asText(row.solution) ?? asText(row.answer);
  const texts = readRolloutTexts(prompt);
  return trainerDraft('trl', {
    group: promptGroup(prompt, gold, 0),
    prompt: texts.question,
    response,
    gold,
    fileOutcome: outcomeColumn ? outcomeFromValue(row[outcomeColumn]) : { kind: 'unknown', source: 'none' },
    responsePath: ['completion'],
    // Scores `prof-lens score` wrote into an exported row are read back like any record's.
    ...stepScoreFields(row),
    promptReading: texts.promptReading,
    ...(outcomeColumn ? { outcomeField: outcomeColumn } : {}),
    rewards: [...columns, 'advantage'].map((name) => ({ name, value: rewardValue(row[name]) ?? null })),
  });
}

/** When no reward column names the outcome, say which there are and how to name one. */
function trlNotes(row: Json, line: number): Diagnostic[] {
  const columns = trlRewardColumns(row);
  if (trlOutcomeColumn(columns) !== null) return [];
  const which = columns.length ? `its reward columns are ${columns.join(', ')}, and none is named like an accuracy reward` : 'it has no reward column';
  return [{
    line,
    severity: 'warning',
    code: 'outcome-column',
    message: `line ${line}: TRL completions: ${which}; outcomes stay unknown until you name the outcome column (--field outcome=<column>, or "outcome" in profLens.fields.mapping)`,
  }];
}

/**
 * open-instruct's saved traces (`save_traces`: `{run}_rollouts_{shard:06d}.jsonl`): token ids
 * only, decoded here with the tokenizer of the model its `{run}_metadata.jsonl` names. Its
 * `reward` is the verifiable reward (10.0 by default) plus any format reward: above 0 is correct.
 */
function adaptOpenInstruct(record: SourceRecord, context: AdaptContext): AdaptResult {
  const value = record.value as Json;
  const decoder = context.decoder;
  const promptIds = tokenIds(value.prompt_tokens);
  const responseIds = tokenIds(value.response_tokens);
  if (!decoder || !promptIds || !responseIds) {
    const what = !promptIds || !responseIds ? 'prompt_tokens and response_tokens must be lists of token ids' : (context.decoderProblem ?? 'open-instruct traces hold token ids only; PROF Lens needs the tokenizer of the model named in the run\'s _metadata.jsonl to read them');
    return { drafts: [], diagnostics: [{ line: record.line, severity: 'error', code: 'needs-tokenizer', message: `line ${record.line}: ${what}` }] };
  }
  let prompt: string;
  let response: string;
  try {
    prompt = decoder.decode(promptIds);
    response = decoder.decode(responseIds);
  } catch (error) {
    // A tokenizer that is not used says so once for the file (`needs-tokenizer`); a list too long, on its line.
    const code = error instanceof TraceDecodeError && error.isWholeFile ? 'needs-tokenizer' : 'trace-not-decoded';
    return { drafts: [], diagnostics: [{ line: record.line, severity: 'error', code, message: `line ${record.line}: ${(error as Error).message}` }] };
  }
  const texts = readRolloutTexts(prompt);
  const reward = rewardValue(value.reward);
  const step = asText(value.step) ?? '?';
  const promptIdx = asText(value.prompt_idx);
  return {
    drafts: [trainerDraft('open-instruct', {
      group: promptIdx !== null ? `step=${step} prompt_idx=${promptIdx}` : promptGroup(prompt, null, record.line),
      prompt: texts.question,
      response,
      gold: asText(value.ground_truth),
      fileOutcome: typeof reward === 'number' ? outcomeFromValue(reward > 0 ? 1 : 0) : { kind: 'unknown', source: 'none' },
      outcomeField: 'reward > 0',
      ...stepScoreFields(value),
      promptReading: texts.promptReading,
      rewards: rewardFieldsOf(value),
    })],
    diagnostics: [],
  };
}

function tokenIds(value: unknown): number[] | null {
  return Array.isArray(value) && value.every((v) => Number.isInteger(v) && (v as number) >= 0) ? (value as number[]) : null;
}

/** open-instruct's `{run}_metadata.jsonl`: the run's name, commit, model and time; no rollouts. */
function isOpenInstructMetadata(value: Json): boolean {
  return typeof value.run_name === 'string' && typeof value.model_name === 'string' && 'git_commit' in value && 'timestamp' in value;
}

function metadataNote(value: Json, line: number): Diagnostic {
  return {
    line,
    severity: 'warning',
    code: 'run-metadata',
    message: `line ${line}: open-instruct run metadata (run ${String(value.run_name).slice(0, 80)}, model ${String(value.model_name).slice(0, 120)}), not rollouts: they are in the ${String(value.run_name).slice(0, 80)}_rollouts_*.jsonl files beside it`,
  };
}

/**
 * slime's samples (`Sample.to_dict()`), once converted from the `.pt` file slime saves: `prompt`,
 * `response`, `label` (the gold), `reward` (a number or a dict), `group_index`.
 */
function adaptSlime(value: Json, line: number): RolloutDraft {
  const prompt = typeof value.prompt === 'string' ? value.prompt : '';
  const response = value.response as string;
  const texts = readRolloutTexts(prompt);
  const reward = value.reward !== null && typeof value.reward === 'object' ? (value.reward as Json).score ?? (value.reward as Json).acc : value.reward;
  const group = asText(value.group_index);
  const gold = asText(value.label);
  return trainerDraft('slime', {
    group: group !== null ? `group_index=${group}` : promptGroup(prompt, gold, line),
    prompt: texts.question,
    response,
    gold,
    fileOutcome: outcomeFromValue(reward),
    outcomeField: 'reward',
    responsePath: ['response'],
    ...stepScoreFields(value),
    promptReading: texts.promptReading,
    rewards: rewardFieldsOf(value),
  });
}
