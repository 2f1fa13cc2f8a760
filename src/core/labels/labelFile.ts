/**
 * Reading a labels file, as untrusted input: the sidecar (labelStore.ts) or a ProcessBench-shaped
 * file (`problem`, `steps`, `label` = first wrong step or −1; a JSON array or JSONL), matched to
 * rollouts by content. Nothing in it can stop the reading: a malformed entry is named (its index
 * or line, and what was expected) and left out; a file that is neither kind says so.
 */
import type { SourceRecord } from '../model';
import { readText } from '../read/reader';
import { withoutBom } from '../read/jsonLines';
import { quoteValue } from '../profSettings';
import { recordLocation } from '../presentation/locationWords';
import { isContentKey, rolloutKey, stepKey } from './contentKey';
import { LABELS_FORMAT, LABELS_VERSION, type LabelStore, type RolloutLabel } from './labelStore';
import { isRecord } from '../isRecord';

/** What a labels file held. */
export interface LabelsRead {
  kind: 'sidecar' | 'processbench' | 'unknown';
  store: LabelStore;
  /** One sentence per entry left out (or for the whole file), naming where and what was expected. */
  problems: string[];
}

type Json = Record<string, unknown>;

/** Read the text of a labels file named `fileName`. */
export function readLabels(text: string, fileName: string): LabelsRead {
  const body = withoutBom(text);
  if (/^\s*\{/.test(body)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      parsed = undefined;
    }
    if (isRecord(parsed) && 'format' in parsed) return readSidecar(parsed, fileName);
  }
  const read = readText(body, fileName);
  return readProcessBench(read.records, read.diagnostics.map((d) => d.message), fileName);
}

function readSidecar(value: Json, fileName: string): LabelsRead {
  const problems: string[] = [];
  const labels = new Map<string, RolloutLabel>();
  const unusable = (why: string): LabelsRead => ({ kind: 'sidecar', store: { labels }, problems: [`${fileName}: ${why}; no label was read from it`] });
  if (value.format !== LABELS_FORMAT) return unusable(`"format" is ${quoteValue(value.format)}, expected "${LABELS_FORMAT}"`);
  if (value.version !== LABELS_VERSION) return unusable(`version ${quoteValue(value.version)} is not one this PROF Lens reads (it reads ${LABELS_VERSION})`);
  if (!Array.isArray(value.labels)) return unusable('"labels" is not an array');
  value.labels.forEach((entry: unknown, i: number) => {
    const label = sidecarEntry(entry);
    if (typeof label === 'string') problems.push(`${fileName}: label ${i}: ${label}; left out`);
    else labels.set(label.key, label);
  });
  return { kind: 'sidecar', store: { labels }, problems };
}

/** A sidecar entry, or what is wrong with it. */
function sidecarEntry(entry: unknown): RolloutLabel | string {
  if (!isRecord(entry)) return 'expected an object';
  const { key, firstWrongStep, steps } = entry;
  if (!isContentKey(key)) return `"key" ${quoteValue(key)} is not a content key (c1: and 16 hex digits)`;
  if (typeof steps !== 'number' || !Number.isInteger(steps) || steps < 0) return `"steps" must be a whole number ≥ 0, got ${quoteValue(steps)}`;
  if (typeof firstWrongStep !== 'number' || !Number.isInteger(firstWrongStep) || firstWrongStep < -1 || firstWrongStep >= Math.max(steps, 1)) {
    return `"firstWrongStep" must be −1 (sound) or a step index below ${steps}, got ${quoteValue(firstWrongStep)}`;
  }
  const wrongKey = entry.stepKey ?? null;
  if (firstWrongStep >= 0 ? !isContentKey(wrongKey) : wrongKey !== null) return `"stepKey" ${quoteValue(wrongKey)} does not fit firstWrongStep ${firstWrongStep}`;
  const at = typeof entry.at === 'string' ? entry.at.slice(0, 40) : undefined;
  return { key, firstWrongStep, steps, stepKey: wrongKey as string | null, ...(at ? { at } : {}) };
}

function readProcessBench(records: readonly SourceRecord[], readProblems: readonly string[], fileName: string): LabelsRead {
  const problems = readProblems.map((p) => `${fileName}: ${p}`);
  const labels = new Map<string, RolloutLabel>();
  const where = new Map<string, string>();
  for (const record of records) {
    const at = recordLocation(record);
    const label = processBenchEntry(record.value as Json);
    if (typeof label === 'string') {
      problems.push(`${fileName}: ${at}: ${label}; left out`);
      continue;
    }
    const earlier = labels.get(label.key);
    if (earlier && earlier.firstWrongStep !== label.firstWrongStep) problems.push(`${fileName}: ${at}: the same rollout as ${where.get(label.key)} with another label; this one is used`);
    labels.set(label.key, label);
    where.set(label.key, at);
  }
  if (labels.size === 0 && records.length === 0) {
    return { kind: 'unknown', store: { labels }, problems: [...problems, `${fileName}: not a labels file: expected a PROF Lens labels file ("format": "${LABELS_FORMAT}") or ProcessBench-shaped items (problem, steps, label)`] };
  }
  return { kind: labels.size > 0 ? 'processbench' : 'unknown', store: { labels }, problems };
}

/** A ProcessBench item's label, or what is wrong with it. */
function processBenchEntry(v: Json): RolloutLabel | string {
  if (typeof v.problem !== 'string') return 'expected "problem" (the question, a string)';
  const steps = v.steps;
  if (!Array.isArray(steps) || !steps.every((s) => typeof s === 'string')) return 'expected "steps" (an array of strings)';
  const label = v.label;
  if (typeof label !== 'number' || !Number.isInteger(label) || label < -1 || label >= steps.length) {
    return `"label" must be −1 (no error) or the index of a step (below ${steps.length}), got ${quoteValue(label)}`;
  }
  const texts = steps as string[];
  return {
    key: rolloutKey(v.problem, texts.join('\n\n')),
    firstWrongStep: label,
    steps: texts.length,
    stepKey: label >= 0 ? stepKey(texts[label] as string) : null,
  };
}
