/**
 * What the panels are sent, built from the host's rollout summaries, the texts fetched from the
 * analysis worker and the file's report. Pure (no `vscode` import), so it is unit-tested directly.
 */
import { flawedOf } from '../../core/rules/decide';
import type { RowSignals } from '../../core/rules/profMath';
import { groupIds } from '../../core/lines/decisionLines';
import { readAsText, turnLabel } from '../../core/presentation/readingWords';
import type { PromptTurn } from '../../core/transcript/promptReading';
import type { ProfSettings } from '../../core/profSettings';
import type { AnalysisSummary, RolloutDetail, RolloutSummary } from '../../protocol/analysis';
import type { DashboardData, FalsePositiveEntry, GroupData, GroupEntry, GroupRow, PanelSettings, PanelStep } from '../../protocol/panel';

/**
 * What one group message may carry: a runaway rollout (thousands of steps, megabytes of text) or a
 * group of hundreds must not make a message the webview and the host take seconds to pass. The
 * Rollout View shows everything; the panel says what it left out.
 */
/** Step texts longer than this are shortened in the panel (the editor shows them whole). */
export const MAX_STEP_CHARS = 4_000;
/** A rollout with more steps shows this many: the first, those around its low steps, the last. */
export const MAX_SHOWN_STEPS = 40;
/** Steps shown in one group message; a large group shows fewer per rollout (never under MIN_SHOWN_STEPS). */
export const MAX_GROUP_STEPS = 4_000;
export const MIN_SHOWN_STEPS = 10;
/** All step texts of one group message together, in characters; steps are shortened to fit. */
export const MAX_GROUP_TEXT_CHARS = 1_000_000;
/** Steps are never shortened below this to fit a group's budget. */
export const MIN_STEP_CHARS = 80;
/** The prompt is shortened beyond this. */
export const MAX_PROMPT_CHARS = 20_000;
/** The dashboard lists at most this many suspected false positives. */
export const MAX_LISTED_FALSE_POSITIVES = 500;

/** The settings a panel needs, out of everything the analysis ran with. */
export function panelSettings(settings: ProfSettings): PanelSettings {
  const { m, remove, variant, seed, penalty, lambda, maxSteps, aggregate, threshold, falsePositiveRules, curation } = settings;
  return { m, remove, variant, seed, penalty, lambda, maxSteps, aggregate, threshold, falsePositiveRules: [...falsePositiveRules], ...(curation ? { curation } : {}) };
}

/** Readable group labels: the same ids as the CLI's decision lines. */
export const groupLabels = groupIds;

/** Step scores as the filter reads them: null when no scorer could score the rollout. */
export function rankScores(r: Pick<RolloutSummary, 'stepScores' | 'isScored'>): (number | null)[] | null {
  return r.isScored ? r.stepScores : null;
}

