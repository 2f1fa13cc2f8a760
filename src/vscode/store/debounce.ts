/** Debounce: one pending timer per document, so typing does not start one analysis per keystroke. */

export class DocumentTimers {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();

  /** Runs `run` after `delayMs`, replacing what was pending for the document. */
  schedule(key: string, delayMs: number, run: () => void): void {
    this.clear(key);
    this.timers.set(key, setTimeout(() => {
      this.timers.delete(key);
      run();
    }, delayMs));
  }

  clear(key: string): void {
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
