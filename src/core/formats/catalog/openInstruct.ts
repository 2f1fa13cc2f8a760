/**
 * open-instruct's saved traces (`save_traces`: `{run}_rollouts_{shard:06d}.jsonl`): token ids
 * only, decoded with the tokenizer of the model its `{run}_metadata.jsonl` names; and that
 * metadata file itself, which holds no rollouts and says where they are.
 */
import type { Diagnostic, SourceRecord } from '../../model';
import { TraceDecodeError, type AdaptContext, type TrainerFormat } from '../trainers';
import type { AdaptResult } from '../formatDraft';
import { asText, outcomeFromValue, type Json } from '../fields';
import { rewardFieldsOf, rewardValue } from '../rewardFields';
import { readRolloutTexts } from '../../transcript/rolloutText';
import { promptGroup, trainerDraft } from '../trainerDraft';
import { stepScoreFields } from '../stepScoreFields';

export const FORMAT: TrainerFormat = {
  id: 'open-instruct',
  name: 'open-instruct traces',
  order: 20,
  owns: (value) => isTrace(value) || isOpenInstructMetadata(value),
  adapt: (record, context) => (isTrace(record.value as Json) ? adaptOpenInstruct(record, context) : { drafts: [], diagnostics: [metadataNote(record.value as Json, record.line)] }),
};

/** A trace line: the token ids of its prompt and its response. */
function isTrace(value: Json): boolean {
  return Array.isArray(value.prompt_tokens) && Array.isArray(value.response_tokens);
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
