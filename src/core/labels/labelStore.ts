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

/**
 * The store with `target` labelled: `firstWrongStep` 0-based, or −1 for sound. Throws (a caller's
 * mistake, not the user's) when the step is not one of the rollout's.
 */
export function withLabel(store: LabelStore, target: LabelTarget, firstWrongStep: number, at?: string): LabelStore {
  if (!Number.isInteger(firstWrongStep) || firstWrongStep < -1 || firstWrongStep >= target.steps.length) {
    throw new RangeError(`step ${firstWrongStep} is not a step of a rollout with ${target.steps.length}`);
  }
  const key = rolloutKey(target.prompt, target.response);
  const wrong = firstWrongStep >= 0 ? (target.steps[firstWrongStep] as string) : null;
  const label: RolloutLabel = { key, firstWrongStep, steps: target.steps.length, stepKey: wrong === null ? null : stepKey(wrong), ...(at ? { at } : {}) };
  const labels = new Map(store.labels);
  labels.set(key, label);
  return { labels };
}

/** The store without `target`'s label. */
export function withoutLabel(store: LabelStore, target: Pick<LabelTarget, 'prompt' | 'response'>): LabelStore {
  const key = rolloutKey(target.prompt, target.response);
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
