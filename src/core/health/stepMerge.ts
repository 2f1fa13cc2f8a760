/** Steps of a run from the parts its files hold: a step that spans files is merged exactly. */
import type { Sum } from './healthTypes';
import { emptyStep, keepExample, keepPlace, type StepHealth } from './stepHealth';
import type { FlaggedId } from './rolloutFlags';

const addSum = (into: Sum, from: Sum): void => {
  into.total += from.total;
  into.count += from.count;
};

function mergeInto(into: StepHealth, part: StepHealth): void {
  into.rollouts += part.rollouts;
  addSum(into.chars, part.chars);
  into.truncationKnown += part.truncationKnown;
  into.truncated += part.truncated;
  for (const id of Object.keys(part.flagged) as FlaggedId[]) into.flagged[id] += part.flagged[id];
  addSum(into.stepScore, part.stepScore);
  into.correct += part.correct;
  into.incorrect += part.incorrect;
  into.groups += part.groups;
  into.noSignalGroups += part.noSignalGroups;
  addSum(into.entropy, part.entropy);
  addSum(into.logprob, part.logprob);
  addSum(into.mismatch, part.mismatch);
  for (const [id, list] of Object.entries(part.examples)) for (const e of list ?? []) keepExample(into, id as keyof StepHealth['examples'], e);
  for (const [id, list] of Object.entries(part.places)) for (const p of list ?? []) keepPlace(into, id as keyof StepHealth['places'], p);
}

/** The run's steps, ascending, each merged from its parts. */
export function mergeSteps(parts: readonly StepHealth[]): StepHealth[] {
  const byStep = new Map<number, StepHealth>();
  for (const part of parts) {
    const into = byStep.get(part.step) ?? emptyStep(part.step);
    mergeInto(into, part);
    byStep.set(part.step, into);
  }
  return [...byStep.values()].sort((a, b) => a.step - b.step);
}
