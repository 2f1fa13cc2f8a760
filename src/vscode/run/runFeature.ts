/**
 * Training runs in the editor: **PROF Lens: Open Training Run…** (from the palette with a folder
 * picker, from the explorer on a folder, or from an open step file), the Run Dashboard it opens,
 * its restoring after a reload, and the summary workers it uses — started when first needed,
 * one per spare core (one when a model scores, so the model is opened once), replaced when the
 * scorer settings change.
 */
import * as vscode from 'vscode';
import { availableParallelism } from 'node:os';
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { resolveSettings } from '../../core/profSettings';
import { stepOfFileName } from '../../core/run/trainingStep';
import { runFolderOfStepFile } from '../../core/run/runLayout';
import { VALIDATION_QUERY } from './runSession';
import { modelConfigKey } from '../../protocol/modelConfig';
import { modelDirIdentity } from '../../scoring/scorers/cache/identity';
import { isRunPanelState, type RunDashboardData } from '../../protocol/run';
import { codeIdentity, createSummaryCache, summaryIdentity, type SummaryCache } from '../../scoring/run/summaryCache';
import { SummaryPool } from '../../scoring/run/summaryPool';
import type { RunTrackerDeps } from '../../scoring/run/runTracker';
import type { SidebarRun } from '../sidebar/sidebarModel';
import { commandIds } from '../commandIds';
import type { ScorerPlanner } from '../scoringSettings';
import { runScoring, type RunScoring } from './runScoring';
import { needsReanalysis, readSettings } from '../settings';
import { RUN_DASHBOARD_PANEL, RunDashboard, type RunDashboardDeps } from './runDashboard';
import type { ProfSettings } from '../../core/profSettings';
import type { ScorerChoice } from '../../core/scorerChoice';
import { healthScorer } from './runHealth';
import { createPanel, restorePanels } from '../webviewPanel';

export interface RunFeatureDeps {
  extensionUri: vscode.Uri;
  /** The bundled summary worker, `dist/runWorker.js`. */
  workerPath: string;
  /** Where summaries are cached (beside the score cache). */
  cacheDir: string;
  planner: ScorerPlanner;
  /** Opens a file too large for the editor to share with extensions (read from disk by the analysis worker). */
  openLargeFile: (uri: vscode.Uri) => Promise<void>;
  /** Where a run's health audit runs, off this thread. */
  auditor: RunDashboardDeps['auditor'];
}

/**
 * A step file's run: the folder its trainer's layout puts it in (a prime-rl trace's `rollouts/`, a
 * validation dump's folder, read as its validation run), else its folder when the folder holds
 * other numbered step files, else the file alone.
 */
export async function runOfFile(file: vscode.Uri): Promise<vscode.Uri> {
  const laidOut = runFolderOfStepFile(file.fsPath);
  if (laidOut !== null) {
    const isValidation = /(^|[\\/])val_data_step\d+\.jsonl$|[\\/]eval[\\/]all[\\/]traces\.jsonl$|[\\/]eval-rollout[\\/]\d+[\\/]\d+\.jsonl$/.test(file.fsPath);
    const folder = vscode.Uri.file(laidOut);
    return isValidation ? folder.with({ query: VALIDATION_QUERY }) : folder;
  }
  const folder = dirname(file.fsPath);
  if (stepOfFileName(basename(file.fsPath)) === null) return file;
  const names = await readdir(folder).catch(() => [] as string[]);
  const steps = names.filter((n) => /\.(jsonl|json|parquet)$/i.test(n) && stepOfFileName(n) !== null);
  return steps.length > 1 ? vscode.Uri.file(folder) : file;
}

/** The open runs as the sidebar lists them, and when they change. */
export interface RunList {
  readonly onDidChange: vscode.Event<void>;
  list(): SidebarRun[];
}

/** Owns the summary workers and the one Run Dashboard. */
class Runs implements vscode.Disposable, RunList {
  private readonly changes = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changes.event;
  private pool: { key: string; pool: SummaryPool } | null = null;
  private dashboard: RunDashboard | null = null;
  /** The summarising code's identity (part of every cache key), known once `ready` settles. */
  private codeId = '';
  private readonly ready: Promise<void>;

  constructor(private readonly deps: RunFeatureDeps) {
    this.ready = codeIdentity(deps.workerPath).then((id) => {
      this.codeId = id;
    });
  }

  /** How runs are summarised under the current settings. */
  trackerDeps(): RunTrackerDeps {
    const settings = readSettings();
    const scoring = runScoring(this.deps.planner());
    const { model } = scoring;
    const size = model ? 1 : Math.max(1, Math.min(4, availableParallelism() - 1));
    const key = `${size}\0${modelConfigKey(model)}`;
    if (this.pool?.key !== key) {
      void this.pool?.pool.dispose();
      this.pool = { key, pool: new SummaryPool(this.deps.workerPath, size) };
    }
    const pool = this.pool.pool;
    return {
      summarise: (file, options) => pool.summarise({ file, settings: settings.prof, scorer: scoring.choice, model }, options),
      parallelism: size,
      cache: this.cacheFor(resolveSettings(settings.prof), scoring),
    };
  }

