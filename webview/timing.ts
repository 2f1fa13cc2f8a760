/**
 * Moments of a panel's first paint and of each answer, marked on the page's performance timeline
 * (`prof-lens …` marks), where the timings end-to-end test reads them beside the browser's own
 * figures for the page and its script. Marking costs next to nothing, so it is always on; the
 * timeline keeps the last marks only, so a long session does not grow it without end.
 */

/** Marks kept before the timeline is cleared. */
const MAX_MARKS = 1_000;
let marks = 0;

/** Marks `name` now. */
export function mark(name: string): void {
  if (++marks > MAX_MARKS) {
    performance.clearMarks();
    marks = 1;
  }
  performance.mark(`prof-lens ${name}`);
}

/** Marks `name` once the browser has painted what the page holds now (after the next frame). */
export function markPainted(name: string): void {
  requestAnimationFrame(() => setTimeout(() => mark(name), 0));
}
