/**
 * Messages between the extension host and the PROF panels (group view and file dashboard).
 * JSON-plain, discriminated on `type`. The webview speaks first with `ready`; the host answers with
 * the view's data. Commands from the webview (`reveal`, `showGroup`, `showDashboard`) get no
 * answer; requests (`exportKept`, `exportDecisions`) carry an id and get exactly one `response`.
 * Every message is checked on arrival by the guards below, on both sides.
 */
import type { Decision, OutcomeKind } from '../core/model';
import type { FalsePositive } from '../core/groups';
import type { FileReport } from '../core/fileReport';
import type { ProfSettings } from '../core/profSettings';
import type { RolloutFacts } from '../core/presentation/rolloutFacts';
import type { AuditResult } from '../core/flawAudit';
import type { FlagAgreement } from '../core/evaluation/flagAgreement';

/** The settings the what-if controls change; the rest of ProfSettings stays as analysed. */
export type WhatIfSettings = Pick<ProfSettings, 'm' | 'remove' | 'variant' | 'seed' | 'penalty' | 'lambda' | 'maxSteps' | 'aggregate'>;

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
  groupLabel: string;
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
  label: string;
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

export type HostToWebview =
  | { type: 'group'; data: GroupData }
  | { type: 'dashboard'; data: DashboardData }
  | { type: 'notice'; notice: PanelNotice }
  | ExportResponse;

/** Which file format the decisions are written in. */
export type DecisionFormat = 'jsonl' | 'csv';

/** Requests, by method: their parameters. Results are `ExportResult`. */
export interface ExportKeptRequest {
  type: 'exportKept';
  requestId: number;
  source: string;
  /** Decide with these settings (the what-if); null for the settings the file was analysed with. */
  settings: WhatIfSettings | null;
}

export interface ExportDecisionsRequest {
  type: 'exportDecisions';
  requestId: number;
  source: string;
  settings: WhatIfSettings | null;
  format: DecisionFormat;
}

/** What an export request came to. */
export type ExportResult =
  | { status: 'saved'; path: string; lines: number }
  | { status: 'cancelled' }
  | { status: 'failed'; message: string };

export interface ExportResponse {
  type: 'response';
  requestId: number;
  method: 'exportKept' | 'exportDecisions';
  result: ExportResult;
}

export type WebviewToHost =
  | { type: 'ready' }
  | { type: 'reveal'; source: string; rolloutId: number }
  | { type: 'showGroup'; source: string; rolloutId: number }
  | { type: 'showDashboard'; source: string }
  | ExportKeptRequest
  | ExportDecisionsRequest
  | LabelMessage;

/** What a label button asks for. */
export type LabelAction = 'firstWrongStep' | 'sound' | 'clear';

/** A label button of the group view: `step` (0-based) for `firstWrongStep`, else null. */
export interface LabelMessage {
  type: 'label';
  source: string;
  rolloutId: number;
  action: LabelAction;
  step: number | null;
}

/** Version of the state a panel saves; a state of another version is ignored. */
export const PANEL_STATE_VERSION = 1;

/** What a panel remembers across reloads and window restarts. */
export interface PanelState {
  version: typeof PANEL_STATE_VERSION;
  view: 'group' | 'dashboard';
  source: string;
  /** Any rollout of the group shown (group view only). */
  rolloutId: number | null;
  /** What-if settings the user had changed, or null. */
  whatIf: WhatIfSettings | null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}

function isNonNegative(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** Checks what-if settings received from the other side (or a saved state). */
export function isWhatIfSettings(value: unknown): value is WhatIfSettings {
  if (!isRecord(value)) return false;
  const { m, remove, variant, seed, penalty, lambda, maxSteps, aggregate } = value;
  return isInteger(m) && m >= 0 && (remove === null || (isInteger(remove) && remove >= 0))
    && (variant === 'both' || variant === 'pos') && isInteger(seed) && seed >= 0
    && (penalty === 'card' || penalty === 'reference') && isNonNegative(lambda)
    && isInteger(maxSteps) && maxSteps >= 1 && (aggregate === 'mean' || aggregate === 'min' || aggregate === 'sum');
}

function isExportResult(value: unknown): value is ExportResult {
  if (!isRecord(value)) return false;
  switch (value['status']) {
    case 'saved':
      return typeof value['path'] === 'string' && isInteger(value['lines']);
    case 'cancelled':
      return true;
    case 'failed':
      return typeof value['message'] === 'string';
    default:
      return false;
  }
}

/** Checks a message received by the webview. Data payloads are checked for their outline only: the host built them. */
export function isHostToWebview(value: unknown): value is HostToWebview {
  if (!isRecord(value)) return false;
  switch (value['type']) {
    case 'group': {
      const data = value['data'];
      return isRecord(data) && typeof data['source'] === 'string' && Array.isArray(data['rows']) && isRecord(data['settings']);
    }
    case 'dashboard': {
      const data = value['data'];
      return isRecord(data) && typeof data['source'] === 'string' && isRecord(data['report']) && Array.isArray(data['falsePositives']);
    }
    case 'notice': {
      const notice = value['notice'];
      return isRecord(notice) && typeof notice['text'] === 'string' && (notice['source'] === null || typeof notice['source'] === 'string');
    }
    case 'response':
      return isInteger(value['requestId']) && (value['method'] === 'exportKept' || value['method'] === 'exportDecisions') && isExportResult(value['result']);
    default:
      return false;
  }
}

/** Checks a message received by the host: the webview shows untrusted text, so nothing is assumed. */
export function isWebviewToHost(value: unknown): value is WebviewToHost {
  if (!isRecord(value)) return false;
  switch (value['type']) {
    case 'ready':
      return true;
    case 'reveal':
    case 'showGroup':
      return typeof value['source'] === 'string' && isInteger(value['rolloutId']) && value['rolloutId'] >= 0;
    case 'showDashboard':
      return typeof value['source'] === 'string';
    case 'label': {
      const { source, rolloutId, action, step } = value;
      if (typeof source !== 'string' || !isInteger(rolloutId) || rolloutId < 0) return false;
      return action === 'firstWrongStep' ? isInteger(step) && step >= 0 : (action === 'sound' || action === 'clear') && step === null;
    }
    case 'exportKept':
      return isInteger(value['requestId']) && typeof value['source'] === 'string' && (value['settings'] === null || isWhatIfSettings(value['settings']));
    case 'exportDecisions':
      return isInteger(value['requestId']) && typeof value['source'] === 'string'
        && (value['settings'] === null || isWhatIfSettings(value['settings'])) && (value['format'] === 'jsonl' || value['format'] === 'csv');
    default:
      return false;
  }
}

/** Checks a saved panel state; anything else (an older version, a damaged value) is treated as none. */
export function isPanelState(value: unknown): value is PanelState {
  if (!isRecord(value)) return false;
  return value['version'] === PANEL_STATE_VERSION && (value['view'] === 'group' || value['view'] === 'dashboard')
    && typeof value['source'] === 'string' && (value['rolloutId'] === null || (isInteger(value['rolloutId']) && value['rolloutId'] >= 0))
    && (value['whatIf'] === null || isWhatIfSettings(value['whatIf']));
}
