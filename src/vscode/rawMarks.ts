/**
 * Marks for a raw rollout file: one summary per line (one rollout, or a grouped line's tally) and
 * the low-score step spans at their exact offsets inside the JSON string.
 */
import * as vscode from 'vscode';
import type { AnalysisStore, DocumentAnalysis } from './analysisStore';
import type { EditorMarks, LineMark, MarkChange, MarkSource } from './decorations';
import { fillSummary, groupLineSummary } from '../core/presentation/summaryWords';
import { lineMarkKind, markKind } from './marks';
import type { RolloutIndex } from './rolloutIndex';
import type { RolloutSummary } from '../protocol/analysis';

/** Offsets are into the raw line: exact for JSON Lines, where a record is one line of the file. */
function hasLineOffsets(document: vscode.TextDocument): boolean {
  return document.languageId === 'jsonl' || /\.jsonl$/i.test(document.fileName);
}

/** The raw file's marks, read from the latest analysis. */
export class RawMarkSource implements MarkSource, vscode.Disposable {
  private readonly changes = new vscode.EventEmitter<MarkChange>();
  readonly onDidChange = this.changes.event;
  private readonly subscription: vscode.Disposable;
  /** Whole-file marks per analysis, computed once (a paint that asks while they are built shares them). */
  private readonly overviews = new WeakMap<DocumentAnalysis, { size: number; marks: Promise<LineMark[]> }>();

  constructor(
    private readonly store: AnalysisStore,
    private readonly summaryTemplate: () => string,
  ) {
    this.subscription = store.onDidUpdate((update) => this.changes.fire(update));
  }

  /** Asks for a repaint of every analysed document (after a display setting changed). */
  refresh(): void {
    for (const uri of this.store.uris()) this.changes.fire({ uri, isFinal: true });
  }

  marksFor(document: vscode.TextDocument, from: number, to: number): EditorMarks | undefined {
    const analysis = this.store.get(document.uri);
    if (!analysis || analysis.index.size === 0) return undefined;
    const template = this.summaryTemplate();
    const isExact = hasLineOffsets(document) && analysis.version === document.version;
    const marks: EditorMarks = { lines: [], lowSteps: [] };
    for (let line = from; line <= to; line++) {
      const mark = lineMark(analysis.index, line, template);
      if (!mark) continue;
      marks.lines.push(mark);
      if (isExact) marks.lowSteps.push(...lowStepRanges(analysis.index, document, line));
    }
    return marks;
  }

  overviewFor(document: vscode.TextDocument): Promise<LineMark[] | undefined> {
    const analysis = this.store.get(document.uri);
    if (!analysis || analysis.index.size === 0) return Promise.resolve(undefined);
    const cached = this.overviews.get(analysis);
    if (cached && cached.size === analysis.index.size) return cached.marks;
    const marks = overviewMarks(analysis.index);
    this.overviews.set(analysis, { size: analysis.index.size, marks });
    return marks;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changes.dispose();
  }
}

/** Rollouts looked at per turn of the event loop while a file's overview is built: a few ms each. */
const OVERVIEW_SLICE = 4_000;

/**
 * One mark per rollout line of the whole file, built a slice at a time: a 40 MB file has ~47,000
 * rollouts, and one loop over them all would hold the extension host for tens of milliseconds.
 */
async function overviewMarks(index: RolloutIndex): Promise<LineMark[]> {
  // A copy: chunks still arriving must not shift what the later slices read.
  const rollouts = index.all.slice();
  const marks: LineMark[] = [];
  let lastLine = -1;
  for (let start = 0; start < rollouts.length; start += OVERVIEW_SLICE) {
    // Before the first slice too: the paint that asked has just done the visible lines' work.
    await new Promise((resolve) => setImmediate(resolve));
    const end = Math.min(start + OVERVIEW_SLICE, rollouts.length);
    for (let i = start; i < end; i++) {
      const rollout = rollouts[i] as RolloutSummary;
      if (rollout.line - 1 === lastLine) continue;
      lastLine = rollout.line - 1;
      const onLine = index.onLine(rollout.line);
      marks.push({ line: lastLine, kind: onLine.length === 1 ? markKind(rollout) : lineMarkKind(onLine) });
    }
  }
  return marks;
}

function lineMark(index: RolloutIndex, line: number, template: string): LineMark | undefined {
  const rollouts = index.onLine(line + 1);
  const only = rollouts[0];
  if (!only) return undefined;
  if (rollouts.length === 1) return { line, kind: markKind(only), text: fillSummary(template, only) };
  return { line, kind: lineMarkKind(rollouts), text: groupLineSummary(rollouts) };
}

function lowStepRanges(index: RolloutIndex, document: vscode.TextDocument, line: number): vscode.Range[] {
  const steps = index.lowStepsOnLine(line + 1);
  if (steps.length === 0) return [];
  const length = document.lineAt(line).text.length;
  return steps
    .filter((s) => s.start < length)
    .map((s) => new vscode.Range(line, s.start, line, Math.min(s.end, length)));
}
