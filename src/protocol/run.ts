/**
 * Messages between the extension host and the Run Dashboard webview. JSON-plain, discriminated on
 * `type`. The webview speaks first with `ready`; the host answers with the whole `dashboard`, then
 * sends a `run` whenever one run's steps change (a file was summarised, a step file appeared) and
 * `removed` when a run leaves. Commands from the webview (`openStep`, `addRun`, `removeRun`) get
 * no answer. Both ends check every message on arrival with the guards below.
 */
import type { ProfSettings } from '../core/profSettings';
import type { StepSummary } from '../core/run/stepSummary';

/** One step as the charts draw it: the figures, never texts or paths. */
export type RunStepPoint = Pick<
  StepSummary,
  | 'step' | 'rollouts' | 'groups' | 'correct' | 'incorrect' | 'accuracy' | 'allCorrectGroups' | 'allIncorrectGroups' | 'kept' | 'dropped' | 'notRanked'
  | 'byReason' | 'suspectedFalsePositives' | 'falsePositiveShare' | 'penalised' | 'stepsMean' | 'stepsMedian' | 'stepsP90'
  | 'responseCharsMean' | 'responseCharsP90' | 'auroc' | 'approximate'
> & {
  /** The name of the file the step's rollouts are in (the first, when there are several). */
  fileLabel: string;
};

/** A problem with one file of a run, as the dashboard lists it. */
export interface RunViewProblem {
  fileLabel: string;
  message: string;
}

/** One run as the dashboard shows it. */
export interface RunView {
  /** The run's URI: how the webview names it back. */
  id: string;
  /** Short name (the folder's or file's), unique within the dashboard. */
  label: string;
  /** Where it is, for a tooltip. */
  location: string;
  steps: RunStepPoint[];
  /** Steps in the run; `steps` holds every `stride`-th of them when there are too many to send. */
  totalSteps: number;
  stride: number;
  files: number;
  problems: RunViewProblem[];
  /** How many problems there are; `problems` lists the first few. */
  problemCount: number;
  /** Files summarised so far while a summary is under way; null when the run is up to date. */
  progress: { filesDone: number; filesTotal: number } | null;
  /** Why the configured model did not score the files read last (the checker did), or null. */
  modelError: string | null;
  /** Whose layout the run folder has, and what of it is left apart (validation dumps), in words. */
  layout?: string | null;
}

/** The settings the charts label: the penalty zones, and what PROF keeps. */
export type RunSettings = Pick<ProfSettings, 'penalty' | 'maxSteps' | 'm' | 'remove' | 'threshold'>;

/** Everything the dashboard shows. */
export interface RunDashboardData {
  runs: RunView[];
  settings: RunSettings;
  scorerLabel: string;
}

export type HostToRunWebview =
  | { type: 'dashboard'; data: RunDashboardData }
  | { type: 'run'; run: RunView }
  | { type: 'removed'; runId: string };

export type RunWebviewToHost =
  | { type: 'ready' }
  | { type: 'openStep'; runId: string; step: number }
  /** Explore this step: its file in the Rollout Explorer, filtered as the chart `chart` (its key) means. */
  | { type: 'exploreStep'; runId: string; step: number; chart: string }
  | { type: 'addRun' }
  | { type: 'removeRun'; runId: string };

/** Version of the state the dashboard saves; another version is ignored. */
export const RUN_STATE_VERSION = 1;

/** What the dashboard remembers across reloads: which runs it shows. */
export interface RunPanelState {
  version: typeof RUN_STATE_VERSION;
  runs: string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStep(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function isRunView(value: unknown): value is RunView {
  return isRecord(value) && typeof value['id'] === 'string' && typeof value['label'] === 'string' && Array.isArray(value['steps']) && Array.isArray(value['problems']);
}

/** Checks a message the webview receives; payloads are checked for their outline (the host built them). */
export function isHostToRunWebview(value: unknown): value is HostToRunWebview {
  if (!isRecord(value)) return false;
  switch (value['type']) {
    case 'dashboard': {
      const data = value['data'];
      return isRecord(data) && Array.isArray(data['runs']) && data['runs'].every(isRunView) && isRecord(data['settings']) && typeof data['scorerLabel'] === 'string';
    }
    case 'run':
      return isRunView(value['run']);
    case 'removed':
      return typeof value['runId'] === 'string';
    default:
      return false;
  }
}

/** Checks a message the host receives: nothing is assumed of the webview. */
export function isRunWebviewToHost(value: unknown): value is RunWebviewToHost {
  if (!isRecord(value)) return false;
  switch (value['type']) {
    case 'ready':
    case 'addRun':
      return true;
    case 'openStep':
      return typeof value['runId'] === 'string' && isStep(value['step']);
    case 'exploreStep':
      return typeof value['runId'] === 'string' && isStep(value['step']) && typeof value['chart'] === 'string';
    case 'removeRun':
      return typeof value['runId'] === 'string';
    default:
      return false;
  }
}

/** Checks a saved dashboard state; anything else is treated as none. */
export function isRunPanelState(value: unknown): value is RunPanelState {
  return isRecord(value) && value['version'] === RUN_STATE_VERSION && Array.isArray(value['runs']) && value['runs'].every((r) => typeof r === 'string');
}
