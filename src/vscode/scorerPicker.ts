/**
 * The Choose Step Scorer command: every scorer with what it would use (the model folder, the
 * endpoint), and a way to set the folder or the endpoint when a model scorer has none.
 */
import * as vscode from 'vscode';
import { SCORER_CHOICES, type ScorerChoice } from '../core/scorerChoice';
import type { TrustedValue } from './scorerChoice';
import { readModelSettings } from './scoringSettings';
import { settingIds } from './settingIds';

const DESCRIPTIONS: Record<ScorerChoice, string> = {
  auto: 'Step scores from the file where present, else the model if one is set, else the checker',
  file: 'Only the step scores stored in the file',
  checker: 'The embedded arithmetic and algebra checker (no model)',
  onnx: 'A process reward model exported to ONNX, run locally',
  http: 'A process reward model served by vLLM (/pooling)',
};

type Pick = vscode.QuickPickItem & { choice?: ScorerChoice; action?: 'setModel' | 'setEndpoint' };

function shown(value: TrustedValue, missing: string): string {
  if (value.value !== null) return value.value;
  return value.isWorkspaceValueIgnored ? `${missing} (the untrusted workspace's value is ignored)` : missing;
}

function items(current: ScorerChoice): Pick[] {
  const { modelPath, endpointUrl } = readModelSettings();
  const model = `model folder: ${shown(modelPath, 'not set')}`;
  const endpoint = `endpoint: ${shown(endpointUrl, 'not set')}`;
  const details: Partial<Record<ScorerChoice, string>> = {
    auto: modelPath.value !== null ? model : endpointUrl.value !== null ? endpoint : 'no model set: file scores, else the checker',
    onnx: model,
    http: endpoint,
  };
  const choices: Pick[] = SCORER_CHOICES.map((choice) => ({
    label: `${choice === current ? '$(check) ' : ''}${choice}`,
    description: DESCRIPTIONS[choice],
    ...(details[choice] ? { detail: details[choice] } : {}),
    choice,
  }));
  return [
    ...choices,
    { label: '', kind: vscode.QuickPickItemKind.Separator },
    { label: '$(folder) Set the ONNX model folder…', description: 'in your user settings', action: 'setModel' },
    { label: '$(globe) Set the vLLM endpoint URL…', description: 'in your user settings', action: 'setEndpoint' },
  ];
}

/** Asks for a model folder; stores it in the user settings (a workspace's would not be trusted everywhere). */
async function setModelFolder(): Promise<boolean> {
  const picked = await vscode.window.showOpenDialog({
    canSelectFiles: false,
    canSelectFolders: true,
    canSelectMany: false,
    title: 'Folder with model.onnx, tokenizer.json, tokenizer_config.json and prof-lens.json',
  });
  const folder = picked?.[0];
  if (!folder) return false;
  await vscode.workspace.getConfiguration().update(settingIds.modelPath, folder.fsPath, vscode.ConfigurationTarget.Global);
  return true;
}

function checkUrl(text: string): string | undefined {
  try {
    const url = new URL(text.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? undefined : 'Use an http:// or https:// URL.';
  } catch {
    return 'Expected a URL like http://127.0.0.1:8000';
  }
}

async function setEndpoint(): Promise<boolean> {
  const url = await vscode.window.showInputBox({
    title: 'Base URL of a vLLM server running a process reward model',
    placeHolder: 'http://127.0.0.1:8000',
    value: readModelSettings().endpointUrl.value ?? '',
    validateInput: (text) => checkUrl(text),
  });
  if (url === undefined) return false;
  await vscode.workspace.getConfiguration().update(settingIds.endpointUrl, url.trim(), vscode.ConfigurationTarget.Global);
  return true;
}

async function setChoice(choice: ScorerChoice): Promise<void> {
  if (vscode.workspace.getConfiguration().get<string>(settingIds.scorer) === choice) return;
  const target = vscode.workspace.workspaceFolders ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await vscode.workspace.getConfiguration().update(settingIds.scorer, choice, target);
}

/** Runs the picker; choosing `onnx` or `http` with nothing set asks for the folder or URL first. */
export async function chooseScorer(): Promise<void> {
  const current = vscode.workspace.getConfiguration().get<ScorerChoice>(settingIds.scorer) ?? 'auto';
  const picked = await vscode.window.showQuickPick(items(current), { title: 'PROF Lens: step scorer', matchOnDetail: true });
  if (!picked) return;
  if (picked.action === 'setModel') {
    if (await setModelFolder()) await setChoice('onnx');
    return;
  }
  if (picked.action === 'setEndpoint') {
    if (await setEndpoint()) await setChoice('http');
    return;
  }
  if (!picked.choice) return;
  const { modelPath, endpointUrl } = readModelSettings();
  if (picked.choice === 'onnx' && modelPath.value === null && !(await setModelFolder())) return;
  if (picked.choice === 'http' && endpointUrl.value === null && !(await setEndpoint())) return;
  await setChoice(picked.choice);
}
