/**
 * From scored rollouts to decisions: gather groups, run the PROF filter on each, and flag
 * suspected false positives (correct answers the process evidence does not support).
 */
import type { Decision } from './model';
import type { FalsePositiveRule, ProfSettings } from './settings';
import { decideGroup, type RankInput } from './prof';

/** One rollout as the group stage sees it. */
export interface GroupMember extends RankInput {
  group: string;
}

export interface FalsePositive {
  suspected: boolean;
  /** Every rule that fired (all are computed; `suspected` counts only the selected ones). */
  rules: FalsePositiveRule[];
}

export interface GroupOutcome {
  decisions: Decision[];
  falsePositives: FalsePositive[];
  firstLowSteps: (number | null)[];
}

/**
 * Decide every group. Inputs may come in any order; outputs are aligned with the inputs.
 * Group order of first appearance is kept so reports list groups as the file does.
 */
export function decideAll(members: readonly GroupMember[], settings: ProfSettings): GroupOutcome {
  const byGroup = new Map<string, number[]>();
  members.forEach((m, i) => {
    const list = byGroup.get(m.group);
    if (list) list.push(i);
    else byGroup.set(m.group, [i]);
  });
  const decisions = new Array<Decision>(members.length);
  const falsePositives = new Array<FalsePositive>(members.length);
  for (const [key, indices] of byGroup) {
    const groupMembers = indices.map((i) => members[i] as GroupMember);
    const groupDecisions = decideGroup(groupMembers, settings, key);
    const fps = falsePositivesOf(groupMembers, groupDecisions, settings);
    indices.forEach((i, k) => {
      decisions[i] = groupDecisions[k] as Decision;
      falsePositives[i] = fps[k] as FalsePositive;
    });
  }
  const firstLowSteps = members.map((m) => firstLowStep(m.scores, settings.threshold));
  return { decisions, falsePositives, firstLowSteps };
}

/** 0-based index of the first step scoring below the threshold, or null. */
export function firstLowStep(scores: readonly (number | null)[] | null, threshold: number): number | null {
  if (!scores) return null;
  const i = scores.findIndex((s) => s !== null && s < threshold);
  return i === -1 ? null : i;
}

/**
 * The three rules of DESIGN §3, for correct rollouts that were ranked:
 * `prof-dropped` — PROF drops it; `weak-step` — its weakest step is below the threshold;
 * `bottom-half` — it is among the ⌊n+/2⌋ lowest-consistency correct rollouts of its group.
 */
export function falsePositivesOf(members: readonly RankInput[], decisions: readonly Decision[], settings: ProfSettings): FalsePositive[] {
  const correctRanks = decisions.filter((d, i) => members[i]?.correct === true && d.rank !== null).length;
  const bottomFrom = correctRanks - Math.floor(correctRanks / 2);
  return members.map((m, i) => {
    const d = decisions[i] as Decision;
    if (m.correct !== true || d.rank === null || m.nonBinary) return { suspected: false, rules: [] };
    const rules: FalsePositiveRule[] = [];
    if (!d.kept) rules.push('prof-dropped');
    if (firstLowStep(m.scores, settings.threshold) !== null) rules.push('weak-step');
    if (d.rank > bottomFrom) rules.push('bottom-half');
    return { suspected: rules.some((r) => settings.falsePositiveRules.includes(r)), rules };
  });
}
