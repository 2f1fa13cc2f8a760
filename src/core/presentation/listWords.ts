/**
 * Lists in a note or an evidence line: the first few items, then how many more there were, so one
 * step with 49 false claims makes one readable line.
 */

/** Items shown before the rest are counted. */
export const LISTED_ITEMS = 3;

/** `a; b; c … and 46 more` (the separator and how many are listed are the caller's). */
export function cappedList(items: readonly string[], max = LISTED_ITEMS, separator = '; '): string {
  const shown = items.slice(0, max).join(separator);
  return items.length > max ? `${shown} … and ${items.length - max} more` : shown;
}
