/**
 * Which documents are rollout files, their latest analysis, and when to redo it: on open, on
 * edits (debounced), on settings changes. A newer request cancels the one it supersedes.
 */
import * as vscode from 'vscode';
import type { AnalysisSource, AnalysisSummary, RolloutSummary } from '../protocol/analysis';
import { CancelledError, type AnalysisClient } from '../scoring/analysis/analysisClient';
import { RolloutIndex } from './rolloutIndex';
import type { ScorerNotice } from './scorerFromSettings';
import type { HostScorerPlan, ScorerPlanner } from './scoringSettings';
import type { SendGuard } from './sendGuard';
import { readScorerChoice } from './settings';
import { ProgressEvents, type AnalysisProgress } from './store/analysisProgress';
import { analyseRequest } from './store/analysisRequest';
import { consentFor } from './store/criticConsent';
import { DocumentTimers } from './store/debounce';
import { recoverAfterRestart } from './store/restartRecovery';
import { holdsRolloutRecords, isRolloutDocument } from './store/rolloutDocuments';
import { isUnchanged, mayHoldRollouts, sniffFromDisk, type FileStamp } from './store/openingFiles';
import { errorText } from '../core/errorText';

export { holdsRolloutRecords, isRolloutDocument } from './store/rolloutDocuments';
export type { AnalysisProgress } from './store/analysisProgress';

/** The analysis of one document (or of one large file read from disk). */
export interface DocumentAnalysis {
  uri: vscode.Uri;
  index: RolloutIndex;
  summary: AnalysisSummary | null;
  /** The document version analysed, or -1 for a file read from disk. */
  version: number;
  /** Why that model (or any model) did not score it, when a user should know; null when it did. */
  scorerNotice: ScorerNotice | null;
}

/** How to (re-)analyse: a re-score retries a model that failed before. */
export interface ReanalyseOptions {
  shouldRetryModel?: boolean;
  /** Analyse even when the file's first records are not recognised as rollouts (the user asked). */
  isForced?: boolean;
}

/** Fires when a document's rollouts change: a chunk arrived, the analysis finished or was dropped. */
export interface AnalysisUpdate {
  uri: vscode.Uri;
  isFinal: boolean;
}

/** One analysis to start. */
interface StartRequest {
  uri: vscode.Uri;
  fileName: string;
  source: AnalysisSource;
  version: number;
  options: ReanalyseOptions;
}

interface Entry {
  analysis: DocumentAnalysis | null;
  cancel?: () => void;
  /** The analysis in progress (the same object as `analysis` for a first one). */
  running?: DocumentAnalysis;
  /** Analysed from disk since its tab opened, before its document arrived: the bytes read. */
  opening?: FileStamp;
}

/** The version of an analysis started from disk for a document that has not arrived yet. */
const OPENING_VERSION = -2;

/**
 * Owns every document's analysis and the requests that produce them, composing the jobs around
 * them: debounce (`store/debounce.ts`), format sniffing (`store/rolloutDocuments.ts`), the settings
 * an analysis is made with and its priority lines (`store/analysisRequest.ts`), critic consent
 * (`store/criticConsent.ts`), restart recovery (`store/restartRecovery.ts`) and progress
 * (`store/analysisProgress.ts`).
 */
export class AnalysisStore implements vscode.Disposable {
  private readonly entries = new Map<string, Entry>();
  /** Documents the user asked to analyse whatever their first records look like. */
  private readonly forced = new Set<string>();
  private readonly timers = new DocumentTimers();
  private readonly updates = new vscode.EventEmitter<AnalysisUpdate>();
  private readonly progress = new ProgressEvents();
  /** A rollout file's analysis changed. */
  readonly onDidUpdate = this.updates.event;
  /** An analysis started, advanced, finished or failed. */
  readonly onDidProgress: vscode.Event<AnalysisProgress> = this.progress.event;

  private readonly restartSubscription: { dispose(): void };

