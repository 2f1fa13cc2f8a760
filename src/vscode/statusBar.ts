/**
 * The status bar item: the scorer in use (with its execution provider) for the active rollout
 * file, and progress while an analysis runs (click to cancel).
 */
import * as vscode from 'vscode';
import { describeEndpoint, endpointsShort, type EndpointStatus } from '../protocol/endpoints';
import type { AnalysisProgress, AnalysisStore } from './analysisStore';
import { commandIds } from './commandIds';
import { escapeMarkdown } from './hoverText';
import { ROLLOUT_VIEW_SCHEME } from './rolloutView';
import { scorerInUse } from './scorerInUse';

type Summary = NonNullable<NonNullable<ReturnType<AnalysisStore['get']>>['summary']>;

/** The model behind the scorer label: name, profile, provider and why a faster provider was not used. */
function modelLines(scorer: Summary['scorer']): string[] {
  if (scorer.kind !== 'onnx' && scorer.kind !== 'http' && scorer.kind !== 'critic') return [];
  const fallback = (scorer as { fallbackReason?: unknown }).fallbackReason;
  const parts = [
    scorer.model && `model ${escapeMarkdown(scorer.model)}`,
    scorer.profile && `profile ${escapeMarkdown(scorer.profile)}`,
    scorer.provider && `${scorer.kind === 'onnx' ? 'execution provider' : 'endpoint'} ${escapeMarkdown(scorer.provider)}`,
  ].filter(Boolean);
  const lines = parts.length > 0 ? ['', parts.join(' · ')] : [];
  if (typeof fallback === 'string') lines.push('', `Not on the preferred provider: ${escapeMarkdown(fallback)}`);
  return lines;
}

/** One Markdown line per endpoint of a served model (several endpoints, or one that failed). */
function endpointLines(endpoints: readonly EndpointStatus[] | undefined): string[] {
  if (!endpoints || endpoints.length === 0) return [];
  if (endpoints.length === 1 && endpoints[0]!.state === 'ready' && endpoints[0]!.failures === 0) return [];
  return ['', `Endpoints (${endpointsShort(endpoints)}):`, ...endpoints.map((e) => `- ${escapeMarkdown(describeEndpoint(e))}`)];
}

/**
 * The tooltip while an analysis runs. Plain text unless there are endpoints to list: the editor
 * parses a Markdown tooltip on the extension host's thread each time the item changes, and
 * progress and every arriving chunk change it.
 */
function runningTooltip(progress: AnalysisProgress): string | vscode.MarkdownString {
  const endpoints = endpointLines(progress.endpoints);
  const doing = (activity: string | undefined): string =>
    `${activity ? `PROF Lens is ${activity}` : 'Analysing this rollout file'} off the editor thread. Click to cancel.`;
  if (endpoints.length === 0) return doing(progress.activity);
  return new vscode.MarkdownString([doing(progress.activity && escapeMarkdown(progress.activity)), ...endpoints].join('\n'));
}

