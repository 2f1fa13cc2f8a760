/**
 * One side of a comparison: an analysis reduced to its prompts, each with the figures compare
 * shows (rollouts, correct answers, suspected false positives, the best kept rollout's
 * consistency) and, where the caller keeps them, the ids of its rollouts. JSON-plain, small (one
 * entry per prompt and gold), so a side analysed in a worker thread travels back cheaply.
 */
import type { FileAnalysis } from '../analysis';
import { eachRollout } from '../analysis';
import { groupIds } from '../decisionLines';
import { goldKey, questionKey } from './alignmentKey';

/** One prompt (with one gold) of a side. */
export interface SidePrompt {
  /** The question's alignment key (`questionKey`). */
  question: string;
  /** The gold as compare tells golds apart (`goldKey`). */
  gold: string | null;
  /** The prompt as its first group has it (trimmed). */
  prompt: string;
  /** The readable id of its first group (the file's uid, else g1, g2 …). */
  group: string;
  /** How many groups of the side have this prompt and gold. */
  groups: number;
  rollouts: number;
  correct: number;
  incorrect: number;
  suspectedFalsePositives: number;
  /** The highest consistency among its kept rollouts; null when none is kept. */
  bestKeptConsistency: number | null;
  /** Its rollouts' ids in the analysis, in file order (when asked for). */
  rows?: number[];
}

export interface CompareSide {
  /** In order of first appearance in the side. */
  prompts: SidePrompt[];
  rollouts: number;
  unreadableLines: number;
}

/**
 * The prompts of an analysis. A group's prompt and gold are those of its first rollout (a group
 * is one prompt: grouped by the file's id, or by prompt and gold; a lean analysis keeps the prompt
 * only there); every rollout of the group counts for it. `withRows`: keep each prompt's rollout
 * ids (the editor's Compare view opens them).
 */
export function summariseForCompare(analysis: Pick<FileAnalysis, 'rollouts' | 'rows' | 'report'>, options: { withRows?: boolean } = {}): CompareSide {
  const byGroup = new Map<string, SidePrompt>();
  const byPrompt = new Map<string, SidePrompt>();
  const prompts: SidePrompt[] = [];
  // Every group in order of first appearance: the readable ids (g1, g2 …) count them all.
  const groupKeys: { group: string }[] = [];
  let row = 0;
  for (const r of eachRollout(analysis)) {
    let entry = byGroup.get(r.group);
    if (!entry) {
      groupKeys.push({ group: r.group });
      const question = questionKey(r.prompt);
      const gold = goldKey(r.gold);
      const key = `${question}\u0000${gold ?? '\u0001'}`;
      entry = byPrompt.get(key);
      if (!entry) {
        entry = { question, gold, prompt: r.prompt.trim(), group: r.group, groups: 0, rollouts: 0, correct: 0, incorrect: 0, suspectedFalsePositives: 0, bestKeptConsistency: null, ...(options.withRows ? { rows: [] } : {}) };
        byPrompt.set(key, entry);
        prompts.push(entry);
      }
      entry.groups++;
      byGroup.set(r.group, entry);
    }
    entry.rollouts++;
    if (r.outcome.kind === 'correct') entry.correct++;
    else if (r.outcome.kind === 'incorrect') entry.incorrect++;
    if (r.falsePositive.suspected) entry.suspectedFalsePositives++;
    const d = r.decision;
    if (d.kept && d.consistency !== null && (entry.bestKeptConsistency === null || d.consistency > entry.bestKeptConsistency)) entry.bestKeptConsistency = d.consistency;
    entry.rows?.push(row);
    row++;
  }
  const ids = groupIds(groupKeys);
  for (const p of prompts) p.group = ids.get(p.group) ?? p.group;
  return { prompts, rollouts: row, unreadableLines: analysis.report.unreadableLines };
}
