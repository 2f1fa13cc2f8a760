/**
 * Paints visible editors: the end-of-line summary, gutter marks, low-score step tints and
 * overview-ruler marks. Only the visible lines (plus a margin) are decorated, and a scroll inside
 * that window costs nothing; the overview ruler covers the whole file once per analysis.
 */
import * as vscode from 'vscode';
import { MARK_KINDS, type MarkKind } from './marks';
import { editorRenderLimit } from './settings';

/** One line's mark: its kind and, optionally, the summary text shown at its end. */
export interface LineMark {
  line: number;
  kind: MarkKind;
  text?: string;
}

/** What a source wants painted on a window of lines of one document. */
export interface EditorMarks {
  lines: LineMark[];
  /** Low-score step spans, as exact ranges. */
  lowSteps: vscode.Range[];
}

/** Something that knows the marks of some documents (raw rollout files, the Rollout View). */
export interface MarkSource {
  /** Marks for lines [from, to] (0-based), or undefined when the document is not this source's. */
  marksFor(document: vscode.TextDocument, from: number, to: number): EditorMarks | undefined;
  /** Marks for the whole document, for the overview ruler; a large file's are built over several turns. */
  overviewFor(document: vscode.TextDocument): Promise<LineMark[] | undefined>;
  /** Fires when a document's marks changed; `isFinal` is false while more are still arriving. */
  readonly onDidChange: vscode.Event<MarkChange>;
}

/** A change of a document's marks. */
export interface MarkChange {
  uri: vscode.Uri;
  isFinal: boolean;
}

/** Timing of one paint, for the benchmark figures. */
export interface PaintTiming {
  uri: string;
  lines: number;
  ms: number;
  isOverview: boolean;
}

/** Lines decorated above and below the visible range, so small scrolls need no repaint. */
const WINDOW_MARGIN = 150;
/** Least time between repaints while an analysis streams in. */
const PARTIAL_PAINT_MS = 150;
/** The overview ruler is a few hundred pixels tall: more marks than this per kind add nothing. */
const OVERVIEW_BUCKETS = 600;

/** Owns the decoration types and repaints editors when marks or visibility change. */
export class DecorationController implements vscode.Disposable {
  private readonly gutter = new Map<MarkKind, vscode.TextEditorDecorationType>();
  private readonly overview = new Map<MarkKind, vscode.TextEditorDecorationType>();
  private readonly lowStep: vscode.TextEditorDecorationType;
  private readonly summary: vscode.TextEditorDecorationType;
  private readonly painted = new WeakMap<vscode.TextEditor, { from: number; to: number }>();
  private readonly overviewGenerations = new WeakMap<vscode.TextEditor, number>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly pendingPartial = new Set<string>();
  private isEnabled = true;

  constructor(
    private readonly sources: readonly MarkSource[],
    private readonly options: { mediaUri: vscode.Uri; onPaint?: (timing: PaintTiming) => void },
  ) {
    for (const kind of MARK_KINDS) {
      this.gutter.set(kind, vscode.window.createTextEditorDecorationType({
        gutterIconPath: vscode.Uri.joinPath(options.mediaUri, `gutter-${kind}.svg`),
        gutterIconSize: '70%',
      }));
      this.overview.set(kind, vscode.window.createTextEditorDecorationType({
        overviewRulerColor: new vscode.ThemeColor(`profLens.${kind}.overviewRuler`),
        overviewRulerLane: vscode.OverviewRulerLane.Right,
      }));
    }
    this.lowStep = vscode.window.createTextEditorDecorationType({
      backgroundColor: new vscode.ThemeColor('profLens.lowStep.background'),
      // An inline style (not only a background) so the span is its own element in the line.
      textDecoration: 'underline dotted',
      borderRadius: '2px',
    });
    this.summary = vscode.window.createTextEditorDecorationType({
      rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
    });
    this.disposables.push(
      vscode.window.onDidChangeVisibleTextEditors(() => this.paintVisible(true)),
      vscode.window.onDidChangeTextEditorVisibleRanges((event) => this.paint(event.textEditor, false)),
      ...sources.map((source) => source.onDidChange((change) => this.onMarksChanged(change))),
    );
  }

  /** Turns all decorations on or off (the toggle command and the display setting). */
  setEnabled(isEnabled: boolean): void {
    this.isEnabled = isEnabled;
    this.paintVisible(true);
  }

  /** Repaints every visible editor. */
  paintVisible(isForced: boolean): void {
    for (const editor of vscode.window.visibleTextEditors) this.paint(editor, isForced, true);
  }

  dispose(): void {
    for (const type of [...this.gutter.values(), ...this.overview.values(), this.lowStep, this.summary]) type.dispose();
    for (const disposable of this.disposables) disposable.dispose();
  }

  private onMarksChanged(change: MarkChange): void {
    const key = change.uri.toString();
    if (change.isFinal) {
      this.pendingPartial.delete(key);
      this.paintUri(key, true);
      return;
    }
    // While chunks stream in, repaint the visible lines at most every PARTIAL_PAINT_MS.
    if (this.pendingPartial.has(key)) return;
    this.pendingPartial.add(key);
    setTimeout(() => {
      if (this.pendingPartial.delete(key)) this.paintUri(key, false);
    }, PARTIAL_PAINT_MS);
  }

