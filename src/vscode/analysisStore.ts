/**
 * Which documents are rollout files, their latest analysis, and when to redo it: on open, on
 * edits (debounced), on settings changes. A newer request cancels the one it supersedes.
 */
import * as vscode from 'vscode';
import { holdsRollouts, prefixEnd } from '../core/rolloutDetection';
import type { AnalysisSource, AnalysisSummary, RolloutSummary } from '../protocol/analysis';
import type { EndpointStatus } from '../protocol/endpoints';
import { CancelledError, type AnalysisClient } from '../scoring/analysis/analysisClient';
import { defaultCacheDir } from '../scoring/scorers/cache/identity';
import { RolloutIndex } from './rolloutIndex';
import type { ScorerNotice } from './scorerFromSettings';
import type { HostScorerPlan, ScorerPlanner } from './scoringSettings';
import type { SendGuard } from './sendGuard';
import { readSettings, type ExtensionSettings } from './settings';

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

/** Progress of the analysis the user is looking at, for the status bar. */
export interface AnalysisProgress {
  uri: vscode.Uri;
  state: 'running' | 'done' | 'failed';
  done: number;
  total: number;
  message?: string;
  /** A slow phase worth naming: loading a model, scoring with it. */
  activity?: string;
  /** A served model's endpoints while it scores. */
  endpoints?: EndpointStatus[];
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

/** Lines beyond the visible ones whose rollouts are also sent first. */
const PRIORITY_MARGIN = 200;

interface Entry {
  analysis: DocumentAnalysis | null;
  cancel?: () => void;
  timer?: ReturnType<typeof setTimeout>;
}

/** Documents that may hold rollouts: JSON Lines and JSON files (whether they do is `holdsRolloutRecords`'s call). */
export function isRolloutDocument(document: vscode.TextDocument): boolean {
  if (document.uri.scheme !== 'file' && document.uri.scheme !== 'untitled') return false;
  return document.languageId === 'jsonl' || document.languageId === 'json' || /\.jsonl$/i.test(document.fileName);
}

/**
 * Whether the document's first 64 KB hold a record a format adapter recognises: the check made
 * before any analysis, so a `tsconfig.json` gets no analysis, no model, no marks.
 */
export function holdsRolloutRecords(document: vscode.TextDocument): boolean {
  const eolLength = document.eol === vscode.EndOfLine.CRLF ? 2 : 1;
  const { line, character } = prefixEnd((i) => document.lineAt(i).text.length, document.lineCount, eolLength);
  const end = new vscode.Position(line, character);
  const prefix = document.getText(new vscode.Range(new vscode.Position(0, 0), end));
  const isWholeText = end.isEqual(document.lineAt(document.lineCount - 1).range.end);
  return holdsRollouts(prefix, { fileName: document.fileName, fields: readSettings(document.uri).prof.fields ?? {}, isWholeText });
}

/** Lines around what the user sees of a document (1-based); the top of the file before it is shown. */
function visibleLines(uri: vscode.Uri): { from: number; to: number } {
  const key = uri.toString();
  const ranges = vscode.window.visibleTextEditors.filter((e) => e.document.uri.toString() === key).flatMap((e) => e.visibleRanges);
  if (ranges.length === 0) return { from: 1, to: PRIORITY_MARGIN * 2 };
  const from = Math.min(...ranges.map((r) => r.start.line)) + 1;
  const to = Math.max(...ranges.map((r) => r.end.line)) + 1;
  return { from: Math.max(1, from - PRIORITY_MARGIN), to: to + PRIORITY_MARGIN };
}

/** Owns every document's analysis and the requests that produce them. */
export class AnalysisStore implements vscode.Disposable {
  private readonly entries = new Map<string, Entry>();
  /** Documents the user asked to analyse whatever their first records look like. */
  private readonly forced = new Set<string>();
  private readonly updates = new vscode.EventEmitter<AnalysisUpdate>();
  private readonly progress = new vscode.EventEmitter<AnalysisProgress>();
  /** A rollout file's analysis changed. */
  readonly onDidUpdate = this.updates.event;
  /** An analysis started, advanced, finished or failed. */
  readonly onDidProgress = this.progress.event;

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
    this.restartSubscription = client.onDidRestart(() => this.reanalyseIdle());
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
    const entry = this.entry(document.uri);
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => this.analyseDocument(document), delayMs);
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
    // An unmodified file on disk is read by the worker: the host never copies a large text.
    const source: AnalysisSource = document.uri.scheme === 'file' && !document.isDirty
      ? { kind: 'path', path: document.uri.fsPath }
      : { kind: 'text', text: document.getText() };
    this.start({ uri: document.uri, fileName: document.fileName, source, version: document.version, options });
  }

  /** Analyses a file straight from disk (files too large for the editor to hand to extensions). */
  analyseFile(uri: vscode.Uri, options: ReanalyseOptions = {}): void {
    this.start({ uri, fileName: uri.fsPath, source: { kind: 'path', path: uri.fsPath }, version: -1, options });
  }

  /** The scorer plan the settings give now (window scope): what a new analysis would use. */
  currentPlan(scope?: vscode.Uri): HostScorerPlan {
    return this.planner?.(scope) ?? { choice: readSettings(scope).scorer, model: null, notice: null };
  }

  /** Cancels what runs for a document (the status bar's cancel). */
  cancel(uri: vscode.Uri): void {
    const entry = this.entries.get(uri.toString());
    clearTimeout(entry?.timer);
    if (!entry?.cancel) return;
    entry.cancel();
    entry.cancel = undefined;
    this.progress.fire({ uri, state: 'failed', done: 0, total: 0, message: 'cancelled' });
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
    for (const entry of this.entries.values()) {
      clearTimeout(entry.timer);
      entry.cancel?.();
    }
    this.entries.clear();
    this.updates.dispose();
    this.progress.dispose();
  }

  /** Analyses again every document whose analysis is not running (running ones are retried by the client). */
  private reanalyseIdle(): void {
    for (const [key, entry] of this.entries) {
      if (entry.cancel || !entry.analysis) continue;
      const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
      if (document) this.analyseDocument(document);
      else if (entry.analysis.version === -1) this.analyseFile(entry.analysis.uri);
    }
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

  private start(request: StartRequest): void {
    const { uri } = request;
    const entry = this.entry(uri);
    clearTimeout(entry.timer);
    entry.cancel?.();
    const settings: ExtensionSettings = readSettings(uri);
    const plan = this.currentPlan(uri);
    const next: DocumentAnalysis = { uri, index: new RolloutIndex(), summary: null, version: request.version, scorerNotice: plan.notice };
    // A first analysis shows rollouts chunk by chunk; a re-analysis swaps in when complete.
    const isProgressive = entry.analysis === null;
    if (isProgressive) entry.analysis = next;
    this.guard?.noteModel(plan.model);
    const guard = plan.model?.kind === 'critic' ? this.guard : undefined;
    const job = this.client.analyse(
      {
        documentKey: uri.toString(),
        fileName: request.fileName,
        source: request.source,
        settings: settings.prof,
        scorer: plan.choice,
        model: plan.model,
        shouldRetryModel: request.options.shouldRetryModel === true,
        shouldConfirmSend: guard !== undefined,
        priorityLines: visibleLines(uri),
        isThresholdGiven: settings.isThresholdGiven,
        // Where `prof-lens eval --calibrate` stores the thresholds it calibrates.
        calibrationsDir: defaultCacheDir(),
      },
      {
        onProgress: (done, total, activity, endpoints) =>
          this.progress.fire({ uri, state: 'running', done, total, ...(activity ? { activity } : {}), ...(endpoints ? { endpoints } : {}) }),
        ...(guard ? { onConsent: (sendPlan) => guard.confirm(sendPlan) } : {}),
        onChunk: (rollouts: readonly RolloutSummary[]) => {
          next.index.add(rollouts);
          if (isProgressive) this.updates.fire({ uri, isFinal: false });
        },
        onRestart: () => {
          next.index = new RolloutIndex();
          if (isProgressive) this.updates.fire({ uri, isFinal: false });
          this.progress.fire({ uri, state: 'running', done: 0, total: 0, activity: 'restarting after the analysis worker stopped' });
        },
      },
    );
    entry.cancel = job.cancel;
    this.progress.fire({ uri, state: 'running', done: 0, total: 0 });
    job.result.then(
      (result) => this.finish(entry, next, result.summary),
      (error: unknown) => {
        // A failed analysis no longer runs: a worker restart may redo it.
        if (entry.cancel === job.cancel) entry.cancel = undefined;
        this.fail(uri, error);
      },
    );
  }

  private finish(entry: Entry, analysis: DocumentAnalysis, summary: AnalysisSummary): void {
    entry.cancel = undefined;
    analysis.summary = summary;
    if (summary.modelError !== undefined) {
      analysis.scorerNotice = { short: 'model failed', message: summary.modelError, isError: true };
    } else if (summary.modelDeclined !== undefined) {
      analysis.scorerNotice = { short: 'critic not used', message: summary.modelDeclined, isError: false, isQuiet: true };
    }
    entry.analysis = analysis;
    this.updates.fire({ uri: analysis.uri, isFinal: true });
    this.progress.fire({ uri: analysis.uri, state: 'done', done: summary.rolloutCount, total: summary.rolloutCount });
  }

  private fail(uri: vscode.Uri, error: unknown): void {
    if (error instanceof CancelledError) return;
    const message = error instanceof Error ? error.message : String(error);
    this.progress.fire({ uri, state: 'failed', done: 0, total: 0, message });
  }
}
