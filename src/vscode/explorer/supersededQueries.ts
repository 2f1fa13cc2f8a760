/**
 * The explorer's searches in flight to the analysis worker: a query other than the one before it
 * cancels the search before it (which stops reading texts there; the webview would drop its answer
 * anyway), while the pages of one query, asked as it scrolls, share one signal. Only a search is
 * cancelled, and only once the file's explorer has answered once: its first query builds the
 * table, work a cancel cannot interrupt, and a cancel left unanswered too long costs the worker.
 */
export class SupersededQueries {
  private current: { key: string; controller: AbortController } | null = null;
  private hasAnswered = false;
  /** Counts resets: an answer about the explorer before the last reset says nothing of the new one. */
  private epoch = 0;

  /** What `answered` is given back when the query asked now is answered. */
  get now(): number {
    return this.epoch;
  }

  /** The signal for a page of `query` (compared as JSON: the webview sends its query object as is). */
  signalFor(query: unknown): AbortSignal | undefined {
    const key = JSON.stringify(query) ?? '';
    if (this.current?.key !== key) {
      this.current?.controller.abort();
      this.current = null;
      if (this.hasAnswered && searches(query)) this.current = { key, controller: new AbortController() };
    }
    return this.current?.controller.signal;
  }

  /** A query asked at `epoch` was answered: the explorer's table is built (if nothing was reset since). */
  answered(epoch: number): void {
    if (epoch === this.epoch) this.hasAnswered = true;
  }

  /** Another file or a new analysis of it: its explorer is built again by its first query. */
  reset(): void {
    this.cancelAll();
    this.hasAnswered = false;
    this.epoch++;
  }

  /** The panel closed: whatever is in flight is cancelled. */
  cancelAll(): void {
    this.current?.controller.abort();
    this.current = null;
  }
}

function searches(query: unknown): boolean {
  const filter = typeof query === 'object' && query !== null ? (query as { filter?: unknown }).filter : undefined;
  return typeof filter === 'object' && filter !== null && !!(filter as { search?: unknown }).search;
}
