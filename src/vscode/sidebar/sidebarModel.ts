/**
 * What the PROF Lens sidebar shows: rollout files → groups (n, n+, n−, kept) → rollouts (decision,
 * weakest step, suspected false positive), narrowed by one filter. Pure (no `vscode` import), so
 * the tree's contents are unit-tested on a real analysis; the tree view only renders these nodes.
 * It reads the summaries the analysis already sent; it computes no decision or score itself.
 */
import type { StepSummary } from '../../core/run/stepSummary';
import type { RolloutSummary } from '../../protocol/analysis';
import { groupIds } from '../../core/lines/decisionLines';
import { clip, formatScore } from '../../core/presentation/numbers';
import { rolloutLocation } from '../../core/presentation/locationWords';
import { outcomeLabel } from '../../core/presentation/outcomeWords';
import { reasonFamily, reasonLabel } from '../../core/presentation/reasonWords';
import { markKind, type MarkKind } from '../marks';

/** What the tree lists: everything, or one kind of rollout a user hunts for. */
export type SidebarFilter = 'all' | 'falsePositive' | 'dropped' | 'unscored';

/** The filter in words, for the view's description. */
export const FILTER_WORDS: Readonly<Record<SidebarFilter, string>> = {
  all: '',
  falsePositive: 'suspected false positives',
  dropped: 'dropped by PROF',
  unscored: 'unscored',
};

/** Groups (and rollouts per group) listed at most: a node per group of a 1M-rollout file would swamp the tree. */
export const MAX_CHILDREN = 1_000;

/** A rollout file in the tree. */
export interface FileNode {
  kind: 'file';
  source: string;
  label: string;
  description: string;
}

/** One prompt's group. */
export interface GroupNode {
  kind: 'group';
  source: string;
  key: string;
  /** The group's first rollout, so Show PROF Group works on a group too. */
  rolloutId: number;
  /** The group's readable id (`gsm-01`, `g3`), as the Rollout Explorer's group filter names it. */
  groupId: string;
  label: string;
  description: string;
  tooltip: string;
}

/** One rollout; `source` and `rolloutId` make it a command's rollout target as it is. */
export interface RolloutNode {
  kind: 'rollout';
  source: string;
  rolloutId: number;
  line: number;
  label: string;
  description: string;
  tooltip: string;
  mark: MarkKind;
  /** A tie broken by file order reads as a tie, not as a judgment. */
  isTie: boolean;
}

/** What was left out under the cap. */
export interface MoreNode {
  kind: 'more';
  label: string;
}

/** A training run open in the Run Dashboard. */
export interface RunNode {
  kind: 'run';
  runId: string;
  label: string;
  description: string;
}

/** One step of a run; `source` is the file its rollouts are in (the explorer opens it). */
export interface StepNode {
  kind: 'step';
  runId: string;
  step: number;
  source: string;
  label: string;
  description: string;
  tooltip: string;
}

export type SidebarNode = FileNode | GroupNode | RolloutNode | MoreNode | RunNode | StepNode;

/** What the sidebar reads of a run: its label and its steps' summaries as the Run Dashboard has them. */
export interface SidebarRun {
  runId: string;
  label: string;
  steps: readonly (Pick<StepSummary, 'step' | 'rollouts' | 'accuracy' | 'suspectedFalsePositives'> & { file: string | null; source: string | null })[];
  /** Files still being summarised, when the run is being read. */
  pending: number;
}

function percent(value: number | null): string {
  return value === null ? '—' : `${(value * 100).toFixed(1)}%`;
}

/** A run's node: `grpo`, `3 steps · accuracy 40.0% → 62.0% · ⚠ 30`. */
export function runNode(run: SidebarRun): RunNode {
  const first = run.steps[0];
  const last = run.steps[run.steps.length - 1];
  const parts = [`${run.steps.length} step${run.steps.length === 1 ? '' : 's'}`];
  if (first && last) parts.push(run.steps.length > 1 ? `accuracy ${percent(first.accuracy)} → ${percent(last.accuracy)}` : `accuracy ${percent(first.accuracy)}`);
  const suspected = run.steps.reduce((n, s) => n + s.suspectedFalsePositives, 0);
  if (suspected > 0) parts.push(`⚠ ${suspected}`);
  if (run.pending > 0) parts.push(`reading ${run.pending} file${run.pending === 1 ? '' : 's'}`);
  return { kind: 'run', runId: run.runId, label: run.label, description: parts.join(' · ') };
}

