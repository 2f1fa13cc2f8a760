/**
 * A scorer that answers from the score cache and sends only the misses to the scorer it wraps.
 * Only `scored` results are stored: an `unscored` verdict may come from a passing condition (a
 * server limit, a worker failure) and should be asked again next time.
 */
import type { StepScoring } from '../../../core/model';
import type { EndpointStatus } from '../../../protocol/endpoints';
import type { ScoreItem, ScoreOptions, Scorer, ScorerInfo } from '../scorer';
import type { ScoreCache, ScoreCacheKey } from './scoreCache';

/** Running totals of a cached scorer. */
export interface CacheStats {
  hits: number;
  misses: number;
}

/** A scorer in front of a cache; `stats` tells how many results came from it. */
export interface CachedScorer extends Scorer {
  /** Totals since creation. */
  readonly stats: Readonly<CacheStats>;
  /** Totals of the most recent `score()` call. */
  readonly lastStats: Readonly<CacheStats>;
  /** The last failure to read or write the cache; scoring goes on without it. */
  readonly lastCacheError: Error | undefined;
  /** The items the cache cannot answer: what scoring them would send to the model. */
  misses(items: readonly ScoreItem[]): Promise<ScoreItem[]>;
  /**
   * What went wrong with the cache (damaged entries ignored, a cache that could not be read or
   * written), once: null on later calls and when nothing did.
   */
  takeCacheNotice(): string | null;
}

/**
 * Wrap `inner` with `cache`. `modelIdentity` must change whenever the model's scores could
 * (see `modelDirIdentity`, `servedModelIdentity`).
 */
export function cachedScorer(inner: Scorer, cache: ScoreCache, modelIdentity: string): CachedScorer {
  return new CachingScorer(inner, cache, modelIdentity);
}

class CachingScorer implements CachedScorer {
  readonly stats: CacheStats = { hits: 0, misses: 0 };
  lastStats: CacheStats = { hits: 0, misses: 0 };
  lastCacheError: Error | undefined;

  constructor(
    private readonly inner: Scorer,
    private readonly cache: ScoreCache,
    readonly modelIdentity: string,
  ) {}

  get info(): ScorerInfo {
    return this.inner.info;
  }

  async score(items: readonly ScoreItem[], options: ScoreOptions = {}): Promise<StepScoring[]> {
    const results = await Promise.all(items.map((item) => this.tolerate(this.cache.get(this.keyOf(item)))));
    const missIndexes = results.flatMap((result, index) => (result === undefined ? [index] : []));
    const hits = items.length - missIndexes.length;
    this.lastStats = { hits, misses: missIndexes.length };
    this.stats.hits += hits;
    this.stats.misses += missIndexes.length;
    let reported = 0;
    const report = (done: number): void => {
      reported = done;
      options.onProgress?.(done, items.length);
    };
    if (hits > 0) report(hits);
    if (missIndexes.length > 0) {
      const misses = missIndexes.map((index) => items[index] as ScoreItem);
      const scored = await this.inner.score(misses, {
        ...(options.signal ? { signal: options.signal } : {}),
        onProgress: (done) => report(hits + done),
      });
      // Not every scorer reports progress; the caller still learns that the batch is done.
      if (reported < items.length) report(items.length);
      missIndexes.forEach((index, k) => (results[index] = scored[k]));
      await this.remember(misses, scored);
    }
    return results as StepScoring[];
  }

  dispose(): Promise<void> {
    return this.inner.dispose();
  }

  async misses(items: readonly ScoreItem[]): Promise<ScoreItem[]> {
    const found = await Promise.all(items.map((item) => this.tolerate(this.cache.get(this.keyOf(item)))));
    return items.filter((_, i) => found[i] === undefined);
  }

  private isNoticeTaken = false;

  takeCacheNotice(): string | null {
    if (this.isNoticeTaken) return null;
    const parts: string[] = [];
    if (this.cache.skippedLines > 0) parts.push(`${this.cache.skippedLines} damaged entr${this.cache.skippedLines === 1 ? 'y' : 'ies'} of ${this.cache.file} ignored (scored again)`);
    if (this.lastCacheError) parts.push(`the score cache could not be used: ${this.lastCacheError.message}`);
    if (parts.length === 0) return null;
    this.isNoticeTaken = true;
    return parts.join('; ');
  }

  endpointStatus(): EndpointStatus[] {
    return this.inner.endpointStatus?.() ?? [];
  }

  private async remember(items: readonly ScoreItem[], results: readonly StepScoring[]): Promise<void> {
    items.forEach((item, k) => {
      const result = results[k];
      if (result?.kind === 'scored') this.cache.set(this.keyOf(item), result);
    });
    await this.tolerate(this.cache.flush());
  }

  private keyOf(item: ScoreItem): ScoreCacheKey {
    const { profile, kind } = this.inner.info;
    return { model: this.modelIdentity, profile: profile ?? kind, prompt: item.prompt, steps: item.steps };
  }

  /** A cache that cannot be read or written (full disk, read-only home) must not stop a scoring run. */
  private tolerate<T>(promise: Promise<T>): Promise<T | undefined> {
    return promise.catch((error: unknown) => {
      this.lastCacheError = error instanceof Error ? error : new Error(String(error));
      return undefined;
    });
  }
}