  private paintUri(key: string, withOverview: boolean): void {
    for (const editor of vscode.window.visibleTextEditors) {
      if (editor.document.uri.toString() === key) this.paint(editor, true, withOverview);
    }
  }

  private paint(editor: vscode.TextEditor, isForced: boolean, withOverview = false): void {
    const visible = editor.visibleRanges;
    const first = visible[0]?.start.line ?? 0;
    const last = visible[visible.length - 1]?.end.line ?? 0;
    const done = this.painted.get(editor);
    if (!isForced && done && first >= done.from && last <= done.to) return;
    const from = Math.max(0, first - WINDOW_MARGIN);
    const to = Math.min(editor.document.lineCount - 1, last + WINDOW_MARGIN);
    const started = performance.now();
    const marks = this.isEnabled ? this.marksFor(editor.document, from, to) : undefined;
    if (!marks && !done) return;
    this.apply(editor, marks ?? { lines: [], lowSteps: [] });
    this.painted.set(editor, { from, to });
    this.options.onPaint?.({ uri: editor.document.uri.toString(), lines: to - from + 1, ms: performance.now() - started, isOverview: false });
    // The overview covers the whole file: a later turn, so the visible lines show first. An
    // immediate, not a timer: the editor's own zero-delay timers (the status bar's update) then
    // run in a turn of their own rather than straight after this one.
    if (withOverview) setImmediate(() => void this.paintOverview(editor));
  }

  private marksFor(document: vscode.TextDocument, from: number, to: number): EditorMarks | undefined {
    for (const source of this.sources) {
      const marks = source.marksFor(document, from, to);
      if (marks) return marks;
    }
    return undefined;
  }

  private apply(editor: vscode.TextEditor, marks: EditorMarks): void {
    const byKind = new Map<MarkKind, vscode.Range[]>(MARK_KINDS.map((k) => [k, []]));
    const summaries: vscode.DecorationOptions[] = [];
    const limit = renderLimit(editor);
    for (const mark of marks.lines) {
      byKind.get(mark.kind)?.push(new vscode.Range(mark.line, 0, mark.line, 0));
      if (mark.text !== undefined) summaries.push(summaryDecoration(editor, mark, limit));
    }
    for (const [kind, type] of this.gutter) editor.setDecorations(type, byKind.get(kind) ?? []);
    editor.setDecorations(this.summary, summaries);
    editor.setDecorations(this.lowStep, marks.lowSteps);
  }

  private async paintOverview(editor: vscode.TextEditor): Promise<void> {
    const generation = (this.overviewGenerations.get(editor) ?? 0) + 1;
    this.overviewGenerations.set(editor, generation);
    let marks: LineMark[] | undefined;
    for (const source of this.isEnabled ? this.sources : []) {
      marks = await source.overviewFor(editor.document);
      if (marks) break;
    }
    // The editor may have been closed, or a newer paint started, while a large file's marks were built.
    if (this.overviewGenerations.get(editor) !== generation || !vscode.window.visibleTextEditors.includes(editor)) return;
    // Timed from here: the building above yields between slices, and only this part blocks.
    const started = performance.now();
    const byKind = overviewRanges(marks ?? [], editor.document.lineCount);
    for (const [kind, type] of this.overview) editor.setDecorations(type, byKind.get(kind) ?? []);
    this.options.onPaint?.({ uri: editor.document.uri.toString(), lines: marks?.length ?? 0, ms: performance.now() - started, isOverview: true });
  }
}

/** The editor stops rendering long lines; a summary after such a line's end would never show. */
function renderLimit(editor: vscode.TextEditor): number {
  const limit = editorRenderLimit(editor.document);
  return limit < 0 ? Number.MAX_SAFE_INTEGER : limit;
}

function summaryDecoration(editor: vscode.TextEditor, mark: LineMark, limit: number): vscode.DecorationOptions {
  const length = editor.document.lineAt(mark.line).text.length;
  const color = new vscode.ThemeColor(`profLens.${mark.kind}.summaryForeground`);
  const attachment = { contentText: mark.text, color, fontStyle: 'italic', margin: '0 0 0 2em' };
  if (length < limit) {
    return { range: new vscode.Range(mark.line, length, mark.line, length), renderOptions: { after: attachment } };
  }
  return {
    range: new vscode.Range(mark.line, 0, mark.line, 0),
    renderOptions: { before: { ...attachment, margin: '0 1em 0 0' } },
  };
}

/** One range per kind per bucket of lines, so a huge file costs the renderer a bounded number of marks. */
function overviewRanges(marks: readonly LineMark[], lineCount: number): Map<MarkKind, vscode.Range[]> {
  const bucketSize = Math.max(1, Math.ceil(lineCount / OVERVIEW_BUCKETS));
  const byKind = new Map<MarkKind, vscode.Range[]>(MARK_KINDS.map((k) => [k, []]));
  const lastBucket = new Map<MarkKind, number>();
  for (const mark of marks) {
    const bucket = Math.floor(mark.line / bucketSize);
    if (lastBucket.get(mark.kind) === bucket) continue;
    lastBucket.set(mark.kind, bucket);
    byKind.get(mark.kind)?.push(new vscode.Range(mark.line, 0, mark.line, 0));
  }
  return byKind;
}
