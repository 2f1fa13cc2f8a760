/**
 * SkyRL's evaluation dumps (`trainer.dump_eval_results`):
 * `dumped_evals/global_step_{N}_evals/{data_source}.jsonl`, one line per sample — `input_prompt`
 * and `output_response` decoded with their special tokens, `score` (the environment's reward: a
 * number, or one per token that add up to it), `stop_reason`, `env_class`, `env_extras` (the
 * dataset row: `reward_spec.ground_truth` is the gold), `data_source`. The samples of one prompt
 * are its group; the step is the folder's.
 */
import type { SourceRecord } from '../../model';
import type { TrainerFormat } from '../trainers';
import type { AdaptResult } from '../formatDraft';
import { asText, outcomeFromValue, type Json } from '../fields';
import { rewardValue } from '../rewardFields';
import { readRolloutTexts } from '../../transcript/rolloutText';
import { promptGroup, trainerDraft } from '../trainerDraft';

export const FORMAT: TrainerFormat = {
  id: 'skyrl',
  name: 'SkyRL evaluation dump',
  order: 80,
  owns: isSkyrlEval,
  adapt: adaptSkyrl,
};

/** A SkyRL evaluation line: the prompt and response under SkyRL's own names. */
function isSkyrlEval(value: Json): boolean {
  return typeof value.input_prompt === 'string' && typeof value.output_response === 'string';
}

/** The sample's reward: the number, or the sum of per-token rewards. */
function scoreOf(score: unknown): unknown {
  if (!Array.isArray(score)) return score;
  const values = score.map(rewardValue);
  return values.every((v): v is number => typeof v === 'number') ? values.reduce((a, b) => a + b, 0) : null;
}

function goldOf(value: Json): string | null {
  const extras = value.env_extras;
  if (extras === null || typeof extras !== 'object' || Array.isArray(extras)) return null;
  const spec = (extras as Json).reward_spec;
  return spec !== null && typeof spec === 'object' && !Array.isArray(spec) ? asText((spec as Json).ground_truth) : null;
}

function adaptSkyrl(record: SourceRecord): AdaptResult {
  const value = record.value as Json;
  const prompt = value.input_prompt as string;
  const gold = goldOf(value);
  const texts = readRolloutTexts(prompt);
  const score = scoreOf(value.score);
  const reward = rewardValue(score);
  return {
    drafts: [trainerDraft('skyrl', {
      group: promptGroup(prompt, gold, record.line),
      prompt: texts.question,
      promptReading: texts.promptReading,
      response: value.output_response as string,
      gold,
      fileOutcome: outcomeFromValue(score),
      outcomeField: 'score',
      responsePath: ['output_response'],
      rewards: reward === undefined ? null : [{ name: 'score', value: reward }],
    })],
    diagnostics: [],
  };
}
