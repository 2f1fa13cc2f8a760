/**
 * The health audit of one run on the Run Dashboard: run again (debounced) whenever the run's
 * summaries settle, its result sent to the webview's Health section, and the rollouts behind each
 * point kept here so a click can open them in the Rollout Explorer. The audit reads the run's
 * files in the run explorer worker (`RunExplorerClient.audit`), never on this thread.
 */
import * as vscode from 'vscode';
import { DETECTOR_NAMES, type DetectorId } from '../../core/health/healthTypes';
import type { RolloutPlace, StepHealth } from '../../core/health/stepHealth';
import { QUERY_VERSION, type ExplorerQuery } from '../../core/explore/explorerQuery';
import { errorText } from '../../core/errorText';
import type { RunHealthView } from '../../protocol/runHealth';
import type { RunTracker } from '../../scoring/run/runTracker';
import type { RunExplorerClient } from '../../scoring/explore/runExplorerClient';
import type { RunReading } from '../../scoring/explore/runRequests';
import { isModelChoice, type ScorerChoice } from '../../core/scorerChoice';

/** The audit scores steps with the file's scores or the checker: a model is the summaries' business, not read twice. */
export function healthScorer(choice: ScorerChoice): ScorerChoice {
  return isModelChoice(choice) ? 'auto' : choice;
}

/** Quiet time after the run's last change before it is audited again. */
const SETTLE_MS = 1000;

export interface RunHealthDeps {
  /** What the audit grades and scores with (the dashboard's settings and scorer). */
  options: () => Pick<RunReading, 'settings' | 'scorer'>;
  /** Where the audit runs (off this thread). */
  auditor: Pick<RunExplorerClient, 'audit'>;
  send: (view: RunHealthView) => void;
}

export class RunHealthAudit implements vscode.Disposable {
  private steps: StepHealth[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private generation = 0;
  private running: AbortController | null = null;
  private current: RunHealthView;

  constructor(private readonly runId: string, private readonly tracker: RunTracker, private readonly deps: RunHealthDeps) {
    this.current = { runId, state: 'reading', message: null, steps: 0, rollouts: 0, detectors: [] };
  }

  get view(): RunHealthView {
    return this.current;
  }

  /** The run changed: audit it again once its summaries are all in and it has been quiet a while. */
  changed(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.audit(), SETTLE_MS);
  }

  private async audit(): Promise<void> {
    if (this.tracker.progress !== null) return this.changed();
    const generation = ++this.generation;
    this.publish({ ...this.current, state: 'reading', message: null });
    this.running?.abort();
    const running = (this.running = new AbortController());
    try {
      const result = await this.deps.auditor.audit({ path: this.tracker.path, split: this.tracker.split, ...this.deps.options() }, running.signal);
      if (generation !== this.generation) return;
      this.steps = result.stepHealth;
      this.publish({ runId: this.runId, state: 'ready', message: null, steps: result.steps, rollouts: result.rollouts, detectors: result.detectors });
    } catch (error) {
      if (generation === this.generation) this.publish({ ...this.current, state: 'failed', message: errorText(error) });
    }
  }

  private publish(view: RunHealthView): void {
    this.current = view;
    this.deps.send(view);
  }

  /**
   * The Explorer query for a point: the step's rollouts that show the detector, in the file that
   * holds most of them (a step that spans files opens one at a time); null when none is known.
   */
  explore(step: number, detector: DetectorId): { source: string; query: ExplorerQuery } | null {
    const s = this.steps.find((x) => x.step === step);
    if (!s) return null;
    const places: RolloutPlace[] = s.places[detector] ?? (s.examples[detector] ?? []).map(({ file, line, index }) => ({ file, line, index }));
    const byFile = new Map<string, RolloutPlace[]>();
    for (const p of places) byFile.set(p.file, [...(byFile.get(p.file) ?? []), p]);
    const [file, list] = [...byFile].sort((a, b) => b[1].length - a[1].length)[0] ?? [];
    if (!file || !list) return null;
    const label = `step ${step}: ${DETECTOR_NAMES[detector]}`;
    const query: ExplorerQuery = { version: QUERY_VERSION, filter: { rollouts: { label, places: list.map(({ line, index }) => ({ line, index })) } }, sort: null };
    return { source: vscode.Uri.file(file).toString(), query };
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.running?.abort();
    this.generation++;
  }
}
