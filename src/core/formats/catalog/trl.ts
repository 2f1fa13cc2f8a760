/**
 * TRL GRPOTrainer's completions table (`completions/completions_{step:05d}.parquet`): `step`,
 * `prompt`, `completion`, one column per reward function, the columns reward functions log
 * (`solution` …), `advantage`. The reward columns are the numbers between `completion` and
 * `advantage`.
 */
import type { Diagnostic, SourceRecord } from '../../model';
import type { TrainerFormat } from '../trainers';
import type { AdaptResult, RolloutDraft } from '../formatDraft';
import { asText, outcomeFromValue, type Json } from '../fields';
import { rewardValue } from '../rewardFields';
import { readRolloutTexts } from '../../transcript/rolloutText';
import { promptGroup, trainerDraft } from '../trainerDraft';
import { stepScoreFields } from '../stepScoreFields';

export const FORMAT: TrainerFormat = {
  id: 'trl',
  name: 'TRL completions',
  // Before AReaL's trajectories, whose lines also hold `prompt` and `completion` strings.
  order: 10,
  owns: isTrlRow,
  adapt: adaptTrlRecord,
};

function adaptTrlRecord(record: SourceRecord): AdaptResult {
  const value = record.value as Json;
  return { drafts: [adaptTrl(value)], diagnostics: trlNotes(value, record.line) };
}

/** A completions row: the columns TRL always writes. */
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
