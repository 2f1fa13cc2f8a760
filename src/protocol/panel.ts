/**
 * Messages between the extension host and the PROF panels (group view and file dashboard).
 * JSON-plain, discriminated on `type`. The webview speaks first with `ready`; the host answers with
 * the view's data. Commands from the webview (`reveal`, `showGroup`, `showDashboard`) get no
 * answer; requests (`exportKept`, `exportDecisions`) carry an id and get exactly one `response`.
 * Every message is checked on arrival by the guards below, on both sides.
 */
import type { Decision, OutcomeKind } from '../core/model';
import type { FalsePositive } from '../core/rules/groups';
import type { FileReport } from '../core/report/fileReport';
import { VARIANTS, type ProfSettings } from '../core/profSettings';
import type { RowSignals } from '../core/rules/profMath';
import type { RolloutFacts } from '../core/presentation/rolloutFacts';
import type { AuditResult } from '../core/rules/flawAudit';
import type { FlagAgreement } from '../core/evaluation/flagAgreement';
import { optional, either, isArray, isCount, isInteger, isNonNegative, isRecord, isString, literal, nullable, outline, shape, where, type Guard, type Guarded } from './guards';
import { message, protocol, ready, savedState, viewRequest, type MessageOf, type Sent } from './messages';

/** The settings the what-if controls change; the rest of ProfSettings stays as analysed. */
export type WhatIfSettings = Pick<ProfSettings, 'm' | 'remove' | 'variant' | 'seed' | 'penalty' | 'lambda' | 'maxSteps' | 'aggregate' | 'curation'>;

/** The settings a panel needs: the what-if ones plus those the false-positive rules read. */
export type PanelSettings = WhatIfSettings & Pick<ProfSettings, 'threshold' | 'falsePositiveRules'>;

/** One rollout of a group, as the group view shows it (with the facts the analysis derived). */
export interface GroupRow extends Pick<RolloutFacts, 'lowSteps' | 'evidence'> {
  id: number;
  /** 1-based line and 0-based response index in the source file. */
  line: number;
  index: number;
  outcome: OutcomeKind;
  extracted: string | null;
  /** Step scores; null when no scorer could score the rollout (it is then not ranked). */
  stepScores: (number | null)[] | null;
  /**
   * The scorer's note per step (a critic's reason, `checked: …`, `unscored (context)`), so the
   * expanded row shows it and a what-if can name its evidence as the analysis did.
   */
  stepNotes: (string | null)[];
  /** What curation rules other than PROF read (reward, length, the dump's flawed-positive verdict). */
  signals?: RowSignals;
  decision: Decision;
  falsePositive: FalsePositive;
  scorer: string;
  /**
   * The steps the expanded row shows, in order: all of them for a short rollout; for a long one
   * the first ones, those around the first low and the weakest step, and the last ones. Texts are
   * shortened when very long. The Rollout View shows every step whole.
   */
  steps: PanelStep[];
  /** How many steps the rollout has (`steps` may show fewer). */
  stepCount: number;
  /** The user's label in words ("labelled: first wrong step 2", "labelled sound"); null or absent when none. */
  label?: string | null;
}

/** One step's text as the panel shows it; `index` is 0-based in the rollout. */
export interface PanelStep {
  index: number;
  text: string;
}

/** Everything the group view shows. */
export interface GroupData {
  /** The source document's URI. */
  source: string;
  fileLabel: string;
  /** The group key and the short id users see (uid or g<n>). */
  group: string;
  groupLabel: string;
  /** The group's name: its question without the instruction every group shares; '' when it has none. */
  groupName?: string;
  /** The question (a chat prompt's last user turn), or the prompt as it stands. */
  prompt: string;
  /** How the file and its question were read, in words (`read as: TRL completions; question read from …`). */
  readAs?: string | null;
  /** A chat prompt's system prompt, shown folded; null when there is none. */
  system?: string | null;
  /** A multi-turn prompt's turns before the question, in order. */
  earlierTurns?: { label: string; text: string }[];
  gold: string | null;
  rows: GroupRow[];
  /** The settings the file was analysed with (what "reset" returns to). */
  settings: PanelSettings;
  /** What the panel leaves out of a long group (steps, characters), in words; null when nothing. */
  omitted: string | null;
}

/** A suspected false positive listed on the dashboard. */
export interface FalsePositiveEntry {
  id: number;
  line: number;
  index: number;
  /** How many rollouts its line holds (several on a grouped line), for `response k of n`. */
  responsesOnLine: number;
  groupLabel: string;
  /** The group's name (its question), '' when it has none. */
  groupName?: string;
  weakest: number | null;
  rules: string[];
  /** The evidence line the analysis derived. */
  evidence: string | null;
}

/** The suspected-false-positive flag against the labels of correct answers. */
export interface FalsePositiveAgreement {
  /** Labelled correct answers. */
  correct: number;
  flawed: number;
  flagged: number;
  flaggedFlawed: number;
  precision: number | null;
  recall: number | null;
}

/** What the user's labels say about the flags (shown only when the file has labels). */
export interface DashboardLabels {
  /** The sidecar's file name. */
  file: string;
  /** Rollouts labelled (matched by content), of which flawed and sound; stale labels are not used. */
  labelled: number;
  flawed: number;
  sound: number;
  stale: number;
  /** What was wrong with the sidecar, if anything (capped). */
  problems: string[];
  /** The low-step flag (a step below the threshold) against every labelled rollout. */
  lowStep: FlagAgreement;
  falsePositive: FalsePositiveAgreement;
  /** The paper's audit on the labelled correct answers; null when none is labelled. */
  audit: AuditResult | null;
}

