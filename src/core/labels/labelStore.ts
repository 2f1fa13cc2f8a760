/**
 * The user's own labels: per rollout, its first wrong step or "sound". They live in a sidecar file
 * beside the dump (`<dump>.prof-labels.json`), never in the dump, keyed by content (see
 * contentKey). Pure: building, changing and writing the store; reading it back (as untrusted input)
 * is in labelFile.ts.
 *
 * Sidecar, version 1:
 *   {"format": "prof-lens-labels", "version": 1,
 *    "labels": [{"key": "c1:…", "firstWrongStep": 2, "steps": 5, "stepKey": "c1:…", "at": "2025-…"}]}
 * `firstWrongStep` is 0-based, −1 for a sound rollout; `steps` is H when it was labelled; `stepKey`
 * is the key of the wrong step's text (null when sound), so a label still finds its step after the
 * response is split differently, and says so when it cannot.
 */
import { rolloutKey, stepKey } from './contentKey';

export const LABELS_FORMAT = 'prof-lens-labels';
export const LABELS_VERSION = 1;
/** What the sidecar's name adds to the dump's. */
export const SIDECAR_SUFFIX = '.prof-labels.json';

/** One rollout's label. */
export interface RolloutLabel {
  key: string;
  /** 0-based first wrong step; −1: the rollout is sound. */
  firstWrongStep: number;
  /** The number of steps the rollout had when labelled. */
  steps: number;
  /** Key of the wrong step's text; null for a sound rollout. */
  stepKey: string | null;
  /** When it was labelled (ISO 8601), if known. */
  at?: string;
}

/** Every label of one dump, by rollout key. */
export interface LabelStore {
  labels: ReadonlyMap<string, RolloutLabel>;
}

/** What a label is given to: a rollout's prompt, response and step texts. */
export interface LabelTarget {
  prompt: string;
  response: string;
  steps: readonly string[];
}

/** The sidecar's path for a dump's path. */
export function sidecarPath(dumpPath: string): string {
  return dumpPath + SIDECAR_SUFFIX;
}

/** A store with no labels. */
export function emptyLabelStore(): LabelStore {
  return { labels: new Map() };
}

/** A rollout's content keys: its own and each step's (what a label is made from and matched by). */
export interface RolloutContentKeys {
  key: string;
  stepKeys: readonly string[];
}

/** The content keys of a rollout's texts. */
export function contentKeysOf(target: LabelTarget): RolloutContentKeys {
  return { key: rolloutKey(target.prompt, target.response), stepKeys: target.steps.map((s) => stepKey(s)) };
}

/**
 * The store with `target` labelled: `firstWrongStep` 0-based, or −1 for sound. Throws (a caller's
 * mistake, not the user's) when the step is not one of the rollout's.
 */
export function withLabel(store: LabelStore, target: LabelTarget, firstWrongStep: number, at?: string): LabelStore {
  return withKeyedLabel(store, contentKeysOf(target), firstWrongStep, at);
}

/** `withLabel` for a rollout known by its content keys (the editor holds keys, not texts). */
export function withKeyedLabel(store: LabelStore, keys: RolloutContentKeys, firstWrongStep: number, at?: string): LabelStore {
  const steps = keys.stepKeys.length;
  if (!Number.isInteger(firstWrongStep) || firstWrongStep < -1 || firstWrongStep >= steps) {
    throw new RangeError(`step ${firstWrongStep} is not a step of a rollout with ${steps}`);
  }
  const wrong = firstWrongStep >= 0 ? (keys.stepKeys[firstWrongStep] as string) : null;
  const label: RolloutLabel = { key: keys.key, firstWrongStep, steps, stepKey: wrong, ...(at ? { at } : {}) };
  const labels = new Map(store.labels);
  labels.set(keys.key, label);
  return { labels };
}

/** The store without `target`'s label. */
export function withoutLabel(store: LabelStore, target: Pick<LabelTarget, 'prompt' | 'response'>): LabelStore {
  return withoutKey(store, rolloutKey(target.prompt, target.response));
}

/** The store without the label of the rollout with content key `key`. */
export function withoutKey(store: LabelStore, key: string): LabelStore {
  if (!store.labels.has(key)) return store;
  const labels = new Map(store.labels);
  labels.delete(key);
  return { labels };
}

/** The sidecar's text: labels sorted by key, so the file diffs well under version control. */
export function serialiseLabels(store: LabelStore): string {
  const labels = [...store.labels.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return `${JSON.stringify({ format: LABELS_FORMAT, version: LABELS_VERSION, labels }, null, 1)}\n`;
}
