/**
 * The setup check behind `PROF Lens: Check Setup` and `prof-lens doctor`: versions, the execution
 * providers onnxruntime offers here, the configured model folder (opened and smoke-scored by the
 * ONNX scorer itself), the configured PRM endpoints and critic endpoints, each one's state. It
 * builds a plain report; the editor and the CLI only display it. No `vscode` import.
 */
import { defaultProviders } from '../scorers/onnx/onnxScorer';
import { PROVIDER_FILES, binaryFolder, missingProviderFiles } from '../scorers/onnx/providerFiles';
import { checkModelFolder } from './setupModelCheck';
import { checkEndpoints, endpointSectionTitle } from './setupEndpointCheck';
import { messageOf, type CheckLine, type CheckSection, type CheckStatus } from './checkLines';

export type { CheckLine, CheckSection, CheckStatus };

/** The whole report. */
export interface SetupReport {
  sections: CheckSection[];
  errors: number;
  warnings: number;
  /** The execution provider the model session runs on, when a model folder was checked and opened. */
  activeProvider: string | null;
}

/** What to check, and the facts only the caller knows. */
export interface SetupCheckOptions {
  /** PROF Lens's own version. */
  version: string;
  /** Where it runs, e.g. `VS Code 1.100.3 (code-server, local)` or `prof-lens command line`. */
  host: string;
  /** The model folder to validate, when one is configured. */
  modelDir?: string | null;
  /** The base URLs of vLLM servers running a PRM, when configured. */
  endpointUrls?: readonly string[] | null;
  /** The base URLs of a critic (a chat model), when configured, and its model name and `max_tokens`. */
  critic?: { urls: readonly string[]; modelName?: string; maxTokens?: number } | null;
  /** The bearer token endpoints get. */
  apiKey?: string;
  /** The bundled ONNX worker script; default `onnxWorker.js` beside the running bundle. */
  workerPath?: string;
  /** Execution providers to try; default the platform's order (see `defaultProviders`). */
  providers?: string[];
  /** Timeout of the endpoint's `/v1/models` request; default 5000 ms. */
  endpointTimeoutMs?: number;
  /** Told before each slow step, for a progress message. */
  onStep?: (message: string) => void;
}

type Ort = typeof import('onnxruntime-node');

function environmentSection(options: SetupCheckOptions): CheckSection {
  const { versions } = process;
  return {
    title: 'Environment',
    lines: [
      { status: 'info', label: 'PROF Lens', detail: options.version },
      { status: 'info', label: 'host', detail: options.host },
      { status: 'info', label: 'platform', detail: `${process.platform}-${process.arch}` },
      { status: 'info', label: 'Node', detail: `${versions.node} (N-API ${versions.napi ?? 'unknown'})` },
      {
        status: 'info',
        label: 'Electron',
        detail: versions.electron ?? 'none (a VS Code server, a browser-served VS Code or the command line)',
      },
    ],
  };
}

function describeBackend(backend: { name: string; bundled: boolean }, folder: string | null): string {
  if (backend.bundled) return `${backend.name} (bundled)`;
  if (!PROVIDER_FILES[backend.name] || folder === null) return `${backend.name} (not bundled)`;
  const missing = missingProviderFiles(backend.name, folder);
  return missing.length === 0 ? `${backend.name} (installed)` : `${backend.name} (not installed: ${missing.join(', ')} missing)`;
}

async function runtimeSection(options: SetupCheckOptions): Promise<CheckSection> {
  const title = 'ONNX Runtime';
  let ort: Ort;
  try {
    ort = await import('onnxruntime-node');
  } catch (error) {
    const detail = `cannot be loaded here (${process.platform}-${process.arch}): ${messageOf(error)}`;
    return { title, lines: [{ status: 'error', label: 'onnxruntime-node', detail }] };
  }
  const folder = binaryFolder();
  const backends = typeof ort.listSupportedBackends === 'function' ? ort.listSupportedBackends() : [];
  const providers = options.providers ?? defaultProviders();
  return {
    title,
    lines: [
      { status: 'ok', label: 'onnxruntime-node', detail: `${ort.env.versions.node ?? 'unknown version'}${folder ? ` from ${folder}` : ''}` },
      {
        status: 'info',
        label: 'providers here',
        detail: backends.length > 0 ? backends.map((b) => describeBackend(b, folder)).join(', ') : 'not listed by this onnxruntime-node',
      },
      { status: 'info', label: 'tried in order', detail: `${providers.join(', ')} (the first that loads runs; see docs/gpu.md)` },
    ],
  };
}

