/**
 * Long texts that repeat from row to row, held once. A parquet file's dictionary lets every row
 * repeat one value (the same prompt for a group's generations, or a hostile 1 MB string in 6,000
 * rows); read as rows of JSON, each row decodes its own copy, and an analysis that keeps its
 * texts kept every copy (2 MB a row). The kept texts and their steps point into the first copy.
 */
import type { Step } from '../model';

/** Shorter texts are kept as they come: looking them up costs more than they weigh. */
const MIN_SHARED_CHARS = 16 * 1024;
/** Distinct long texts remembered; past this, new ones are kept as they come. */
const MAX_REMEMBERED = 4096;

export class SharedTexts {
  private readonly known = new Map<string, string>();

  /** The copy of `text` already held, else `text` (remembered when long). */
  text(text: string): string {
    if (text.length < MIN_SHARED_CHARS) return text;
    const known = this.known.get(text);
    if (known !== undefined) return known;
    if (this.known.size < MAX_REMEMBERED) this.known.set(text, text);
    return text;
  }

  /** `steps` of `original`, their texts taken from `shared` (an equal text) where they are its spans. */
  steps(steps: Step[], original: string, shared: string): Step[] {
    if (shared === original && (original.length < MIN_SHARED_CHARS || steps.length === 0)) return steps;
    return steps.map((s) => (s.end - s.start === s.text.length && original.startsWith(s.text, s.start) ? { ...s, text: shared.slice(s.start, s.end) } : s));
  }
}
