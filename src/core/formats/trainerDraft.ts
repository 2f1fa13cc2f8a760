/**
 * The draft every trainer adapter starts from, and the group key of a prompt's text: shared by
 * trainers.ts and agents.ts.
 */
import type { RolloutDraft } from './formatDraft';

/** A blank draft of a trainer's format; the adapter fills in what its records hold. */
export function trainerDraft(format: RolloutDraft['format'], fields: Partial<RolloutDraft>): RolloutDraft {
  return {
    id: 0,
    line: 0,
    index: 0,
    format,
    group: '',
    prompt: '',
    response: '',
    gold: null,
    fileOutcome: { kind: 'unknown', source: 'none' },
    fileStepScores: null,
    explicitSteps: null,
    responsePath: null,
    responseShift: 0,
    ...fields,
  };
}

/** The group key of a prompt's text within one file: the same prompt [+ gold] is one group. */
export function promptGroup(prompt: string, gold: string | null, line: number): string {
  return prompt.trim() === '' ? `line=${line}` : `${prompt}\u0000${gold ?? ''}`;
}

