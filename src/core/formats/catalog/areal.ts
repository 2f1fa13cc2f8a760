/**
 * AReaL's trajectory dump (`rollout.dump_to_file`): `rollout/{version}/{task_id}.jsonl`, one line
 * per sample of a rollout task — `task_id`, `sample_idx`, `seqlen`, `prompt_len`, `head_version`,
 * `tail_version`, `reward`, and `prompt` and `completion` decoded with their special tokens (the
 * chat template in the prompt, the closing `<|im_end|>` in the completion). A task's samples are
 * one prompt's group; no gold is written, so the reward is the only verdict. The step is the
 * version folder's (also the record's `tail_version`).
 */
import type { SourceRecord } from '../../model';
import type { TrainerFormat } from '../trainers';
import type { AdaptResult } from '../formatDraft';
import { asText, outcomeFromValue, type Json } from '../fields';
import { rewardValue } from '../rewardFields';
import { readRolloutTexts } from '../../transcript/rolloutText';
import { promptGroup, trainerDraft } from '../trainerDraft';

export const FORMAT: TrainerFormat = {
  id: 'areal',
  name: 'AReaL trajectories',
  order: 70,
  owns: isArealSample,
  adapt: adaptAreal,
};

/** An AReaL trajectory line: the fields its writer always writes. */
function isArealSample(value: Json): boolean {
  return typeof value.prompt === 'string' && typeof value.completion === 'string' && 'task_id' in value && 'sample_idx' in value && 'tail_version' in value;
}

function adaptAreal(record: SourceRecord): AdaptResult {
  const value = record.value as Json;
  const prompt = value.prompt as string;
  const texts = readRolloutTexts(prompt);
  const task = asText(value.task_id);
  const reward = rewardValue(value.reward);
  return {
    drafts: [trainerDraft('areal', {
      group: task !== null ? `task_id=${task}` : promptGroup(prompt, null, record.line),
      prompt: texts.question,
      promptReading: texts.promptReading,
      response: value.completion as string,
      fileOutcome: outcomeFromValue(value.reward),
      outcomeField: 'reward',
      responsePath: ['completion'],
      rewards: reward === undefined ? null : [{ name: 'reward', value: reward }],
    })],
    diagnostics: [],
  };
}
