/**
 * Lazy access to the computer algebra system. Importing and constructing the engine costs about
 * half a second, so it happens once, and only when an answer must be graded or a claim checked.
 */
import type { ComputeEngine } from '@cortex-js/compute-engine';

let pending: Promise<ComputeEngine> | null = null;
let loaded: ComputeEngine | null = null;

/** Load (once) and return the shared engine. */
export function loadCas(): Promise<ComputeEngine> {
  pending ??= import('@cortex-js/compute-engine').then((m) => {
    loaded = new m.ComputeEngine();
    return loaded;
  });
  return pending;
}

/** The engine if it has been loaded already, else null (for callers that must stay synchronous). */
export function casIfLoaded(): ComputeEngine | null {
  return loaded;
}