/** A run's steps in order, each with its rollouts, accuracy and suspected false positives; capped at MAX_CHILDREN. */
export function stepNodes(run: SidebarRun): (StepNode | MoreNode)[] {
  const nodes: (StepNode | MoreNode)[] = [];
  for (const s of run.steps.slice(0, MAX_CHILDREN)) {
    const { file, source } = s;
    if (file === null || source === null) continue;
    const parts = [`${s.rollouts.toLocaleString('en-US')} rollouts`, `accuracy ${percent(s.accuracy)}`];
    if (s.suspectedFalsePositives > 0) parts.push(`⚠ ${s.suspectedFalsePositives}`);
    nodes.push({
      kind: 'step', runId: run.runId, step: s.step, source,
      label: `step ${s.step}`, description: parts.join(' · '),
      tooltip: `Step ${s.step} of ${run.label}: ${file}`,
    });
  }
  if (run.steps.length > MAX_CHILDREN) nodes.push({ kind: 'more', label: `${run.steps.length - MAX_CHILDREN} more steps not listed` });
  return nodes;
}

/** Whether a rollout passes the filter. */
export function matchesFilter(rollout: RolloutSummary, filter: SidebarFilter): boolean {
  switch (filter) {
    case 'all':
      return true;
    case 'falsePositive':
      return rollout.falsePositive.suspected;
    case 'dropped': {
      const family = reasonFamily(rollout.decision.reason);
      return family === 'dropped' || family === 'tied';
    }
    case 'unscored':
      return !rollout.isScored;
  }
}

