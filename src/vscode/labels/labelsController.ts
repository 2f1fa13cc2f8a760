/**
 * The user's labels of each analysed dump, in the editor: the sidecar beside the dump
 * (`<dump>.prof-labels.json`, never the dump itself) read when the dump is analysed and again
 * whenever it changes on disk, the labels matched to the rollouts by content (the keys are made in
 * the analysis worker, so the host never holds the texts), and the labelling itself, written
 * atomically one change at a time.
 */
import * as vscode from 'vscode';
import { basename, dirname } from 'node:path';
import { matchKeyedLabel, type LabelMatch } from '../../core/labels/labelMatch';
import {
  sidecarPath,
  withKeyedLabel,
  withoutKey,
  type LabelStore,
} from '../../core/labels/labelStore';
import type { RolloutKeys } from '../../protocol/analysis';
import type { AnalysisClient } from '../../scoring/analysis/analysisClient';
import { readLabelsFile, writeLabelsSidecar } from '../../scoring/labels/labelFiles';
import { checkOutputs } from '../../scoring/output/outputFiles';
import type { AnalysisStore, DocumentAnalysis } from '../analysisStore';
import { sidecarState, type SidecarState } from './sidecarState';

/** What the labels need from the rest of the extension. */
export interface LabelsDeps {
  store: Pick<AnalysisStore, 'get' | 'onDidUpdate'>;
  client: Pick<AnalysisClient, 'labelKeys'>;
}

/** One dump's labels as the editor holds them. */
interface DumpLabels {
  sidecar: SidecarState;
  /** The analysis the keys belong to; a new analysis gets new keys. */
  keysOf: DocumentAnalysis | null;
  keys: Map<number, string>;
  /** Whether `keys` holds every rollout's key (not only those asked for by id). */
  hasAllKeys: boolean;
  stepKeys: Map<number, readonly string[]>;
  matches: Map<number, LabelMatch>;
  watcher: vscode.FileSystemWatcher;
  /** Reads and writes of this dump's sidecar, one after another. */
  queue: Promise<unknown>;
}

/** A labelling the user asked for: a rollout's first wrong step (0-based), sound (−1), or no label (null). */
export type LabelChange = number | null;

/** Holds every analysed dump's labels; fires when a dump's labels (or their matches) change. */
export class LabelsController implements vscode.Disposable {
  private readonly dumps = new Map<string, DumpLabels>();
  private readonly changes = new vscode.EventEmitter<vscode.Uri>();
  private readonly subscription: vscode.Disposable;
  /** A dump's labels or their matches to its rollouts changed. */
  readonly onDidChange = this.changes.event;

  constructor(private readonly deps: LabelsDeps) {
    this.subscription = deps.store.onDidUpdate((update) => {
      if (!update.isFinal) return;
      const analysis = deps.store.get(update.uri);
      if (!analysis) this.drop(update.uri);
      else if (update.uri.scheme === 'file' && analysis.summary) void this.refresh(update.uri);
    });
  }

  /** The label matched to a rollout, if any. */
  matchOf(uri: vscode.Uri, rolloutId: number): LabelMatch | undefined {
    return this.dumps.get(uri.toString())?.matches.get(rolloutId);
  }

  /** Every match of a dump (rollout id → match). */
  matchesOf(uri: vscode.Uri): ReadonlyMap<number, LabelMatch> {
    return this.dumps.get(uri.toString())?.matches ?? new Map();
  }

  /** The sidecar as last read (its labels and what was wrong with it). */
  sidecarOf(uri: vscode.Uri): SidecarState | undefined {
    return this.dumps.get(uri.toString())?.sidecar;
  }

  /**
   * Labels a rollout (or removes its label) and writes the sidecar; resolves with the sidecar's
   * path. Throws with a message for the user when it cannot.
   */
  async change(uri: vscode.Uri, rolloutId: number, change: LabelChange): Promise<string> {
    if (uri.scheme !== 'file') throw new Error('save the file first: labels are kept in a file beside it');
    const analysis = this.deps.store.get(uri);
    if (!analysis?.summary) throw new Error(`${basename(uri.fsPath)} has not been analysed yet`);
    const dump = this.dump(uri);
    const work = dump.queue.then(async () => {
      // Read again first: what changed on disk since is kept, and a file that cannot be written back safely is not.
      dump.sidecar = await readSidecar(uri.fsPath);
      if (!dump.sidecar.isWritable) throw new Error(dump.sidecar.whyNotWritable);
      const keys = await this.keysFor(uri, analysis, dump, [rolloutId]);
      const key = keys.get(rolloutId);
      if (key === undefined) throw new Error('that rollout is no longer in the file');
      let next: LabelStore;
      if (change === null) next = withoutKey(dump.sidecar.store, key);
      else next = withKeyedLabel(dump.sidecar.store, { key, stepKeys: dump.stepKeys.get(rolloutId) ?? [] }, change, new Date().toISOString());
      await checkOutputs([{ label: 'the rollout file', path: uri.fsPath }], [{ label: 'the labels file', path: sidecarPath(uri.fsPath) }]);
      const path = await writeLabelsSidecar(uri.fsPath, next);
      dump.sidecar = { ...dump.sidecar, store: next, exists: true };
      await this.rematch(uri, analysis, dump);
      return path;
    });
    dump.queue = work.catch(() => undefined);
    return work;
  }