  /**
   * Without a planner no model is used (the choice still applies, with the checker for `onnx`,
   * `http`, `critic`); without a guard nothing is ever sent to a critic.
   */
  constructor(
    private readonly client: AnalysisClient,
    private readonly planner?: ScorerPlanner,
    private readonly guard?: SendGuard,
  ) {
    // A new worker holds no analyses: redo those the Rollout View and panels may still ask about.
    this.restartSubscription = client.onDidRestart(() => recoverAfterRestart(
      [...this.entries].map(([key, entry]) => [key, { isRunning: entry.cancel !== undefined, analysed: entry.analysis }]),
      { document: (document) => this.analyseDocument(document), file: (uri) => this.analyseFile(uri) },
    ));
  }

  /** The latest analysis of a document, if any. */
  get(uri: vscode.Uri): DocumentAnalysis | undefined {
    return this.entries.get(uri.toString())?.analysis ?? undefined;
  }

  /** True once a document's analysis has started (running or done) and until it is forgotten. */
  isTracked(uri: vscode.Uri): boolean {
    return this.entries.has(uri.toString());
  }

  /** Analyses after a pause, so typing does not start one analysis per keystroke. */
  schedule(document: vscode.TextDocument, delayMs: number): void {
    this.entry(document.uri);
    this.timers.schedule(document.uri.toString(), delayMs, () => this.analyseDocument(document));
  }

  /**
   * Analyses a document now, cancelling an earlier request for it — if it holds rollouts (or the
   * user asked). A document that no longer does loses its analysis.
   */
  analyseDocument(document: vscode.TextDocument, options: ReanalyseOptions = {}): void {
    if (document.isClosed || !isRolloutDocument(document)) return;
    const key = document.uri.toString();
    if (options.isForced) this.forced.add(key);
    if (!this.forced.has(key) && !holdsRolloutRecords(document)) {
      if (this.entries.has(key)) this.forget(document.uri);
      return;
    }
    if (this.adopt(document)) return;
    // An unmodified file on disk is read by the worker: the host never copies a large text.
    const source: AnalysisSource = document.uri.scheme === 'file' && !document.isDirty
      ? { kind: 'path', path: document.uri.fsPath }
      : { kind: 'text', text: document.getText() };
    this.start({ uri: document.uri, fileName: document.fileName, source, version: document.version, options });
  }

