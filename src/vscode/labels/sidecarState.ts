/**
 * A dump's sidecar as the editor last read it, and whether labelling may write it back. A sidecar
 * is rewritten whole, so one with anything PROF Lens could not read (another format, a newer
 * version, an entry left out) is never written: the user's file would lose what was not read.
 * Pure (no `vscode` import).
 */
import type { LabelsRead } from '../../core/labels/labelFile';
import { emptyLabelStore, type LabelStore } from '../../core/labels/labelStore';
import { basename } from 'node:path';

export interface SidecarState {
  path: string;
  store: LabelStore;
  exists: boolean;
  /** What was wrong with the file, one sentence each. */
  problems: string[];
  isWritable: boolean;
  /** Why labelling does not write it, for the user; empty when it does. */
  whyNotWritable: string;
}

/** The state of a sidecar read as `read` (null: there is none). */
export function sidecarState(read: LabelsRead | null, path: string): SidecarState {
  if (read === null) return { path, store: emptyLabelStore(), exists: false, problems: [], isWritable: true, whyNotWritable: '' };
  const name = basename(path);
  const isSidecar = read.kind === 'sidecar';
  const isWritable = isSidecar && read.problems.length === 0;
  const why = !isSidecar
    ? `${name} is not a PROF Lens labels file; it is left as it is (move it away to label here)`
    : read.problems.length > 0
      ? `${name} holds what PROF Lens cannot read (${read.problems[0]}); it is left as it is until that is fixed`
      : '';
  return { path, store: read.store, exists: true, problems: read.problems, isWritable, whyNotWritable: why };
}
