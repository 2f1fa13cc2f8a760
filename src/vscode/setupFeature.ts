/**
 * The getting-started commands: Check Setup runs the setup check (versions, execution providers,
 * the configured model folder and endpoint) and shows the report in the "PROF Lens Setup" output
 * channel with a Copy report action; Open Example opens the rollout file the extension ships; GPU
 * Set-up Guide opens the shipped docs/gpu.md (manual steps: the extension downloads nothing).
 */
import * as vscode from 'vscode';
import { formatSetupReport, runSetupCheck, type SetupReport } from '../scoring/setup/setupCheck';
import { commandIds } from './commandIds';
import { showInfo, showWarning, withNotificationProgress } from './notify';
import { resolveModelDir } from './scorerFromSettings';
import { readModelSettings } from './scoringSettings';

/** Where the extension is installed, and the endpoints' API key. */
export interface SetupFeatureDeps {
  extension: Pick<vscode.Extension<unknown>, 'extensionUri' | 'packageJSON'>;
  apiKey?: () => string | undefined;
}

/** The output channel's name, as users see it in the Output view. */
export const SETUP_CHANNEL_NAME = 'PROF Lens Setup';
const EXAMPLE_PATH = ['examples', 'gsm-rollouts.jsonl'] as const;
const GPU_GUIDE_PATH = ['docs', 'gpu.md'] as const;
const COPY_REPORT = 'Copy report';
const GPU_GUIDE = 'GPU set-up guide';

function hostDescription(): string {
  const where = vscode.env.remoteName ? `remote: ${vscode.env.remoteName}` : 'local';
  return `${vscode.env.appName} ${vscode.version} (${vscode.env.appHost}, ${where})`;
}

interface ConfiguredModels {
  modelDir: string | null;
  endpointUrls: string[];
  critic: { urls: string[]; modelName?: string; maxTokens?: number } | null;
  notes: string[];
}

/** The model folder and endpoints the scorers would use, with workspace trust honoured. */
function configuredModels(): ConfiguredModels {
  const { modelPath, endpointUrl, criticUrl, critic } = readModelSettings();
  const workspaceFolder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const modelDir = modelPath.value === null ? null : resolveModelDir({ ...modelPath, value: modelPath.value }, { workspaceFolder });
  const notes = [modelPath, endpointUrl, criticUrl].some((v) => v.isWorkspaceValueIgnored)
    ? ['This workspace is not trusted: its model folder and endpoint settings were ignored; only your user settings were checked.']
    : [];
  return { modelDir, endpointUrls: endpointUrl.urls, critic: criticUrl.urls.length > 0 ? { urls: criticUrl.urls, ...critic } : null, notes };
}

async function runCheck(deps: SetupFeatureDeps): Promise<{ report: SetupReport; notes: string[] }> {
  const { modelDir, endpointUrls, critic, notes } = configuredModels();
  const apiKey = deps.apiKey?.();
  const version = String((deps.extension.packageJSON as { version?: unknown }).version ?? 'unknown');
  const report = await withNotificationProgress(
    { title: 'PROF Lens: checking the set-up' },
    (progress) =>
      runSetupCheck({
        version,
        host: hostDescription(),
        modelDir,
        endpointUrls,
        critic,
        ...(apiKey ? { apiKey } : {}),
        workerPath: vscode.Uri.joinPath(deps.extension.extensionUri, 'dist', 'onnxWorker.js').fsPath,
        onStep: (message) => progress.report(message),
      }),
  );
  return { report, notes };
}

async function checkSetup(deps: SetupFeatureDeps, channel: () => vscode.OutputChannel): Promise<void> {
  const { report, notes } = await runCheck(deps);
  const text = formatSetupReport(report) + notes.map((n) => `\n${n}\n`).join('');
  const output = channel();
  output.clear();
  output.append(text);
  output.show(true);
  const headline = text.split('\n')[0] ?? 'PROF Lens setup check';
  const show = report.errors > 0 ? showWarning : showInfo;
  // A model that fell back from a GPU provider is the case the guide is for.
  const isOffGpu = report.sections.some((s) => s.lines.some((l) => l.label === 'session' && l.status === 'warning'));
  const picked = await show(headline, COPY_REPORT, ...(isOffGpu ? [GPU_GUIDE] : []));
  if (picked === COPY_REPORT) await vscode.env.clipboard.writeText(text);
  if (picked === GPU_GUIDE) await showGpuGuide(deps);
}

/** Opens docs/gpu.md, shipped with the extension, as a rendered preview. */
async function showGpuGuide(deps: SetupFeatureDeps): Promise<void> {
  await vscode.commands.executeCommand('markdown.showPreview', vscode.Uri.joinPath(deps.extension.extensionUri, ...GPU_GUIDE_PATH));
}

async function openExample(deps: SetupFeatureDeps): Promise<void> {
  const uri = vscode.Uri.joinPath(deps.extension.extensionUri, ...EXAMPLE_PATH);
  const document = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(document, { preview: false });
}

/** Registers Check Setup, Open Example and the GPU guide; the returned disposable also closes the output channel. */
export function createSetupFeature(deps: SetupFeatureDeps): vscode.Disposable {
  let output: vscode.OutputChannel | undefined;
  // Created on first use, so that an extension nobody checks adds no entry to the Output view.
  const channel = (): vscode.OutputChannel => (output ??= vscode.window.createOutputChannel(SETUP_CHANNEL_NAME));
  const registrations = [
    vscode.commands.registerCommand(commandIds.checkSetup, () => checkSetup(deps, channel)),
    vscode.commands.registerCommand(commandIds.openExample, () => openExample(deps)),
    vscode.commands.registerCommand(commandIds.showGpuSetup, () => showGpuGuide(deps)),
  ];
  return new vscode.Disposable(() => {
    for (const registration of registrations) registration.dispose();
    output?.dispose();
  });
}