/** Everything the dashboard shows. */
export interface DashboardData {
  source: string;
  fileLabel: string;
  report: FileReport;
  settings: PanelSettings;
  scorerLabel: string;
  falsePositives: FalsePositiveEntry[];
  /** How many suspected false positives exist; `falsePositives` may list fewer. */
  falsePositiveTotal: number;
  /** The file's groups (the first ones), each opening in the group view: how a file read from disk is browsed. */
  groups?: GroupEntry[];
  /** How many groups there are; `groups` may list fewer. */
  groupTotal?: number;
  /** The threshold in use and where it came from, in words (`threshold 0.5 (uncalibrated)`). */
  thresholdText?: string;
  /** The flags measured against the user's labels; null or absent when there are none. */
  labels?: DashboardLabels | null;
}

/** A group listed on the dashboard. */
export interface GroupEntry {
  /** The group's readable id (uid or g<n>). */
  label: string;
  /** The group's name (its question), '' when it has none. */
  name?: string;
  /** A rollout of the group, to open the group view on. */
  rolloutId: number;
  rollouts: number;
  correct: number;
  kept: number;
}

/** The host has nothing to show yet, or the source is gone. */
export interface PanelNotice {
  source: string | null;
  text: string;
}

/** Which file format the decisions are written in. */
export type DecisionFormat = 'jsonl' | 'csv';

/** What an export request came to. */
export type ExportResult =
  | { status: 'saved'; path: string; lines: number }
  | { status: 'cancelled' }
  | { status: 'failed'; message: string };

/** What a label button asks for. */
export type LabelAction = 'firstWrongStep' | 'sound' | 'clear';

/** Checks what-if settings received from the other side (or a saved state). */
export const isWhatIfSettings: Guard<WhatIfSettings> = shape({
  m: isCount,
  remove: nullable(isCount),
  variant: literal(...VARIANTS),
  seed: isCount,
  penalty: literal('card', 'reference'),
  lambda: isNonNegative,
  maxSteps: where(isCount, (n) => n >= 1),
  aggregate: literal('mean', 'min', 'sum'),
  curation: optional(shape({ rule: isString, params: isRecord as Guard<Record<string, number | boolean | string | null>> })),
});

export const isExportResult: Guard<ExportResult> = either(
  shape({ status: literal('saved'), path: isString, lines: isInteger }),
  either(shape({ status: literal('cancelled') }), shape({ status: literal('failed'), message: isString })),
);

const source = { source: isString };
const rollout = { source: isString, rolloutId: isCount };

/* ---- the webview's messages (the webview shows untrusted text, so nothing is assumed) ---- */

/** Put the cursor on a rollout in its file. */
export const reveal = message('toHost', 'reveal', rollout);
export const showGroup = message('toHost', 'showGroup', rollout);
export const showDashboard = message('toHost', 'showDashboard', source);
/** Open the Compare Rules view on the file: every curation rule side by side. */
export const compareRules = message('toHost', 'compareRules', source);
/** Write the rollouts PROF keeps; `settings`: the what-if's, or null for those the file was analysed with. */
export const exportKept = viewRequest('exportKept', { ...source, settings: nullable(isWhatIfSettings) }, isExportResult);
export const exportDecisions = viewRequest('exportDecisions', { ...source, settings: nullable(isWhatIfSettings), format: literal('jsonl', 'csv') }, isExportResult);
/** A label button of the group view: `step` (0-based) for `firstWrongStep`, else null. */
export const label = message('toHost', 'label', { ...rollout, action: literal('firstWrongStep', 'sound', 'clear'), step: nullable(isCount) },
  (m) => (m.action === 'firstWrongStep') === (m.step !== null));

/* ---- the host's messages (payloads are checked for their outline only: the host built them) ---- */

export const group = message('fromHost', 'group', { data: outline<GroupData>({ source: isString, rows: isArray, settings: isRecord }) });
export const dashboard = message('fromHost', 'dashboard', { data: outline<DashboardData>({ source: isString, report: isRecord, falsePositives: isArray }) });
/** The host has nothing to show yet, or the source is gone. */
export const notice = message('fromHost', 'notice', { notice: shape({ source: nullable(isString), text: isString }) satisfies Guard<PanelNotice> });

/** The group view and file dashboard's channel. */
export const panelProtocol = protocol(ready, reveal, showGroup, showDashboard, compareRules, exportKept, exportDecisions, label, group, dashboard, notice);

export type HostToWebview = Sent<typeof panelProtocol, 'fromHost'>;
export type WebviewToHost = Sent<typeof panelProtocol, 'toHost'>;
export type ExportResponse = MessageOf<(typeof exportKept.replies)[number]> | MessageOf<(typeof exportDecisions.replies)[number]>;
export type ExportKeptRequest = MessageOf<typeof exportKept>;
export type ExportDecisionsRequest = MessageOf<typeof exportDecisions>;
export type LabelMessage = MessageOf<typeof label>;

/** Checks a message received by the webview. */
export const isHostToWebview = panelProtocol.guard('fromHost');
/** Checks a message received by the host. */
export const isWebviewToHost = panelProtocol.guard('toHost');

/** Version of the state a panel saves; a state of another version is ignored. */
export const PANEL_STATE_VERSION = 1;

/** What a panel remembers across reloads and window restarts; anything else (an older version, a damaged value) is treated as none. */
export const isPanelState = savedState(PANEL_STATE_VERSION, {
  view: literal('group', 'dashboard'),
  source: isString,
  /** Any rollout of the group shown (group view only). */
  rolloutId: nullable(isCount),
  /** What-if settings the user had changed, or null. */
  whatIf: nullable(isWhatIfSettings),
});
export type PanelState = Guarded<typeof isPanelState>;
