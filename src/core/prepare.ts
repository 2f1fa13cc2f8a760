/**
 * From a record to rollouts ready for scoring: adapted, split into steps (with raw offsets when
 * asked), and with their outcome as far as the file states it.
 */
import type { Diagnostic, Rollout, SourceRecord, Step } from './model';
import type { ProfSettings } from './settings';
import { adaptRecord } from './formats';
import { countSteps, splitSteps } from './steps';
import { rawStepSpans } from './analysis';

export interface PreparedRollout {
  rollout: Rollout;
  /** The steps; empty when only their count was asked for. */
  steps: Step[];
  stepCount: number;
  rawSteps: { start: number; end: number }[] | null;
}

export interface PrepareOptions {
  settings: ProfSettings;
  /** Compute raw-line offsets of steps (the editor needs them; reports do not). */
  rawOffsets: boolean;
  /** The id the first rollout of this record gets. */
  firstId: number;
  /** Rollouts for which only the number of steps is needed (no texts, no offsets). */
  countOnly?: (rollout: Rollout) => boolean;
}

/** Adapt and split one record. */
export function prepareRecord(record: SourceRecord, options: PrepareOptions): { rollouts: PreparedRollout[]; diagnostics: Diagnostic[] } {
  const adapted = adaptRecord(record, options.settings.fields);
  const diagnostics = [...adapted.diagnostics];
  const rollouts = adapted.drafts.map((draft, k): PreparedRollout => {
    // Set in place (no copy): drafts are fresh objects, and this runs once per rollout of a dump.
    const rollout: Rollout = draft;
    rollout.id = options.firstId + k;
    rollout.line = record.line;
    const rule = rollout.format === 'math-shepherd' && options.settings.split === 'double-newline' ? 'ki' : options.settings.split;
    if (options.countOnly?.(rollout)) {
      const stepCount = countSteps(rollout.response, rule, rollout.explicitSteps);
      const mismatch = stepCountMismatch(rollout, stepCount);
      if (mismatch) diagnostics.push(mismatch);
      return { rollout, steps: [], stepCount, rawSteps: null };
    }
    const steps = splitSteps(rollout.response, rule, rollout.explicitSteps);
    const mismatch = stepCountMismatch(rollout, steps.length);
    if (mismatch) diagnostics.push(mismatch);
    const rawSteps = options.rawOffsets ? rawStepSpans(record.raw, rollout, steps) : null;
    return { rollout, steps, stepCount: steps.length, rawSteps };
  });
  return { rollouts, diagnostics };
}

/** When the file's scores cover a different number of steps than the split finds, say so: H follows the scores. */
function stepCountMismatch(rollout: Rollout, split: number): Diagnostic | null {
  const scores = rollout.fileStepScores;
  if (!scores || scores.length === split) return null;
  const which = rollout.index > 0 || rollout.format === 'grouped' ? ` (response ${rollout.index})` : '';
  return {
    line: rollout.line,
    severity: 'info',
    code: 'step-count-mismatch',
    message: `line ${rollout.line}${which}: the file has ${scores.length} step scores but the response splits into ${split} steps; H = ${scores.length} (the scores' count) is used`,
  };
}
