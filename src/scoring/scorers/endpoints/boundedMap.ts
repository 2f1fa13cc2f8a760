/** Bounded-concurrency mapping with cancellation, for scorers that make one request per item. */

/** Work for `mapBounded`. */
export interface BoundedJob<T, R> {
  items: readonly T[];
  limit: number;
  worker: (item: T, signal: AbortSignal) => Promise<R>;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

/**
 * Run `worker` over `items` with at most `limit` in flight, results in input order. The first
 * failure (or the caller's abort) stops new work and cancels the requests still running.
 */
export async function mapBounded<T, R>(job: BoundedJob<T, R>): Promise<R[]> {
  const { items, limit, worker, onProgress } = job;
  const stop = new AbortController();
  const signal = job.signal ? AbortSignal.any([job.signal, stop.signal]) : stop.signal;
  const results = new Array<R>(items.length);
  let next = 0;
  let done = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      signal.throwIfAborted();
      const index = next++;
      results[index] = await worker(items[index] as T, signal);
      onProgress?.(++done, items.length);
    }
  };
  let firstFailure: { error: unknown } | undefined;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, () =>
    lane().catch((error: unknown) => {
      firstFailure ??= { error };
      stop.abort(error);
    }),
  );
  await Promise.all(lanes);
  job.signal?.throwIfAborted();
  if (firstFailure) throw firstFailure.error;
  return results;
}
