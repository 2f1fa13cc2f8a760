/**
 * Messages between the extension host and the run explorer worker (`dist/runExplorerWorker.js`),
 * which reads a training run's step files off the host's thread: the Rollout Explorer over a
 * whole run (`openRun`, then `explore` calls on it while it loads) and the Run Dashboard's health
 * audit (`audit`). Each request gets exactly one final reply (`failed` included); `openRun` sends
 * `runProgress` as files come in; `cancel` ends a request with `failed` (isCancelled).
 */
import type { ProfSettings } from '../core/profSettings';
import type { DetectorResult, HealthReport } from '../core/health/healthTypes';
import type { StepHealth } from '../core/health/stepHealth';
import { isScorerChoice } from '../core/scorerChoice';
import { isExplorerAnswer, isExplorerCall } from './explorer';
import { isArray, isBoolean, isCount, isRecord, isString, literal, outline, type Guard } from './guards';
import { message, protocol, request, type MessageOf, type Sent } from './messages';

const id = { id: isCount };
const isSplit = literal('train', 'validation');

/** How far a run's reading has come (as `RunExplorer` counts it). */
export interface RunProgressView {
  files: number;
  filesRead: number;
  rows: number;
  /** Files that could not be read, each with why (the first few). */
  problems: string[];
  /** Said when texts past the limit are not kept. */
  note: string | null;
  done: boolean;
}

const isProgress = outline<RunProgressView>({ files: isCount, filesRead: isCount, rows: isCount, problems: isArray, done: isBoolean });

export const runProgress = message('toHost', 'runProgress', { ...id, progress: isProgress });
export const runRead = message('toHost', 'runRead', { ...id, progress: isProgress });
export const runFailed = message('toHost', 'failed', { ...id, message: isString, isCancelled: isBoolean });
export const runExplored = message('toHost', 'explored', { ...id, answer: isExplorerAnswer });

/** A run's health audit, as the dashboard's Health section shows it, and each step's figures (for its drill-downs). */
export interface AuditResult {
  kind: HealthReport['kind'];
  steps: number;
  rollouts: number;
  detectors: DetectorResult[];
  stepHealth: StepHealth[];
}
export const audited = message('toHost', 'audited', { ...id, result: outline<AuditResult>({ steps: isCount, rollouts: isCount, detectors: isArray, stepHealth: isArray }) });

const reading = { path: isString, split: isSplit, settings: isRecord as Guard<Partial<ProfSettings>>, scorer: isScorerChoice };

/** Read a run's step files into one table under `key`: `runProgress` per file, then `runRead` (or `failed`). */
export const openRun = request('fromHost', 'openRun', { ...id, key: isString, ...reading }, { replies: [runRead, runFailed], updates: [runProgress] });
/** An Explorer call on the run opened under `key` (over the rows read so far). */
export const exploreRun = request('fromHost', 'explore', { ...id, key: isString, call: isExplorerCall }, { replies: [runExplored, runFailed] });
/** Audit a run's health: `audited`, or `failed`. */
export const auditRun = request('fromHost', 'audit', { ...id, ...reading }, { replies: [audited, runFailed] });
/** A running request ends with `failed` (isCancelled). */
export const cancelRunRequest = message('fromHost', 'cancel', { ...id });
/** Let the run under `key` go (its reading stops). */
export const closeRun = message('fromHost', 'close', { key: isString });
export const shutdownRunExplorer = message('fromHost', 'shutdown', {});

export const runExplorerProtocol = protocol(openRun, exploreRun, auditRun, cancelRunRequest, closeRun, shutdownRunExplorer);
export type OpenRunRequest = MessageOf<typeof openRun>;
export type AuditRunRequest = MessageOf<typeof auditRun>;
export type HostToRunExplorer = Sent<typeof runExplorerProtocol, 'fromHost'>;
export type RunExplorerToHost = Sent<typeof runExplorerProtocol, 'toHost'>;
export const isHostToRunExplorer = runExplorerProtocol.guard('fromHost');
export const isRunExplorerToHost = runExplorerProtocol.guard('toHost');
