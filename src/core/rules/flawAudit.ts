/**
 * The paper's §3 audit (its Figure 1) on the user's own dump: of the correct answers judged (by a
 * critic or by the user's labels), how many reached the answer through a flawed step, with a 95%
 * Wilson interval; what PROF does with the flawed ones — the share the bottom half by consistency
 * removes (the paper's measure: the ⌊n⁺/2⌋ least consistent correct rollouts of each group, ties
 * broken by file order as PROF breaks them) and the share PROF's actual decisions at the current m
 * drop; and the share of PROF's drops among the judged correct answers that were sound.
 */
import type { Decision, OutcomeKind } from '../model';
import { seededSample } from './random';

/** The JSON `prof-lens audit --json` prints. */
export interface AuditResult {
  judge: 'labels' | 'critic';
  /** Correct answers judged. */
  sample: number;
  flawed: number;
  flawedShare: number | null;
  /** 95% Wilson score interval of the flawed share. */
  interval: [number, number] | null;
  prof: {
    /** Of the flawed ones PROF ranked: the share in their group's bottom half by consistency. */
    bottomHalfRemovedOfFlawed: number | null;
    /** Of the flawed ones PROF ranked: the share its decisions drop. */
    droppedOfFlawed: number | null;
    /** Of the judged ones PROF drops: the share that were sound. */
    soundOfRemoved: number | null;
  };
}

/** What the audit needs of each analysed rollout. */
export interface AuditRollout {
  id: number;
  group: string;
  outcome: { kind: OutcomeKind };
  decision: Pick<Decision, 'kept' | 'rank' | 'consistency'>;
}

/** z for a two-sided 95% interval. */
const Z95 = 1.959963984540054;

/** The Wilson score interval of k successes in n trials; null when n = 0. */
export function wilsonInterval(k: number, n: number, z = Z95): [number, number] | null {
  if (n === 0) return null;
  const p = k / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** The correct rollouts to judge: all of them, or a seeded sample of `size`, in file order. */
export function auditSample<T extends { id: number; outcome: { kind: OutcomeKind } }>(rollouts: readonly T[], size: number | null, seed: number): T[] {
  const correct = rollouts.filter((r) => r.outcome.kind === 'correct');
  if (size === null || size >= correct.length) return correct;
  return seededSample(correct, size, `audit\u0000${seed}`).sort((a, b) => a.id - b.id);
}

/**
 * Ids of the correct rollouts in the bottom half of their group by consistency: the ⌊n⁺/2⌋ lowest
 * of its ranked correct rollouts, the earlier one first among equals.
 */
export function bottomHalfByConsistency(rollouts: readonly AuditRollout[]): Set<number> {
  const byGroup = new Map<string, AuditRollout[]>();
  for (const r of rollouts) {
    if (r.outcome.kind !== 'correct' || r.decision.rank === null || r.decision.consistency === null) continue;
    (byGroup.get(r.group) ?? byGroup.set(r.group, []).get(r.group)!).push(r);
  }
  const removed = new Set<number>();
  for (const members of byGroup.values()) {
    const ascending = [...members].sort((a, b) => (a.decision.consistency as number) - (b.decision.consistency as number) || a.id - b.id);
    for (const r of ascending.slice(0, Math.floor(members.length / 2))) removed.add(r.id);
  }
  return removed;
}

const share = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);

/** The audit's figures from the verdicts (id → flawed) and every analysed rollout of the dump. */
export function auditFigures(judge: AuditResult['judge'], verdicts: ReadonlyMap<number, boolean>, rollouts: readonly AuditRollout[]): AuditResult {
  const bottom = bottomHalfByConsistency(rollouts);
  let flawed = 0;
  let flawedRanked = 0;
  let flawedBottom = 0;
  let flawedDropped = 0;
  let judgedDropped = 0;
  let soundDropped = 0;
  for (const r of rollouts) {
    const isFlawed = verdicts.get(r.id);
    if (isFlawed === undefined) continue;
    if (isFlawed) flawed++;
    if (r.decision.rank === null) continue;
    const isDropped = !r.decision.kept;
    if (isFlawed) {
      flawedRanked++;
      if (bottom.has(r.id)) flawedBottom++;
      if (isDropped) flawedDropped++;
    }
    if (isDropped) {
      judgedDropped++;
      if (!isFlawed) soundDropped++;
    }
  }
  const sample = verdicts.size;
  return {
    judge,
    sample,
    flawed,
    flawedShare: share(flawed, sample),
    interval: wilsonInterval(flawed, sample),
    prof: {
      bottomHalfRemovedOfFlawed: share(flawedBottom, flawedRanked),
      droppedOfFlawed: share(flawedDropped, flawedRanked),
      soundOfRemoved: share(soundDropped, judgedDropped),
    },
  };
}