/** A file's root node: its name, and how many rollouts, groups and suspected false positives it holds. */
export function fileNode(source: string, rollouts: readonly RolloutSummary[], filter: SidebarFilter): FileNode {
  const name = decodeURIComponent(source.replace(/[?#].*$/, '').split('/').pop() ?? source);
  const groups = new Set<string>();
  let suspected = 0;
  let shown = 0;
  for (const rollout of rollouts) {
    groups.add(rollout.group);
    if (rollout.falsePositive.suspected) suspected++;
    if (matchesFilter(rollout, filter)) shown++;
  }
  const parts = [`${rollouts.length} rollouts`, `${groups.size} groups`];
  if (suspected > 0) parts.push(`⚠ ${suspected}`);
  if (filter !== 'all') parts.push(`${shown} shown`);
  return { kind: 'file', source, label: name, description: parts.join(' · ') };
}

/** Rollouts by group, groups in file order of their first rollout. */
export function groupsInOrder(rollouts: readonly RolloutSummary[]): Map<string, RolloutSummary[]> {
  const groups = new Map<string, RolloutSummary[]>();
  for (const rollout of rollouts) {
    const list = groups.get(rollout.group);
    if (list) list.push(rollout);
    else groups.set(rollout.group, [rollout]);
  }
  return groups;
}

/** The groups of a file with at least one rollout the filter lets through, capped at MAX_CHILDREN. */
export function groupNodes(source: string, rollouts: readonly RolloutSummary[], filter: SidebarFilter, names?: GroupNames): (GroupNode | MoreNode)[] {
  const nodes: (GroupNode | MoreNode)[] = [];
  let left = 0;
  const ids = groupIds(rollouts);
  for (const [key, members] of groupsInOrder(rollouts)) {
    if (filter !== 'all' && !members.some((r) => matchesFilter(r, filter))) continue;
    if (nodes.length < MAX_CHILDREN) nodes.push(groupNode(source, key, members, filter, ids.get(key), names));
    else left++;
  }
  if (left > 0) nodes.push({ kind: 'more', label: `${left} more groups not listed; filter to narrow` });
  return nodes;
}

/** Group names by the id of each group's first rollout (the analysis's `groupNames`). */
export type GroupNames = ReadonlyMap<number, string>;

const namesBySummary = new WeakMap<object, GroupNames>();

/** The group names an analysis sent, as a map made once per analysis. */
export function groupNamesOfSummary(summary: { groupNames?: [number, string][] } | null | undefined): GroupNames | undefined {
  if (!summary?.groupNames) return undefined;
  let names = namesBySummary.get(summary);
  if (!names) namesBySummary.set(summary, (names = new Map(summary.groupNames)));
  return names;
}

/**
 * A group's node, named by its question (the analysis's group name; the key when the analysis named
 * none): `Andrea needs 45 rhinestones …`, `n 8 · n+ 5 · n− 3 · kept 4`.
 */
export function groupNode(source: string, key: string, members: readonly RolloutSummary[], filter: SidebarFilter, groupId = key, names?: GroupNames): GroupNode {
  const correct = members.filter((r) => r.outcome.kind === 'correct').length;
  const incorrect = members.filter((r) => r.outcome.kind === 'incorrect').length;
  const kept = members.filter((r) => r.decision.kept).length;
  const suspected = members.filter((r) => r.falsePositive.suspected).length;
  const parts = [`n ${members.length}`, `n+ ${correct}`, `n− ${incorrect}`, `kept ${kept}`];
  if (suspected > 0) parts.push(`⚠ ${suspected}`);
  if (filter !== 'all') parts.push(`${members.filter((r) => matchesFilter(r, filter)).length} shown`);
  const first = members[0] as RolloutSummary;
  return {
    kind: 'group',
    source,
    key,
    rolloutId: first.id,
    groupId,
    label: clip(names?.get(first.id) || key, 60) || '(no group key)',
    description: parts.join(' · '),
    tooltip: `Group ${groupId} (line ${first.line}): ${members.length} rollouts, ${correct} correct, ${incorrect} incorrect; PROF keeps ${kept}`,
  };
}

/** The rollouts of one group that the filter lets through, in file order. */
export function rolloutNodes(source: string, members: readonly RolloutSummary[], filter: SidebarFilter): RolloutNode[] {
  const onLine = new Map<number, number>();
  for (const r of members) onLine.set(r.line, (onLine.get(r.line) ?? 0) + 1);
  return members
    .filter((r) => matchesFilter(r, filter))
    .slice(0, MAX_CHILDREN)
    .map((r) => rolloutNode(source, r, onLine.get(r.line) ?? 1));
}

/**
 * One rollout: `line 3` (or `line 3, response 2 of 4` on a line holding a group), and
 * `✓ dropped: correct, steps least trusted · weakest 0.05 (step 1) · ⚠ FP`.
 */
export function rolloutNode(source: string, rollout: RolloutSummary, responsesOnLine: number): RolloutNode {
  const { symbol, word } = outcomeLabel(rollout.outcome.kind);
  const weakest = rollout.weakestStep;
  const weakestText = weakest ? `weakest ${formatScore(weakest.score)} (step ${weakest.step + 1})` : 'no step scores';
  const reason = reasonLabel(rollout.decision.reason);
  const parts = [`${symbol} ${reason}`, weakestText];
  if (rollout.falsePositive.suspected) parts.push('⚠ FP');
  const where = rolloutLocation({ line: rollout.line, index: rollout.index, count: responsesOnLine });
  const tooltip = [
    `Rollout ${rollout.id + 1}, ${where}: ${word}`,
    `PROF: ${reason}`,
    weakest ? `Weakest step: step ${weakest.step + 1} scores ${formatScore(weakest.score)} (${rollout.scorer})` : `No step scores (${rollout.scorer})`,
    ...(rollout.falsePositive.suspected ? [`Suspected false positive${rollout.evidence ? `: ${clip(rollout.evidence, 200)}` : ''}`] : []),
  ].join('\n');
  return {
    kind: 'rollout',
    source,
    rolloutId: rollout.id,
    line: rollout.line,
    label: where,
    description: parts.join(' · '),
    tooltip,
    mark: markKind(rollout),
    isTie: rollout.decision.reason === 'dropped-tie',
  };
}