function shorten(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)} … (${text.length - limit} more characters)` : text;
}

/**
 * 0-based indices of the steps a long rollout shows, ascending, at most `limit`: the marked steps
 * (the first low, the weakest) and their neighbours, the first and the last steps, then more from
 * the start.
 */
export function shownSteps(count: number, marked: readonly (number | null)[], limit = MAX_SHOWN_STEPS): number[] {
  if (count <= limit) return Array.from({ length: count }, (_, i) => i);
  const marks = marked.filter((m): m is number => m !== null && m >= 0 && m < count);
  const around = (d: number): number[] => marks.flatMap((m) => [m - d, m + d]);
  const priority = [...marks, ...around(1), 0, count - 1, ...around(2), 1, count - 2, count - 3, count - 4, count - 5];
  const wanted = new Set<number>();
  for (const i of priority) if (i >= 0 && i < count && wanted.size < limit) wanted.add(i);
  for (let i = 0; wanted.size < limit; i++) wanted.add(i);
  return [...wanted].sort((a, b) => a - b);
}

/** A row's step texts before shortening: the response as one step when the split found none. */
function stepTexts(detail: RolloutDetail | undefined): string[] {
  if (!detail) return [];
  const texts = detail.steps.map((s) => s.text);
  return texts.length === 0 && detail.response.trim() !== '' ? [detail.response] : texts;
}

/** One member's step texts and which of them the panel shows. */
interface MemberSteps {
  texts: readonly string[];
  shown: readonly number[];
}

function memberSteps(r: RolloutSummary, detail: RolloutDetail | undefined, limit: number): MemberSteps {
  const texts = stepTexts(detail);
  return { texts, shown: shownSteps(texts.length, [r.firstLowStep, r.weakestStep?.step ?? null], limit) };
}

function groupRow(r: RolloutSummary, { texts, shown }: MemberSteps, stepChars: number): GroupRow {
  const steps: PanelStep[] = shown.map((index) => ({ index, text: shorten(texts[index] ?? '', stepChars) }));
  return {
    id: r.id,
    line: r.line,
    index: r.index,
    outcome: r.outcome.kind,
    extracted: r.outcome.extracted ?? null,
    stepScores: rankScores(r),
    decision: r.decision,
    falsePositive: r.falsePositive,
    lowSteps: r.lowSteps,
    evidence: r.evidence,
    scorer: r.scorer,
    steps,
    stepCount: texts.length,
    stepNotes: r.stepNotes.map((note) => (note === null ? null : shorten(note, stepChars))),
    signals: signalsOf(r, texts),
  };
}

/** What the group view needs to show one group. */
export interface GroupInput {
  source: string;
  fileLabel: string;
  groupLabel: string;
  /** The group's name (its question without the shared instruction); absent when the analysis named none. */
  groupName?: string;
  members: readonly RolloutSummary[];
  details: readonly RolloutDetail[];
  summary: Pick<AnalysisSummary, 'settings'>;
}

/** The longest step text that lets every shown step of the group fit MAX_GROUP_TEXT_CHARS. */
function stepCharsFor(members: readonly MemberSteps[]): number {
  const lengths = members.flatMap((m) => m.shown.map((i) => Math.min(m.texts[i]?.length ?? 0, MAX_STEP_CHARS)));
  let limit = MAX_STEP_CHARS;
  // Lower the cut until the budget holds (a few halvings at most).
  while (limit > MIN_STEP_CHARS && lengths.reduce((sum, n) => sum + Math.min(n, limit), 0) > MAX_GROUP_TEXT_CHARS) limit = Math.max(MIN_STEP_CHARS, Math.floor(limit / 2));
  return limit;
}

function omissions(rows: readonly GroupRow[], stepChars: number, promptCut: boolean): string | null {
  const long = rows.filter((r) => r.steps.length < r.stepCount);
  const shown = long[0]?.steps.length ?? 0;
  const parts: string[] = [];
  if (long.length > 0) parts.push(`${long.length} long rollout${long.length === 1 ? ' shows' : 's show'} ${shown} of ${long.length === 1 ? 'its' : 'their'} steps (around the weakest and first low step, the first, the last)`);
  if (stepChars < MAX_STEP_CHARS) parts.push(`step texts are cut at ${stepChars} characters to keep this group's panel responsive`);
  if (promptCut) parts.push(`the prompt is cut at ${MAX_PROMPT_CHARS} characters`);
  return parts.length > 0 ? `${parts.join('; ')}. The Rollout View shows every step in full.` : null;
}

/** A chat prompt's system prompt and the turns before its question (none for a plain prompt). */
function promptTurnsOf(detail: RolloutDetail | undefined): { system: string | null; earlier: PromptTurn[] } {
  const reading = detail?.promptReading;
  if (!reading || (reading.kind !== 'transcript' && reading.kind !== 'messages')) return { system: null, earlier: [] };
  const lastUser = reading.turns.map((t) => t.role).lastIndexOf('user');
  const earlier = reading.turns.filter((t, i) => i < lastUser && t.role !== 'system').slice(0, 16);
  return { system: reading.system, earlier };
}

/** The group view's data; rows in file order (the webview orders them). */
export function groupData(input: GroupInput): GroupData {
  const byId = new Map(input.details.map((d) => [d.id, d]));
  const first = input.members[0];
  const firstDetail = first ? byId.get(first.id) : undefined;
  const perRollout = Math.max(MIN_SHOWN_STEPS, Math.min(MAX_SHOWN_STEPS, Math.floor(MAX_GROUP_STEPS / Math.max(1, input.members.length))));
  const steps = input.members.map((r) => memberSteps(r, byId.get(r.id), perRollout));
  const stepChars = stepCharsFor(steps);
  const rows = input.members.map((r, i) => groupRow(r, steps[i]!, stepChars));
  const prompt = firstDetail?.prompt ?? '';
  const chat = promptTurnsOf(firstDetail);
  return {
    source: input.source,
    fileLabel: input.fileLabel,
    group: first?.group ?? '',
    groupLabel: input.groupLabel,
    groupName: input.groupName ?? '',
    prompt: shorten(prompt, MAX_PROMPT_CHARS),
    readAs: first ? readAsText(first.format, first.questionReading) : null,
    system: chat.system === null ? null : shorten(chat.system, MAX_PROMPT_CHARS),
    earlierTurns: chat.earlier.map((t) => ({ label: turnLabel(t.role), text: shorten(t.text, MAX_PROMPT_CHARS) })),
    gold: first?.gold ?? null,
    rows,
    settings: panelSettings(input.summary.settings),
    omitted: omissions(rows, stepChars, prompt.length > MAX_PROMPT_CHARS),
  };
}

