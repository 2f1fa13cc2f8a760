/**
 * Labels on disk: reading a labels file (the sidecar or a ProcessBench-shaped file), writing a
 * dump's sidecar and a ProcessBench export, atomically. The dump itself is never written.
 */
import { readFile, stat } from 'node:fs/promises';
import { readLabels, type LabelsRead } from '../../core/labels/labelFile';
import { serialiseLabels, sidecarPath, type LabelStore } from '../../core/labels/labelStore';
import type { ProcessBenchItem } from '../../core/labels/labelMatch';
import { emptyLabelStore } from '../../core/labels/labelStore';
import { writeFileAtomic } from '../output/outputFiles';

/** Larger labels files are refused with a message rather than read. */
export const MAX_LABELS_BYTES = 256 * 1024 * 1024;

/** Reads a labels file; a missing, oversized or unreadable one is one problem, with no labels. */
export async function readLabelsFile(path: string): Promise<LabelsRead> {
  const size = (await stat(path)).size;
  if (size > MAX_LABELS_BYTES) {
    return { kind: 'unknown', store: emptyLabelStore(), problems: [`${path} is ${Math.round(size / 1048576)} MB; a labels file above ${MAX_LABELS_BYTES / 1048576} MB is not read`] };
  }
  return readLabels(await readFile(path, 'utf8'), path);
}

/** Writes the dump's sidecar (`<dump>.prof-labels.json`); returns its path. */
export async function writeLabelsSidecar(dumpPath: string, store: LabelStore): Promise<string> {
  const path = sidecarPath(dumpPath);
  await writeFileAtomic(path, serialiseLabels(store));
  return path;
}

/** Writes ProcessBench-shaped items as one JSON array. */
export async function writeProcessBenchExport(path: string, items: readonly ProcessBenchItem[]): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(items, null, 1)}\n`);
}
