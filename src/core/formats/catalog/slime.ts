/**
 * slime's samples (`Sample.to_dict()`), once converted from the `.pt` file slime saves: `prompt`,
 * `response`, `label` (the gold), `reward` (a number or a dict), `group_index`.
 */
import type { TrainerFormat } from '../trainers';
import type { RolloutDraft } from '../formatDraft';
import { asText, outcomeFromValue, type Json } from '../fields';
import { rewardFieldsOf } from '../rewardFields';
import { readRolloutTexts } from '../../transcript/rolloutText';
import { promptGroup, trainerDraft } from '../trainerDraft';
import { stepScoreFields } from '../stepScoreFields';

export const FORMAT: TrainerFormat = {
  id: 'slime',
  name: 'slime samples',
  order: 50,
  owns: (value) => 'group_index' in value && typeof value.response === 'string' && 'label' in value,
  adapt: (record) => ({ drafts: [adaptSlime(record.value as Json, record.line)], diagnostics: [] }),
};

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
