/**
 * The Rollout View: a read-only virtual document (scheme `prof-lens-rollout`) showing one rollout
 * or one group readably, with the same marks and hovers as the raw file. It is how responses too
 * long for one editor line, and files too large for the editor, are read.
 */
import * as vscode from 'vscode';
import { basename } from 'node:path';
import type { RolloutDetail } from '../protocol/analysis';
import type { AnalysisClient } from '../scoring/analysis/analysisClient';
import type { AnalysisStore } from './analysisStore';
import type { EditorMarks, LineMark, MarkChange, MarkSource } from './decorations';
import { fillSummary } from '../core/presentation/summaryWords';
import { markKind } from './marks';
import { labelBadge } from './labels/labelFigures';
import type { LabelsController } from './labels/labelsController';
import { renderRollouts, type RenderedRollout, type RenderedView } from './rolloutViewRender';

/** The Rollout View's URI scheme. */
export const ROLLOUT_VIEW_SCHEME = 'prof-lens-rollout';

interface ViewQuery {
  source: string;
  ids: number[];
}

interface OpenView {
  query: ViewQuery;
  details: RolloutDetail[];
  rendered: RenderedView;
}

/** A step or rollout found at a position of a Rollout View. */
export interface ViewHit {
  source: vscode.Uri;
  rollout: RolloutDetail;
  step: number | null;
}

/** Builds the URI of a view of some rollouts of a source file (no file extension, so the view gets its own language: ROLLOUT_VIEW_LANGUAGE). */
export function rolloutViewUri(source: vscode.Uri, ids: number[], title: string): vscode.Uri {
  const name = `${basename(source.path)} · ${title}`;
  return vscode.Uri.from({ scheme: ROLLOUT_VIEW_SCHEME, path: `/${name}`, query: JSON.stringify({ source: source.toString(), ids }) });
}

function parseQuery(uri: vscode.Uri): ViewQuery | undefined {
  try {
    const value: unknown = JSON.parse(uri.query);
    if (typeof value !== 'object' || value === null) return undefined;
    const { source, ids } = value as Record<string, unknown>;
    if (typeof source !== 'string' || !Array.isArray(ids) || !ids.every((id) => typeof id === 'number')) return undefined;
    return { source, ids: ids as number[] };
  } catch {
    return undefined;
  }
}

/** Serves Rollout View documents and their marks. */
export class RolloutViewProvider implements MarkSource, vscode.Disposable {
  private readonly views = new Map<string, OpenView>();
  private readonly contentChanges = new vscode.EventEmitter<vscode.Uri>();
  private readonly markChanges = new vscode.EventEmitter<MarkChange>();
  private readonly subscriptions: vscode.Disposable[] = [];
  readonly onDidChange = this.markChanges.event;

  constructor(
    private readonly client: AnalysisClient,
    private readonly store: AnalysisStore,
    private readonly summaryTemplate: () => string,
    private readonly labels?: Pick<LabelsController, 'matchOf' | 'onDidChange'>,
  ) {
    if (labels) this.subscriptions.push(labels.onDidChange((uri) => this.refreshViewsOf(uri)));
    this.subscriptions.push(
      vscode.workspace.registerTextDocumentContentProvider(ROLLOUT_VIEW_SCHEME, {
        onDidChange: this.contentChanges.event,
        provideTextDocumentContent: (uri) => this.provideTextDocumentContent(uri),
      }),
      store.onDidUpdate((update) => update.isFinal && this.refreshViewsOf(update.uri)),
      vscode.workspace.onDidCloseTextDocument((doc) => this.views.delete(doc.uri.toString())),
    );
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const query = parseQuery(uri);
    if (!query) return 'This Rollout View link is not valid.';
    const analysis = this.store.get(vscode.Uri.parse(query.source));
    if (!analysis?.summary) return 'The source file has not been analysed yet: open it, then open the Rollout View again.';
    const details = await this.client.details(query.source, query.ids);
    const source = vscode.Uri.parse(query.source);
    const labelOf = (rolloutId: number): string | null => labelBadge(this.labels?.matchOf(source, rolloutId));
    const responsesOnLine = (line: number): number => analysis.index.onLine(line).length;
    const rendered = renderRollouts(details, { fileLabel: basename(source.path), settings: analysis.summary.settings, labelOf, responsesOnLine });
    this.views.set(uri.toString(), { query, details, rendered });
    // The marks follow the text: repaint once VS Code has the new content.
    setTimeout(() => this.markChanges.fire({ uri, isFinal: true }), 0);
    return rendered.text;
  }

  marksFor(document: vscode.TextDocument, from: number, to: number): EditorMarks | undefined {
    const view = this.views.get(document.uri.toString());
    if (!view) return undefined;
    const marks: EditorMarks = { lines: [], lowSteps: [] };
    const template = this.summaryTemplate();
    view.rendered.rollouts.forEach((placed, i) => {
      const rollout = view.details[i];
      if (!rollout) return;
      if (placed.headerLine >= from && placed.headerLine <= to) {
        marks.lines.push({ line: placed.headerLine, kind: markKind(rollout), text: fillSummary(template, rollout) });
      }
      for (const step of placed.steps) {
        if (!rollout.lowSteps.includes(step.step) || step.endLine <= from || step.startLine > to) continue;
        const lastLine = Math.min(step.endLine, document.lineCount) - 1;
        marks.lowSteps.push(new vscode.Range(step.startLine, 0, lastLine, document.lineAt(lastLine).text.length));
      }
    });
    return marks;
  }

  overviewFor(document: vscode.TextDocument): Promise<LineMark[] | undefined> {
    const view = this.views.get(document.uri.toString());
    return Promise.resolve(view?.rendered.rollouts.flatMap((placed, i) => {
      const rollout = view.details[i];
      return rollout ? [{ line: placed.headerLine, kind: markKind(rollout) }] : [];
    }));
  }

  /** The rollout (and step, if any) shown at a position of a view. */
  hitAt(uri: vscode.Uri, line: number): ViewHit | undefined {
    const view = this.views.get(uri.toString());
    if (!view) return undefined;
    const index = findLastIndex(view.rendered.rollouts, (r) => r.headerLine <= line);
    const placed = view.rendered.rollouts[index];
    const rollout = view.details[index];
    if (!placed || !rollout) return undefined;
    const step = placed.steps.find((s) => line >= s.headerLine && line < s.endLine);
    return { source: vscode.Uri.parse(view.query.source), rollout, step: step?.step ?? null };
  }

  /** The rendered layout of an open view (for navigation). */
  layout(uri: vscode.Uri): { rollouts: readonly RenderedRollout[]; details: readonly RolloutDetail[] } | undefined {
    const view = this.views.get(uri.toString());
    return view && { rollouts: view.rendered.rollouts, details: view.details };
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.contentChanges.dispose();
    this.markChanges.dispose();
  }

  private refreshViewsOf(source: vscode.Uri): void {
    const key = source.toString();
    for (const [uri, view] of this.views) {
      if (view.query.source === key) this.contentChanges.fire(vscode.Uri.parse(uri));
    }
  }
}

function findLastIndex<T>(items: readonly T[], matches: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (matches(items[i] as T)) return i;
  return -1;
}
