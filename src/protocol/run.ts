/**
 * Messages between the extension host and the Run Dashboard webview. JSON-plain, discriminated on
 * `type`. The webview speaks first with `ready`; the host answers with the whole `dashboard`, then
 * sends a `run` whenever one run's steps change (a file was summarised, a step file appeared) and
 * `removed` when a run leaves. Commands from the webview (`openStep`, `addRun`, `removeRun`) get
 * no answer. Both ends check every message on arrival with the guards below.
 */
import type { ProfSettings } from '../core/profSettings';
import type { StepSummary } from '../core/run/stepSummary';
import { arrayOf, isArray, isCount, isRecord, isString, outline, type Guarded } from './guards';
import { message, protocol, ready, savedState, type Sent } from './messages';
import { exploreHealth, health } from './runHealth';

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

const isStep = isCount;
const isRunView = outline<RunView>({ id: isString, label: isString, steps: isArray, problems: isArray });

/* ---- the host's messages (payloads checked for their outline: the host built them) ---- */

/** Everything the dashboard shows, sent after `ready` and when the settings change. */
export const dashboard = message('fromHost', 'dashboard', {
  data: outline<RunDashboardData>({ runs: arrayOf(isRunView), settings: isRecord, scorerLabel: isString }),
});
/** One run's steps changed. */
export const run = message('fromHost', 'run', { run: isRunView });
export const removed = message('fromHost', 'removed', { runId: isString });

/* ---- the webview's messages (nothing is assumed of the webview) ---- */

export const openStep = message('toHost', 'openStep', { runId: isString, step: isStep });
/** Explore this step: its file in the Rollout Explorer, filtered as the chart `chart` (its key) means. */
export const exploreStep = message('toHost', 'exploreStep', { runId: isString, step: isStep, chart: isString });
export const addRun = message('toHost', 'addRun', {});
export const removeRun = message('toHost', 'removeRun', { runId: isString });
/** Open the Rollout Explorer over every step of this run. */
export const exploreRun = message('toHost', 'exploreRun', { runId: isString });

/** The Run Dashboard's channel. */
export const runProtocol = protocol(ready, openStep, exploreStep, exploreHealth, addRun, removeRun, exploreRun, dashboard, run, removed, health);
export type HostToRunWebview = Sent<typeof runProtocol, 'fromHost'>;
export type RunWebviewToHost = Sent<typeof runProtocol, 'toHost'>;
/** Checks a message the webview receives. */
export const isHostToRunWebview = runProtocol.guard('fromHost');
/** Checks a message the host receives. */
export const isRunWebviewToHost = runProtocol.guard('toHost');

/** Version of the state the dashboard saves; another version is ignored. */
export const RUN_STATE_VERSION = 1;

/** What the dashboard remembers across reloads: which runs it shows. */
export const isRunPanelState = savedState(RUN_STATE_VERSION, { runs: arrayOf(isString) });
export type RunPanelState = Guarded<typeof isRunPanelState>;