/** What the dashboard needs. */
export interface DashboardInput {
  source: string;
  fileLabel: string;
  rollouts: readonly RolloutSummary[];
  summary: Pick<AnalysisSummary, 'settings' | 'report' | 'scorer'>;
  /** Group names by the id of each group's first rollout (the analysis's `groupNames`). */
  groupNames?: ReadonlyMap<number, string>;
}

/** The dashboard's data: the report plus the list of suspected false positives. */
export function dashboardData(input: DashboardInput): DashboardData {
  const labels = groupLabels(input.rollouts);
  const names = namesByGroup(input.rollouts, input.groupNames);
  const suspects = input.rollouts.filter((r) => r.falsePositive.suspected);
  const listed = suspects.slice(0, MAX_LISTED_FALSE_POSITIVES);
  const lines = new Set(listed.map((r) => r.line));
  const onLine = new Map<number, number>();
  for (const r of input.rollouts) if (lines.has(r.line)) onLine.set(r.line, (onLine.get(r.line) ?? 0) + 1);
  const falsePositives: FalsePositiveEntry[] = listed.map((r) => ({
    id: r.id,
    line: r.line,
    index: r.index,
    responsesOnLine: onLine.get(r.line) ?? 1,
    groupLabel: labels.get(r.group) ?? '',
    groupName: names.get(r.group) ?? '',
    weakest: r.weakestStep?.score ?? null,
    rules: [...r.falsePositive.rules],
    evidence: r.evidence,
  }));
  return {
    source: input.source,
    fileLabel: input.fileLabel,
    report: input.summary.report,
    settings: panelSettings(input.summary.settings),
    scorerLabel: input.summary.scorer.label,
    falsePositives,
    falsePositiveTotal: suspects.length,
    groups: groupEntries(input.rollouts, labels, names),
    groupTotal: labels.size,
  };
}

/** The dashboard lists this many groups at most. */
const MAX_LISTED_GROUPS = 100;

/** The first groups of a file, in file order, with their sizes. */
function groupEntries(rollouts: readonly RolloutSummary[], labels: ReadonlyMap<string, string>, names: ReadonlyMap<string, string>): GroupEntry[] {
  const entries = new Map<string, GroupEntry>();
  for (const r of rollouts) {
    let entry = entries.get(r.group);
    if (!entry) {
      if (entries.size >= MAX_LISTED_GROUPS) continue;
      entry = { label: labels.get(r.group) ?? '', name: names.get(r.group) ?? '', rolloutId: r.id, rollouts: 0, correct: 0, kept: 0 };
      entries.set(r.group, entry);
    }
    entry.rollouts++;
    if (r.outcome.kind === 'correct') entry.correct++;
    if (r.decision.kept) entry.kept++;
  }
  return [...entries.values()];
}

/** Each group's name by its key, from the names by first rollout id. */
function namesByGroup(rollouts: readonly RolloutSummary[], byFirstRollout: ReadonlyMap<number, string> | undefined): Map<string, string> {
  const names = new Map<string, string>();
  if (!byFirstRollout) return names;
  const seen = new Set<string>();
  for (const r of rollouts) {
    if (seen.has(r.group)) continue;
    seen.add(r.group);
    const name = byFirstRollout.get(r.id);
    if (name) names.set(r.group, name);
  }
  return names;
}

/** What the what-if's curation rules read of a rollout (its text is not sent: Resample-on-Correct then keeps file order). */
function signalsOf(r: RolloutSummary, texts: readonly string[]): RowSignals {
  const value = r.outcome.value;
  return { reward: typeof value === 'number' || typeof value === 'boolean' ? value : null, chars: texts.reduce((n, t) => n + t.length, 0), flawed: flawedOf(r.rewards ?? null) };
}
