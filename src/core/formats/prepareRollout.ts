/**
 * From a record to rollouts ready for scoring: adapted, split into steps (with raw offsets when
 * asked), and with their outcome as far as the file states it.
 */
import type { Diagnostic, Rollout, SourceRecord, Step } from '../model';
import type { ProfSettings } from '../profSettings';
import { adaptRecord } from './adaptRecord';
import type { AdaptContext } from './trainers';
import { countSteps, splitAssistantSteps, splitSteps } from '../steps/splitSteps';
import { responseTurnsOf } from '../transcript/rolloutText';
import { rawStepSpans } from '../report/fileAnalysis';
import { rolloutLocation } from '../presentation/locationWords';
import { errorText } from '../errorText';

export interface PreparedRollout {
  rollout: Rollout;
  /** The steps; empty when only their count was asked for. */
  steps: Step[];
  /** How many steps the split finds; null for a count-only rollout whose count was not checked. */
  stepCount: number | null;
  rawSteps: { start: number; end: number }[] | null;
}

export interface PrepareOptions {
  settings: ProfSettings;
  /** Compute raw-line offsets of steps (the editor needs them; reports do not). */
  rawOffsets: boolean;
  /** The id the first rollout of this record gets. */
  firstId: number;
  /** What trainers' records need from outside the file (a tokenizer for token ids). */
  context?: AdaptContext;
  /** Rollouts for which only the number of steps is needed (no texts, no offsets). */
  countOnly?: (rollout: Rollout) => boolean;
  /**
   * Check the split's step count against the record's step scores (an `info` diagnostic when they
   * differ; default true). Off, a count-only rollout is not split or counted: nothing else needs it.
   */
  checkStepCount?: boolean;
}

/** The steps of a count-only rollout: one frozen empty list, not one per rollout. */
const NO_STEPS = Object.freeze([]) as unknown as Step[];

/** Adapt and split one record. */
export function prepareRecord(record: SourceRecord, options: PrepareOptions): { rollouts: PreparedRollout[]; diagnostics: Diagnostic[] } {
  const rollouts: PreparedRollout[] = [];
  const diagnostics: Diagnostic[] = [];
  prepareRecordInto(record, options, rollouts, diagnostics);
  return { rollouts, diagnostics };
}

/**
 * `prepareRecord` appending to the caller's lists, as an analysis does for every record of a dump
 * (no lists per record): ids go on from `options.firstId + rollouts.length`. True when the record
 * gave no rollout and an error (an unreadable record).
 */
export function prepareRecordInto(record: SourceRecord, options: PrepareOptions, rollouts: PreparedRollout[], diagnostics: Diagnostic[]): boolean {
  // One record's failure is its own: the record becomes a diagnostic and the file goes on.
  const had = { rollouts: rollouts.length, diagnostics: diagnostics.length };
  try {
    const adapted = adaptRecord(record, options.settings.fields, options.context);
    for (const d of adapted.diagnostics) diagnostics.push(d);
    const firstId = options.firstId + rollouts.length;
    const drafts = adapted.drafts;
    for (let k = 0; k < drafts.length; k++) rollouts.push(prepareDraft(record, drafts[k] as Rollout, firstId + k, options, diagnostics));
    return drafts.length === 0 && adapted.diagnostics.some((d) => d.severity === 'error');
  } catch (error) {
    rollouts.length = had.rollouts;
    diagnostics.length = had.diagnostics;
    diagnostics.push({ line: record.line, severity: 'error', code: 'unreadable-record', message: `line ${record.line}: the record could not be read: ${errorText(error)}` });
    return true;
  }
}

function prepareDraft(record: SourceRecord, draft: Rollout, id: number, options: PrepareOptions, diagnostics: Diagnostic[]): PreparedRollout {
  // Set in place (no copy): drafts are fresh objects, and this runs once per rollout of a dump.
  const rollout: Rollout = draft;
  rollout.id = id;
  rollout.line = record.line;
  rollout.item = record.item;
  const rule = rollout.format === 'math-shepherd' && options.settings.split === 'double-newline' ? 'ki' : options.settings.split;
  if (rollout.fileScoresProblem !== undefined) diagnostics.push(badScores(rollout, rollout.fileScoresProblem));
  if (options.countOnly?.(rollout)) {
    if (options.checkStepCount === false) return { rollout, steps: NO_STEPS, stepCount: null, rawSteps: null };
    const turns = rollout.explicitSteps ? null : responseTurnsOf(rollout);
    const stepCount = turns ? splitAssistantSteps(rollout.response, turns, rule).length : countSteps(rollout.response, rule, rollout.explicitSteps);
    const mismatch = stepCountMismatch(rollout, stepCount);
    if (mismatch) diagnostics.push(mismatch);
    return { rollout, steps: NO_STEPS, stepCount, rawSteps: null };
  }
  const turns = rollout.explicitSteps ? null : responseTurnsOf(rollout);
  const steps = turns ? splitAssistantSteps(rollout.response, turns, rule) : splitSteps(rollout.response, rule, rollout.explicitSteps);
  const mismatch = stepCountMismatch(rollout, steps.length);
  if (mismatch) diagnostics.push(mismatch);
  const rawSteps = options.rawOffsets ? rawStepSpans(record.raw, rollout, steps) : null;
  return { rollout, steps, stepCount: steps.length, rawSteps };
}

/** `line 12`, or `line 12, response 2` for a response of a grouped line (counted from 1). */
function placeOf(rollout: Rollout): string {
  return rolloutLocation({ line: rollout.line, item: rollout.item, index: rollout.index, isGrouped: rollout.format === 'grouped' });
}

/** Step scores the file holds that cannot be used: the rollout is not scored (by anything else either), and says why. */
function badScores(rollout: Rollout, problem: string): Diagnostic {
  return {
    line: rollout.line,
    severity: 'warning',
    code: 'bad-step-scores',
    message: `${placeOf(rollout)}: ${problem}; the rollout is not scored`,
  };
}

/** When the file's scores cover a different number of steps than the split finds, say so: H follows the scores. */
function stepCountMismatch(rollout: Rollout, split: number): Diagnostic | null {
  const scores = rollout.fileStepScores;
  if (!scores || scores.length === split) return null;
  return {
    line: rollout.line,
    severity: 'info',
    code: 'step-count-mismatch',
    message: `${placeOf(rollout)}: the file has ${scores.length} step scores but the response splits into ${split} steps; H = ${scores.length} (the scores' count) is used`,
  };
}
