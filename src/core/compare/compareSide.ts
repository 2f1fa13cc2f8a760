/**
 * One side of a comparison: an analysis (its explorer table) reduced to its prompts, each with the figures compare
 * shows (rollouts, correct answers, suspected false positives, the best kept rollout's
 * consistency) and, where the caller keeps them, the ids of its rollouts. JSON-plain, small (one
 * entry per prompt and gold), so a side analysed in a worker thread travels back cheaply.
 */
import { OUTCOME_ORDER, type ExplorerTable } from '../explore/explorerTable';
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
  /** Its first group's name: the question without the instruction every group of the side shares. */
  name?: string;
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
 * The prompts of an analysis, read from its explorer table (no rollout is made). A group's
 * prompt and gold are those of its first rollout (a group is one prompt: grouped by the file's
 * id, or by prompt and gold); every rollout of the group counts for it. `withRows`: keep each
 * prompt's rollout ids (the editor's Compare view opens them).
 */
export function summariseForCompare(table: ExplorerTable, unreadableLines: number, options: { withRows?: boolean } = {}): CompareSide {
  const groups = table.groupIds.length;
  const entryOfGroup = new Array<SidePrompt | undefined>(groups);
  const byPrompt = new Map<string, SidePrompt>();
  const prompts: SidePrompt[] = [];
  for (let row = 0; row < table.count; row++) {
    const group = table.group(row);
    let entry = entryOfGroup[group];
    if (!entry) {
      const prompt = table.groupPrompt(group) as string;
      const question = questionKey(prompt);
      const gold = goldKey(table.gold(row));
      const key = `${question}\u0000${gold ?? '\u0001'}`;
      entry = byPrompt.get(key);
      if (!entry) {
        entry = { question, gold, prompt: prompt.trim(), group: table.groupIds[group] as string, name: table.groupName(group), groups: 0, rollouts: 0, correct: 0, incorrect: 0, suspectedFalsePositives: 0, bestKeptConsistency: null, ...(options.withRows ? { rows: [] } : {}) };
        byPrompt.set(key, entry);
        prompts.push(entry);
      }
      entry.groups++;
      entryOfGroup[group] = entry;
    }
    entry.rollouts++;
    const outcome = table.outcome(row);
    if (outcome === CORRECT) entry.correct++;
    else if (outcome === INCORRECT) entry.incorrect++;
    if (table.isSuspected(row)) entry.suspectedFalsePositives++;
    const consistency = table.source.decidedConsistency(row);
    if (table.isKept(row) && !Number.isNaN(consistency) && (entry.bestKeptConsistency === null || consistency > entry.bestKeptConsistency)) entry.bestKeptConsistency = consistency;
    entry.rows?.push(row);
  }
  return { prompts, rollouts: table.count, unreadableLines };
}

const CORRECT = OUTCOME_ORDER.indexOf('correct');
const INCORRECT = OUTCOME_ORDER.indexOf('incorrect');
