/**
 * A small seeded generator for the POS variant's random removals: the same seed and group give
 * the same draw on every machine and in every run, so a filtered file can be reproduced.
 */

/** 32-bit FNV-1a hash of a string. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a fast generator with a 32-bit state, uniform enough for sampling a few items. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Draw k items without replacement. The draw depends only on the items' ids and the seed key. */
export function seededSample<T extends { id: number }>(items: readonly T[], k: number, seedKey: string): T[] {
  const pool = [...items].sort((a, b) => a.id - b.id);
  const next = mulberry32(hashString(seedKey));
  const count = Math.max(0, Math.min(k, pool.length));
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(next() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j] as T, pool[i] as T];
  }
  return pool.slice(0, count);
}
