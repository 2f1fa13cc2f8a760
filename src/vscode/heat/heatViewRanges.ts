/**
 * Where a rollout's tint runs fall in the Rollout View. The view writes each step's text trimmed,
 * from column 0 of its first line (`rolloutViewRender.ts`), so an offset of the response inside a
 * step is a line and column counted from there. A run is cut at step ends (the text between steps
 * is not shown). Pure: no `vscode` import; one pass over each step's text.
 */
import { splitTextLines } from '../../core/read/lineBreaks';
import { trimSpan } from '../../core/transcript/textSpan';

/** A tinted range of the view: 0-based lines and columns, end exclusive. */
export interface ViewRange {
  startLine: number;
  startCharacter: number;
  endLine: number;
  endCharacter: number;
  bucket: number;
}

/** A step as the view shows it: its span of the response and the line its text starts on. */
export interface ViewStep {
  start: number;
  end: number;
  /** The step's text (the response's characters [start, end)). */
  text: string;
  /** 0-based line of the view its trimmed text starts on; lines up to `endLine` (exclusive). */
  startLine: number;
  endLine: number;
}

/** Line and column of `offset` (into `text`, from `base`) by the offsets where its lines start. */
function position(lineStarts: readonly number[], offset: number): { line: number; character: number } {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((lineStarts[mid] as number) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo, character: offset - (lineStarts[lo] as number) };
}

/** The offsets (in `text`) where each of its lines starts, split as the view splits them. */
function lineStartsOf(text: string): number[] {
  const starts: number[] = [];
  let at = 0;
  for (const line of splitTextLines(text)) {
    starts.push(at);
    at += line.length;
    // Skip the break itself: \r\n, \n or \r.
    if (text.charCodeAt(at) === 13 && text.charCodeAt(at + 1) === 10) at += 2;
    else if (at < text.length) at += 1;
  }
  return starts;
}

/** The view ranges of `runs` (`[start, end, bucket]` triples in the response) over these steps. */
export function viewRangesOf(runs: readonly number[], steps: readonly ViewStep[]): ViewRange[] {
  const ranges: ViewRange[] = [];
  let r = 0;
  for (const step of steps) {
    const shown = trimSpan(step.text, 0, step.text.length);
    const from = step.start + shown.start;
    const to = step.start + shown.end;
    const lineStarts = lineStartsOf(step.text.slice(shown.start, shown.end));
    // Runs before this step are behind; a run may span several steps, so `r` stays on it.
    while (r < runs.length && (runs[r + 1] as number) <= from) r += 3;
    for (let k = r; k < runs.length && (runs[k] as number) < to; k += 3) {
      const start = Math.max(runs[k] as number, from) - from;
      const end = Math.min(runs[k + 1] as number, to) - from;
      if (end <= start) continue;
      const a = position(lineStarts, start);
      const b = position(lineStarts, end);
      if (step.startLine + b.line >= step.endLine) continue;
      ranges.push({ startLine: step.startLine + a.line, startCharacter: a.character, endLine: step.startLine + b.line, endCharacter: b.character, bucket: runs[k + 2] as number });
    }
  }
  return ranges;
}
