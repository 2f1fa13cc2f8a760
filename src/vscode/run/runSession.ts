/**
 * One run shown in the Run Dashboard, kept live: a RunTracker (summaries, off this thread in the
 * summary workers) fed by a file-system watcher on the run's folder, plus a slow rescan of sizes
 * and times for the events a watcher can miss (network drives, some containers).
 */
import * as vscode from 'vscode';
import { basename } from 'node:path';
import { RunTracker, type RunTrackerDeps } from '../../scoring/run/runTracker';

/** The query of a run URI that names a folder's validation dumps. */
export const VALIDATION_QUERY = 'split=validation';

/** How often the folder is compared with what is known (sizes and times only, no file is read). */
const RESCAN_MS = 10_000;

export class RunSession implements vscode.Disposable {
  readonly tracker: RunTracker;
  private readonly subscriptions: vscode.Disposable[] = [];
  private rescanTimer: ReturnType<typeof setInterval> | undefined;

  /** A run URI with the query `split=validation` is the folder's validation dumps, read as a run of their own. */
  constructor(readonly uri: vscode.Uri, deps: RunTrackerDeps) {
    this.tracker = new RunTracker(uri.fsPath, deps, uri.query === VALIDATION_QUERY ? 'validation' : 'train');
  }

  /** Reads the run and starts watching it. Rejects when the path is neither a folder nor a file. */
  async start(): Promise<void> {
    await this.tracker.start();
    const folder = vscode.Uri.file(this.tracker.folder);
    // Trainers nest step files in folders (prime-rl's step_N/train/all/): the tracker keeps only the run's own.
    const pattern = this.tracker.isOneFile ? basename(this.tracker.path) : '**/*.{jsonl,json,parquet}';
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, pattern));
    this.subscriptions.push(
      watcher,
      watcher.onDidCreate((uri) => this.tracker.changed(uri.fsPath)),
      watcher.onDidChange((uri) => this.tracker.changed(uri.fsPath)),
      watcher.onDidDelete((uri) => this.tracker.deleted(uri.fsPath)),
    );
    this.rescanTimer = setInterval(() => void this.tracker.rescan(), RESCAN_MS);
  }

  dispose(): void {
    clearInterval(this.rescanTimer);
    for (const s of this.subscriptions.splice(0)) s.dispose();
    this.tracker.dispose();
  }
}
