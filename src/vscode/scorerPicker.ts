/**
 * The Choose Step Scorer command: every scorer with what it would use (the model folder, the
 * endpoint), and a way to set the folder or the endpoint when a model scorer has none.
 */
import * as vscode from 'vscode';
import { SCORER_CHOICES, type ScorerChoice } from '../core/scorerChoice';
import type { TrustedValue } from './scorerFromSettings';
import { readModelSettings } from './scoringSettings';
import { commandIds } from './commandIds';
import { settingIds } from './settingIds';
import { readScorerChoice, updateSetting } from './settings';

const DESCRIPTIONS: Record<ScorerChoice, string> = {
  auto: 'Step scores from the file where present, else the model if one is set, else the checker',
  file: 'Only the step scores stored in the file',
  checker: 'The embedded arithmetic and algebra checker (no model)',
  onnx: 'A process reward model exported to ONNX, run locally',
  http: 'A process reward model served by vLLM (/pooling)',
  critic: 'A chat model that finds the first wrong step (OpenAI-compatible /v1/chat/completions); asks before sending',
};

type Action = 'setModel' | 'setEndpoint' | 'setCritic' | 'setKey';
type Pick = vscode.QuickPickItem & { choice?: ScorerChoice; action?: Action };

function shown(value: TrustedValue, missing: string): string {
  if (value.value !== null) return value.value;
  return value.isWorkspaceValueIgnored ? `${missing} (the untrusted workspace's value is ignored)` : missing;
}

function items(current: ScorerChoice): Pick[] {
  const { modelPath, endpointUrl, criticUrl, critic: criticModel } = readModelSettings();
  const model = `model folder: ${shown(modelPath, 'not set')}`;
  const endpoint = `endpoint: ${shown(endpointUrl, 'not set')}`;
  const critic = `critic: ${shown(criticUrl, 'not set')}${criticModel.modelName ? ` · model ${criticModel.modelName}` : ''}`;
  const details: Partial<Record<ScorerChoice, string>> = {
    auto: modelPath.value !== null ? model : endpointUrl.value !== null ? endpoint : 'no model set: file scores, else the checker',
    onnx: model,
    http: endpoint,
    critic,
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
    { label: '$(comment-discussion) Set the critic endpoint URL…', description: 'in your user settings', action: 'setCritic' },
    { label: '$(key) Set the endpoint API key…', description: 'in VS Code\'s secret storage', action: 'setKey' },
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
  await updateSetting(settingIds.modelPath, folder.fsPath, vscode.ConfigurationTarget.Global);
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

/** Asks for one URL (several are set as a list in settings.json); stores it in the user settings. */
async function setUrl(kind: 'http' | 'critic'): Promise<boolean> {
  const isCritic = kind === 'critic';
  const current = isCritic ? readModelSettings().criticUrl : readModelSettings().endpointUrl;
  const url = await vscode.window.showInputBox({
    title: isCritic ? 'Base URL of an OpenAI-compatible server running a chat model (the critic)' : 'Base URL of a vLLM server running a process reward model',
    prompt: 'Several servers of the same model: give a list in settings.json.',
    placeHolder: 'http://127.0.0.1:8000',
    value: current.urls[0] ?? '',
    validateInput: (text) => checkUrl(text),
  });
  if (url === undefined) return false;
  await updateSetting(isCritic ? settingIds.criticEndpointUrl : settingIds.endpointUrl, url.trim(), vscode.ConfigurationTarget.Global);
  return true;
}

async function setChoice(choice: ScorerChoice): Promise<void> {
  if (readScorerChoice() === choice) return;
  const target = vscode.workspace.workspaceFolders ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await updateSetting(settingIds.scorer, choice, target);
}

/** Runs the picker; choosing `onnx`, `http` or `critic` with nothing set asks for the folder or URL first. */
export async function chooseScorer(): Promise<void> {
  const current = readScorerChoice();
  const picked = await vscode.window.showQuickPick(items(current), { title: 'PROF Lens: step scorer', matchOnDetail: true });
  if (!picked) return;
  if (picked.action === 'setModel') {
    if (await setModelFolder()) await setChoice('onnx');
    return;
  }
  if (picked.action === 'setEndpoint' || picked.action === 'setCritic') {
    const kind = picked.action === 'setCritic' ? 'critic' : 'http';
    if (await setUrl(kind)) await setChoice(kind);
    return;
  }
  if (picked.action === 'setKey') {
    await vscode.commands.executeCommand(commandIds.setApiKey);
    return;
  }
  if (!picked.choice) return;
  const { modelPath, endpointUrl, criticUrl } = readModelSettings();
  if (picked.choice === 'onnx' && modelPath.value === null && !(await setModelFolder())) return;
  if (picked.choice === 'http' && endpointUrl.value === null && !(await setUrl('http'))) return;
  if (picked.choice === 'critic' && criticUrl.value === null && !(await setUrl('critic'))) return;
  await setChoice(picked.choice);
}
