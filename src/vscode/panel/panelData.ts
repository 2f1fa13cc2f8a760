/**
 * What the panels are sent, built from the host's rollout summaries, the texts fetched from the
 * analysis worker and the file's report. Pure (no `vscode` import), so it is unit-tested directly.
 */
import { groupIds } from '../../core/decisionLines';
import type { ProfSettings } from '../../core/settings';
import type { AnalysisSummary, RolloutDetail, RolloutSummary } from '../../protocol/analysis';
import type { DashboardData, FalsePositiveEntry, GroupData, GroupRow, PanelSettings } from '../../protocol/panel';

/** Step texts longer than this are shortened in the panel (the editor shows them whole). */
export const MAX_STEP_CHARS = 4_000;
/** The dashboard lists at most this many suspected false positives. */
export const MAX_LISTED_FALSE_POSITIVES = 500;

/** The settings a panel needs, out of everything the analysis ran with. */
export function panelSettings(settings: ProfSettings): PanelSettings {
  const { m, remove, variant, seed, penalty, lambda, maxSteps, aggregate, threshold, falsePositiveRules } = settings;
  return { m, remove, variant, seed, penalty, lambda, maxSteps, aggregate, threshold, falsePositiveRules: [...falsePositiveRules] };
}

/** Readable group labels: the same ids as the CLI's decision lines. */
export const groupLabels = groupIds;

/** Step scores as the filter reads them: null when no scorer could score the rollout. */
export function rankScores(r: Pick<RolloutSummary, 'stepScores' | 'isScored'>): (number | null)[] | null {
  return r.isScored ? r.stepScores : null;
}

function shorten(text: string): string {
  return text.length > MAX_STEP_CHARS ? `${text.slice(0, MAX_STEP_CHARS)} … (${text.length - MAX_STEP_CHARS} more characters)` : text;
}

function groupRow(r: RolloutSummary, detail: RolloutDetail | undefined): GroupRow {
  const steps = detail ? detail.steps.map((s) => shorten(s.text)) : [];
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
    steps: steps.length === 0 && detail && detail.response.trim() !== '' ? [shorten(detail.response)] : steps,
    stepNotes: r.stepNotes.map((note) => (note === null ? null : shorten(note))),
  };
}

/** What the group view needs to show one group. */
export interface GroupInput {
  source: string;
  fileLabel: string;
  groupLabel: string;
  members: readonly RolloutSummary[];
  details: readonly RolloutDetail[];
  summary: Pick<AnalysisSummary, 'settings'>;
}

/** The group view's data; rows in file order (the webview orders them). */
export function groupData(input: GroupInput): GroupData {
  const byId = new Map(input.details.map((d) => [d.id, d]));
  const first = input.members[0];
  const firstDetail = first ? byId.get(first.id) : undefined;
  return {
    source: input.source,
    fileLabel: input.fileLabel,
    group: first?.group ?? '',
    groupLabel: input.groupLabel,
    prompt: firstDetail?.prompt ?? '',
    gold: first?.gold ?? null,
    rows: input.members.map((r) => groupRow(r, byId.get(r.id))),
    settings: panelSettings(input.summary.settings),
  };
}

/** What the dashboard needs. */
export interface DashboardInput {
  source: string;
  fileLabel: string;
  rollouts: readonly RolloutSummary[];
  summary: Pick<AnalysisSummary, 'settings' | 'report' | 'scorer'>;
}

/** The dashboard's data: the report plus the list of suspected false positives. */
export function dashboardData(input: DashboardInput): DashboardData {
  const labels = groupLabels(input.rollouts);
  const suspects = input.rollouts.filter((r) => r.falsePositive.suspected);
  const falsePositives: FalsePositiveEntry[] = suspects.slice(0, MAX_LISTED_FALSE_POSITIVES).map((r) => ({
    id: r.id,
    line: r.line,
    index: r.index,
    groupLabel: labels.get(r.group) ?? '',
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
  };
}