/** Shows what PROF Lens is doing for the file in front of the user. */
export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('profLens.status', vscode.StatusBarAlignment.Left, 50);
  private readonly progress = new Map<string, AnalysisProgress>();
  /** When each file's analysis was first asked for (its opening) and how long until it was done. */
  private readonly startedAt = new Map<string, number>();
  private readonly tookMs = new Map<string, number>();
  private readonly isReanalysed = new Set<string>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly store: AnalysisStore) {
    this.item.name = 'PROF Lens';
    this.subscriptions = [
      store.onDidProgress((event) => {
        const key = event.uri.toString();
        // A new analysis (opening, an edit, a re-score) starts the clock; the first one counts from the file's opening.
        const isNew = event.state === 'running' && this.progress.get(key)?.state !== 'running';
        if (isNew && this.startedAt.has(key)) this.isReanalysed.add(key);
        if (isNew) this.startedAt.set(key, performance.now());
        if (event.state === 'done') this.tookMs.set(key, performance.now() - (this.startedAt.get(key) ?? performance.now()));
        this.progress.set(key, event);
        this.update();
      }),
      store.onDidUpdate((update) => {
        // A file that was dropped (closed, or no longer holding rollouts) shows nothing.
        if (!store.get(update.uri)) {
          this.progress.delete(update.uri.toString());
          this.startedAt.delete(update.uri.toString());
          this.tookMs.delete(update.uri.toString());
          this.isReanalysed.delete(update.uri.toString());
        }
        this.update();
      }),
      vscode.window.onDidChangeActiveTextEditor(() => this.update()),
    ];
    this.update();
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.item.dispose();
  }

  private update(): void {
    const document = vscode.window.activeTextEditor?.document;
    if (!document) return this.item.hide();
    if (document.uri.scheme === ROLLOUT_VIEW_SCHEME) {
      this.item.text = '$(book) PROF Lens · Rollout View';
      this.item.tooltip = 'A read-only view of rollouts from a rollout file';
      this.item.command = undefined;
      return this.item.show();
    }
    const progress = this.progress.get(document.uri.toString());
    const analysis = this.store.get(document.uri);
    if (!progress && !analysis) return this.item.hide();
    if (progress?.state === 'running') {
      const count = progress.total > 0 ? ` ${progress.done}/${progress.total}` : '…';
      this.item.text = `$(sync~spin) PROF Lens · ${progress.activity ?? 'scoring'}${count}`;
      this.item.tooltip = runningTooltip(progress);
      this.item.command = commandIds.cancelAnalysis;
    } else if (progress?.state === 'failed') {
      this.item.text = `$(warning) PROF Lens · ${progress.message === 'cancelled' ? 'cancelled' : 'failed'}`;
      this.item.tooltip = `${progress.message ?? ''}\nClick to analyse again.`;
      this.item.command = commandIds.rescore;
    } else {
      this.describeDone(analysis);
    }
    this.item.show();
  }

  private describeDone(analysis: ReturnType<AnalysisStore['get']>): void {
    const summary = analysis?.summary;
    if (!summary) return;
    // A model's label already names its provider, e.g. `onnx qwen-prm (cpu; cuda unavailable)`.
    // The status bar names what scored (`checker`), not the chain that could have (`file, else checker`).
    const scorer = scorerInUse(summary.report.scorers, summary.scorer.label);
    const chain = scorer === summary.scorer.label ? '' : ` (chosen: ${escapeMarkdown(summary.scorer.label)})`;
    const took = this.tookMs.get(analysis.uri.toString());
    const timing = took === undefined
      ? `Analysed in ${(summary.durationMs / 1000).toFixed(2)} s.`
      : `Analysed ${(took / 1000).toFixed(2)} s after ${this.isReanalysed.has(analysis.uri.toString()) ? 'the analysis was asked for' : 'the file was opened'}`
        + ` (the worker's part: ${(summary.durationMs / 1000).toFixed(2)} s).`;
    const notice = analysis.scorerNotice;
    const r = summary.report;
    this.item.text = notice ? `$(warning) PROF Lens · ${scorer} · ${notice.short}` : `$(pulse) PROF Lens · ${scorer}`;
    this.item.tooltip = new vscode.MarkdownString([
      `**PROF Lens** — scored by: ${escapeMarkdown(scorer)}${chain}`,
      ...modelLines(summary.scorer),
      ...endpointLines(summary.endpoints),
      ...(notice ? ['', `⚠ ${escapeMarkdown(notice.message)}`] : []),
      '',
      `${r.rollouts} rollouts in ${r.groups} groups · kept ${r.kept}, dropped ${r.dropped} (${r.notRanked} not ranked)`,
      '',
      `${r.suspectedFalsePositives} suspected false positives · ${r.unreadableLines} unreadable lines`,
      '',
      `${timing} Click to choose the scorer.`,
    ].join('\n'));
    this.item.command = commandIds.chooseScorer;
  }
}