  /**
   * Summaries are cached under what the model is: an ONNX folder by its content hash. A served model's
   * identity is known only to the worker that connects to it, so its summaries are not cached (its
   * scores are, so summarising again asks the server nothing new).
   */
  private cacheFor(settings: ReturnType<typeof resolveSettings>, scoring: RunScoring): SummaryCache | null {
    const { model } = scoring;
    if (model?.kind === 'http') return null;
    const modelId = model?.kind === 'onnx' ? modelDirIdentity(model.modelDir, { rememberIn: this.deps.cacheDir }) : Promise.resolve(null);
    const identity = modelId.then((id) => summaryIdentity({ settings, scorer: { choice: scoring.choice, model: id }, code: this.codeId }));
    return createSummaryCache(this.deps.cacheDir, identity);
  }

  describe(): Pick<RunDashboardData, 'settings' | 'scorerLabel'> {
    const s = resolveSettings(readSettings().prof);
    return { settings: { penalty: s.penalty, maxSteps: s.maxSteps, m: s.m, remove: s.remove, threshold: s.threshold }, scorerLabel: runScoring(this.deps.planner()).label };
  }

  async open(run: vscode.Uri): Promise<void> {
    await this.ready;
    const dashboard = this.dashboard ?? this.adopt(createPanel(RUN_DASHBOARD_PANEL, this.deps.extensionUri, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false }));
    dashboard.add(run);
  }

  adopt(panel: vscode.WebviewPanel, runs: readonly vscode.Uri[] = []): RunDashboard {
    this.dashboard?.dispose();
    const dashboard = new RunDashboard(panel, {
      extensionUri: this.deps.extensionUri,
      trackerDeps: () => this.trackerDeps(),
      describe: () => this.describe(),
      pickRun: () => pickRun('Add Training Run'),
      openLargeFile: this.deps.openLargeFile,
      healthOptions: () => runReadingOptions(this.deps.planner),
      auditor: this.deps.auditor,
    });
    this.dashboard = dashboard;
    dashboard.onDidChangeRuns(() => this.dashboard === dashboard && this.changes.fire());
    dashboard.onDidDispose(() => {
      if (this.dashboard === dashboard) this.dashboard = null;
      this.changes.fire();
    });
    for (const run of runs) dashboard.add(run);
    return dashboard;
  }

  list(): SidebarRun[] {
    return this.dashboard?.sidebarRuns() ?? [];
  }

  /** Opens a step's file as the dashboard's chart does (the sidebar's step nodes). */
  openStep(arg: unknown): void {
    if (typeof arg !== 'object' || arg === null) return;
    const { runId, step } = arg as Record<string, unknown>;
    if (typeof runId === 'string' && typeof step === 'number') void this.dashboard?.openStep(runId, step);
  }

  /** Settings changed: runs are summarised again (the cache keeps what each setting gave). */
  settingsChanged(): void {
    this.dashboard?.restartAll();
  }

  async restore(panel: vscode.WebviewPanel, runs: readonly string[]): Promise<void> {
    await this.ready;
    this.adopt(panel, runs.map((r) => vscode.Uri.parse(r)));
  }

  dispose(): void {
    this.changes.dispose();
    this.dashboard?.dispose();
    void this.pool?.pool.dispose();
    this.pool = null;
  }
}

/**
 * What a run is read with off this thread (the health audit, the Explorer over a run): the PROF
 * settings, and the file's scores or the checker (a model is the summaries' business, not read twice).
 */
export function runReadingOptions(planner: ScorerPlanner): { settings: Partial<ProfSettings>; scorer: ScorerChoice } {
  return { settings: readSettings().prof, scorer: healthScorer(runScoring(planner()).choice) };
}

/** A folder picker that starts beside the file being edited. */
export async function pickRun(title: string): Promise<vscode.Uri | undefined> {
  const active = vscode.window.activeTextEditor?.document.uri;
  const picked = await vscode.window.showOpenDialog({
    title,
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: false,
    openLabel: 'Open Training Run',
    ...(active?.scheme === 'file' ? { defaultUri: vscode.Uri.file(dirname(active.fsPath)) } : {}),
  });
  return picked?.[0];
}

/** The run a command was given: a folder, a step file, or (from the palette) one the user picks. */
async function runOf(arg: unknown): Promise<vscode.Uri | undefined> {
  if (arg instanceof vscode.Uri && arg.scheme === 'file') {
    const info = await stat(arg.fsPath).catch(() => null);
    if (info?.isDirectory()) return arg;
    if (info?.isFile()) return runOfFile(arg);
  }
  return pickRun('Open Training Run');
}

/** Registers the command, the dashboard's serializer and the settings listener. */
export function createRunFeature(deps: RunFeatureDeps): { feature: vscode.Disposable; runs: RunList } {
  const runs = new Runs(deps);
  const feature = vscode.Disposable.from(
    runs,
    vscode.commands.registerCommand(commandIds.openRunStep, (arg: unknown) => runs.openStep(arg)),
    vscode.commands.registerCommand(commandIds.openTrainingRun, async (arg: unknown) => {
      const run = await runOf(arg);
      if (run) await runs.open(run);
    }),
    restorePanels(RUN_DASHBOARD_PANEL, isRunPanelState, (panel, state) => runs.restore(panel, state.runs)),
    vscode.workspace.onDidChangeConfiguration((event) => needsReanalysis(event) && runs.settingsChanged()),
  );
  return { feature, runs };
}