/** Runs every check that applies; never throws (a failed check is a line of the report). */
export async function runSetupCheck(options: SetupCheckOptions): Promise<SetupReport> {
  const sections = [environmentSection(options)];
  options.onStep?.('loading onnxruntime');
  sections.push(await runtimeSection(options));
  let activeProvider: string | null = null;
  if (options.modelDir) {
    options.onStep?.('opening the model folder');
    const model = await checkModelFolder({
      modelDir: options.modelDir,
      ...(options.workerPath === undefined ? {} : { workerPath: options.workerPath }),
      ...(options.providers === undefined ? {} : { providers: options.providers }),
    });
    sections.push(model.section);
    activeProvider = model.provider;
  } else {
    sections.push({ title: 'Model folder', lines: [{ status: 'info', label: 'not configured', detail: 'set profLens.scoring.modelPath (or pass --model DIR) to check one' }] });
  }
  // Checking only a critic, a line about the PRM endpoint not being set would only confuse.
  if (options.endpointUrls?.length || !options.critic?.urls.length) sections.push(await endpointSection(options, 'http'));
  if (options.critic?.urls.length) sections.push(await endpointSection(options, 'critic'));
  const all = sections.flatMap((s) => s.lines);
  return {
    sections,
    errors: all.filter((l) => l.status === 'error').length,
    warnings: all.filter((l) => l.status === 'warning').length,
    activeProvider,
  };
}

async function endpointSection(options: SetupCheckOptions, kind: 'http' | 'critic'): Promise<CheckSection> {
  const urls = kind === 'critic' ? options.critic?.urls ?? [] : options.endpointUrls ?? [];
  if (urls.length === 0) {
    return { title: endpointSectionTitle(kind), lines: [{ status: 'info', label: 'not configured', detail: 'set profLens.scoring.endpointUrl (or pass --url URL) to check one' }] };
  }
  options.onStep?.(kind === 'critic' ? 'asking the critic' : 'asking the endpoint');
  return checkEndpoints({
    kind,
    urls,
    timeoutMs: options.endpointTimeoutMs ?? 5000,
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    ...(kind === 'critic' && options.critic?.modelName ? { modelName: options.critic.modelName } : {}),
    ...(kind === 'critic' && options.critic?.maxTokens ? { maxTokens: options.critic.maxTokens } : {}),
  });
}

const MARKS: Record<CheckStatus, string> = { ok: '✓', warning: '⚠', error: '✗', info: '·' };
const LABEL_WIDTH = 18;

function verdict(report: SetupReport): string {
  if (report.errors === 0 && report.warnings === 0) return 'all checks passed';
  const plural = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
  return [report.errors > 0 && plural(report.errors, 'problem'), report.warnings > 0 && plural(report.warnings, 'warning')]
    .filter(Boolean)
    .join(', ');
}

/** The report as plain text: a verdict, the active provider, then one line per finding. */
export function formatSetupReport(report: SetupReport): string {
  const lines = [
    `PROF Lens setup check: ${verdict(report)}`,
    `Active execution provider: ${report.activeProvider ?? 'none yet (decided when a model folder is opened)'}`,
  ];
  for (const section of report.sections) {
    lines.push('', section.title);
    for (const line of section.lines) lines.push(`  ${MARKS[line.status]} ${line.label.padEnd(LABEL_WIDTH)} ${line.detail}`);
  }
  return `${lines.join('\n')}\n`;
}
