/**
 * Labels on disk: reading a labels file (the sidecar or a ProcessBench-shaped file), writing a
 * dump's sidecar and a ProcessBench export, atomically. The dump itself is never written.
 */
import { readLabels, type LabelsRead } from '../../core/labels/labelFile';
import { serialiseLabels, sidecarPath, type LabelStore } from '../../core/labels/labelStore';
import type { ProcessBenchItem } from '../../core/labels/labelMatch';
import { emptyLabelStore } from '../../core/labels/labelStore';
import { writeFileAtomic } from '../output/outputFiles';
import { readSmallFile, SmallFileError } from '../inputs/smallFile';

/** Larger labels files are refused with a message rather than read. */
export const MAX_LABELS_BYTES = 256 * 1024 * 1024;

/**
 * Reads a labels file; an oversized one, or one that is not a regular file (a FIFO would block
 * for ever, a link to `/dev/zero` never ends), is one problem, with no labels. A missing or
 * unreadable file throws, as the file system says.
 */
export async function readLabelsFile(path: string): Promise<LabelsRead> {
  let text: string;
  try {
    text = await readSmallFile(path, MAX_LABELS_BYTES, 'a labels file');
  } catch (error) {
    if (error instanceof SmallFileError) return { kind: 'unknown', store: emptyLabelStore(), problems: [error.message] };
    throw error;
  }
  return readLabels(text, path);
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
