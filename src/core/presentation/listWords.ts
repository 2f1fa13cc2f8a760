/**
 * Lists in a note or an evidence line: the first few items, then how many more there were, so one
 * step with 49 false claims makes one readable line.
 */

/** Items shown before the rest are counted. */
export const LISTED_ITEMS = 3;

/** `a; b; c … and 46 more` (the separator and how many are listed are the caller's). */
export function cappedList(items: readonly string[], max = LISTED_ITEMS, separator = '; '): string {
  if (items.length <= max) return items.join(separator);
  return `${items.slice(0, max).join(separator)} … and ${items.length - max} more`;
}

/**
 * Problems found in one file, as a command prints them: the first few kept whole, the rest only
 * counted, so a file of 300,000 bad entries makes a few lines (and holds a few strings), not 300,000.
 */
export class ProblemList {
  private readonly kept: string[] = [];
  private more = 0;

  constructor(private readonly max = 5) {}

  push(problem: string): void {
    if (this.kept.length < this.max) this.kept.push(problem);
    else this.more++;
  }

  /** Every problem pushed, the counted ones included. */
  get count(): number {
    return this.kept.length + this.more;
  }

  /** The kept problems, then one line (`tail` words it) counting the rest, when there are more. */
  lines(tail: (more: number) => string): string[] {
    return this.more > 0 ? [...this.kept, tail(this.more)] : [...this.kept];
  }
}