  dispose(): void {
    this.subscription.dispose();
    for (const dump of this.dumps.values()) dump.watcher.dispose();
    this.dumps.clear();
    this.changes.dispose();
  }

  /** Reads the sidecar again and matches it to the latest analysis. */
  private async refresh(uri: vscode.Uri): Promise<void> {
    const dump = this.dump(uri);
    const work = dump.queue.then(async () => {
      const analysis = this.deps.store.get(uri);
      if (!analysis?.summary) return;
      dump.sidecar = await readSidecar(uri.fsPath);
      await this.rematch(uri, analysis, dump);
    });
    dump.queue = work.catch(() => undefined);
    await dump.queue;
  }

  private async rematch(uri: vscode.Uri, analysis: DocumentAnalysis, dump: DumpLabels): Promise<void> {
    const labels = dump.sidecar.store.labels;
    const hadMatches = dump.matches.size > 0;
    if (labels.size === 0 && dump.keysOf !== analysis) {
      // Nothing to match: no keys are asked for until there is a label.
      dump.matches = new Map();
      if (hadMatches || dump.sidecar.problems.length > 0 || dump.sidecar.exists) this.changes.fire(uri);
      return;
    }
    const keys = await this.keysFor(uri, analysis, dump, null);
    const labelled = [...keys].filter(([, key]) => labels.has(key)).map(([id]) => id);
    const wrongStep = labelled.filter((id) => (labels.get(keys.get(id) as string)?.firstWrongStep ?? -1) >= 0);
    await this.keysFor(uri, analysis, dump, wrongStep);
    const matches = new Map<number, LabelMatch>();
    for (const id of labelled) {
      matches.set(id, matchKeyedLabel(dump.sidecar.store, { key: keys.get(id) as string, stepKeys: dump.stepKeys.get(id) ?? [] }));
    }
    dump.matches = matches;
    this.changes.fire(uri);
  }

  /** The rollouts' keys (`ids` null: all of them; else those ids, with their step keys), asked of the worker once per analysis. */
  private async keysFor(uri: vscode.Uri, analysis: DocumentAnalysis, dump: DumpLabels, ids: number[] | null): Promise<Map<number, string>> {
    if (dump.keysOf !== analysis) {
      dump.keysOf = analysis;
      dump.keys = new Map();
      dump.hasAllKeys = false;
      dump.stepKeys = new Map();
    }
    const missing = ids === null ? (dump.hasAllKeys ? [] : null) : ids.filter((id) => !dump.stepKeys.has(id));
    if (missing !== null && missing.length === 0) return dump.keys;
    const received: RolloutKeys[] = await this.deps.client.labelKeys(uri.toString(), missing);
    if (missing === null) dump.hasAllKeys = true;
    for (const entry of received) {
      dump.keys.set(entry.id, entry.key);
      if (entry.stepKeys) dump.stepKeys.set(entry.id, entry.stepKeys);
    }
    return dump.keys;
  }

  private dump(uri: vscode.Uri): DumpLabels {
    const id = uri.toString();
    let dump = this.dumps.get(id);
    if (dump) return dump;
    const path = sidecarPath(uri.fsPath);
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(dirname(path)), basename(path)));
    const reread = (): void => void this.refresh(uri);
    watcher.onDidChange(reread);
    watcher.onDidCreate(reread);
    watcher.onDidDelete(reread);
    dump = { sidecar: sidecarState(null, path), keysOf: null, keys: new Map(), hasAllKeys: false, stepKeys: new Map(), matches: new Map(), watcher, queue: Promise.resolve() };
    this.dumps.set(id, dump);
    return dump;
  }

  private drop(uri: vscode.Uri): void {
    const dump = this.dumps.get(uri.toString());
    if (!dump) return;
    dump.watcher.dispose();
    this.dumps.delete(uri.toString());
    this.changes.fire(uri);
  }
}

/** The dump's sidecar as it is on disk now (a missing one is an empty, writable store). */
async function readSidecar(dumpPath: string): Promise<SidecarState> {
  const path = sidecarPath(dumpPath);
  try {
    return sidecarState(await readLabelsFile(path), path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return sidecarState(null, path);
    const message = error instanceof Error ? error.message : String(error);
    return { ...sidecarState(null, path), exists: true, problems: [`${path}: ${message}`], isWritable: false, whyNotWritable: `${basename(path)} cannot be read (${message}); it is left as it is` };
  }
}