  /**
   * A file whose tab opened before its document reached extensions: when its first records are
   * rollouts, it is analysed from disk at once, and its document adopts that analysis on arrival
   * (`analyseDocument`) if the file has not changed since it was read.
   */
  async analyseOpening(uri: vscode.Uri): Promise<void> {
    const key = uri.toString();
    if (!mayHoldRollouts(uri) || this.entries.has(key) || vscode.workspace.textDocuments.some((d) => d.uri.toString() === key)) return;
    const stamp = await sniffFromDisk(uri);
    // The document may have arrived, or the tab closed, while the prefix was read.
    if (!stamp || this.entries.has(key) || vscode.workspace.textDocuments.some((d) => d.uri.toString() === key)) return;
    if (!vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === key))) return;
    this.start({ uri, fileName: uri.fsPath, source: { kind: 'path', path: uri.fsPath }, version: OPENING_VERSION, options: {} });
    const entry = this.entries.get(key);
    if (entry) entry.opening = stamp;
  }

  /** Drops an analysis started for a tab that closed before its document arrived. */
  forgetOpening(uri: vscode.Uri): void {
    if (this.entries.get(uri.toString())?.opening) this.forget(uri);
  }

  /** Analyses a file straight from disk (files too large for the editor to hand to extensions). */
  analyseFile(uri: vscode.Uri, options: ReanalyseOptions = {}): void {
    this.start({ uri, fileName: uri.fsPath, source: { kind: 'path', path: uri.fsPath }, version: -1, options });
  }

  /** The scorer plan the settings give now (window scope): what a new analysis would use. */
  currentPlan(scope?: vscode.Uri): HostScorerPlan {
    return this.planner?.(scope) ?? { choice: readScorerChoice(scope), model: null, notice: null };
  }

  /** Cancels what runs for a document (the status bar's cancel). */
  cancel(uri: vscode.Uri): void {
    const entry = this.entries.get(uri.toString());
    this.timers.clear(uri.toString());
    if (!entry?.cancel) return;
    entry.cancel();
    entry.cancel = undefined;
    this.progress.failed(uri, 'cancelled');
  }

  /** Drops a closed document's analysis here and in the worker. */
  forget(uri: vscode.Uri): void {
    const key = uri.toString();
    this.cancel(uri);
    this.forced.delete(key);
    if (!this.entries.delete(key)) return;
    this.client.forget(key);
    this.updates.fire({ uri, isFinal: true });
  }

  /** Every analysed document's URI. */
  uris(): vscode.Uri[] {
    return [...this.entries.values()].flatMap((e) => (e.analysis ? [e.analysis.uri] : []));
  }

  dispose(): void {
    this.restartSubscription.dispose();
    this.timers.dispose();
    for (const entry of this.entries.values()) entry.cancel?.();
    this.entries.clear();
    this.updates.dispose();
    this.progress.dispose();
  }

  private entry(uri: vscode.Uri): Entry {
    const key = uri.toString();
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { analysis: null };
      this.entries.set(key, entry);
    }
    return entry;
  }

  /**
   * Hands an analysis started from disk before the document arrived to the document, when the
   * document is the unmodified file that was read; false when it has to be analysed itself.
   */
  private adopt(document: vscode.TextDocument): boolean {
    const entry = this.entries.get(document.uri.toString());
    const stamp = entry?.opening;
    if (!entry || !stamp) return false;
    entry.opening = undefined;
    if (document.isDirty || !isUnchanged(document.uri, stamp)) return false;
    for (const analysis of [entry.analysis, entry.running]) {
      if (analysis?.version === OPENING_VERSION) analysis.version = document.version;
    }
    // Lenses and symbols compare versions: they are asked again now that the versions match.
    if (entry.analysis?.summary) this.updates.fire({ uri: document.uri, isFinal: true });
    return true;
  }

  private start(request: StartRequest): void {
    const { uri } = request;
    const entry = this.entry(uri);
    this.timers.clear(uri.toString());
    entry.cancel?.();
    entry.opening = undefined;
    const plan = this.currentPlan(uri);
    const next: DocumentAnalysis = { uri, index: new RolloutIndex(), summary: null, version: request.version, scorerNotice: plan.notice };
    // A first analysis shows rollouts chunk by chunk; a re-analysis swaps in when complete.
    const isProgressive = entry.analysis === null;
    if (isProgressive) entry.analysis = next;
    entry.running = next;
    const consent = consentFor(plan.model, this.guard);
    const job = this.client.analyse(
      analyseRequest({ uri, fileName: request.fileName, source: request.source, plan, shouldRetryModel: request.options.shouldRetryModel === true, shouldConfirmSend: consent.shouldConfirmSend }),
      {
        onProgress: (done, total, activity, endpoints) => this.progress.running(uri, done, total, activity, endpoints),
        ...(consent.onConsent ? { onConsent: consent.onConsent } : {}),
        onChunk: (rollouts: readonly RolloutSummary[]) => {
          next.index.add(rollouts);
          if (isProgressive) this.updates.fire({ uri, isFinal: false });
        },
        onRestart: () => {
          next.index = new RolloutIndex();
          if (isProgressive) this.updates.fire({ uri, isFinal: false });
          this.progress.running(uri, 0, 0, 'restarting after the analysis worker stopped');
        },
      },
    );
    entry.cancel = job.cancel;
    this.progress.started(uri);
    job.result.then(
      (result) => this.finish(entry, next, result.summary),
      (error: unknown) => {
        // A failed analysis no longer runs: a worker restart may redo it.
        if (entry.cancel === job.cancel) entry.cancel = undefined;
        if (!(error instanceof CancelledError)) this.progress.failed(uri, errorText(error));
      },
    );
  }

  private finish(entry: Entry, analysis: DocumentAnalysis, summary: AnalysisSummary): void {
    entry.cancel = undefined;
    entry.running = undefined;
    analysis.summary = summary;
    if (summary.modelError !== undefined) {
      analysis.scorerNotice = { short: 'model failed', message: summary.modelError, isError: true };
    } else if (summary.modelDeclined !== undefined) {
      analysis.scorerNotice = { short: 'critic not used', message: summary.modelDeclined, isError: false, isQuiet: true };
    }
    entry.analysis = analysis;
    this.updates.fire({ uri: analysis.uri, isFinal: true });
    this.progress.done(analysis.uri, summary.rolloutCount);
  }
}
