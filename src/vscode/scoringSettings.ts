/**
 * Reads the scorer settings with workspace trust applied and turns them into what the analysis
 * worker needs: the scorer choice and the model to open, with the host's paths (the ONNX worker
 * script, the score cache in the extension's global storage) and the API key from secret storage.
 */
import * as vscode from 'vscode';
import { defaultCacheDir } from '../scoring/scorers/cache/identity';
import type { ModelConfig } from '../protocol/modelConfig';
import { SCORER_CHOICES, type ScorerChoice } from '../core/scorerChoice';
import { planScorer, trustedUrls, trustedValue, type ModelTarget, type ScorerNotice, type SettingLevels, type TrustedValue } from './scorerFromSettings';
import { settingIds } from './settingIds';

/** Where the host keeps what model scorers need. */
export interface ModelEnvironment {
  /** The bundled ONNX worker, `dist/onnxWorker.js` of the extension. */
  onnxWorkerPath: string;
  /** The persistent score cache's folder. */
  cacheDir: string;
  /** The endpoints' API key, from secret storage (never from settings). */
  apiKey?: () => string | undefined;
}

/** The scorer one analysis uses, ready to send to the worker. */
export interface HostScorerPlan {
  choice: ScorerChoice;
  model: ModelConfig | null;
  notice: ScorerNotice | null;
}

/** Decides the scorer plan for a document (or the window); the caller supplies the model paths. */
export type ScorerPlanner = (scope?: vscode.ConfigurationScope) => HostScorerPlan;

function levels(config: vscode.WorkspaceConfiguration, id: string): SettingLevels {
  const inspected = config.inspect<unknown>(id);
  return { user: inspected?.globalValue, workspace: inspected?.workspaceValue, folder: inspected?.workspaceFolderValue };
}

/** The critic's model name and `max_tokens` (ordinary settings: they cannot send anything anywhere). */
function criticSettings(config: vscode.WorkspaceConfiguration): { modelName?: string; maxTokens?: number } {
  const name = config.get<unknown>(settingIds.criticModel);
  const maxTokens = config.get<unknown>(settingIds.criticMaxTokens);
  return {
    ...(typeof name === 'string' && name.trim() !== '' ? { modelName: name.trim() } : {}),
    ...(typeof maxTokens === 'number' && Number.isInteger(maxTokens) && maxTokens > 0 ? { maxTokens } : {}),
  };
}

function toConfig(target: ModelTarget | null, env: ModelEnvironment, config: vscode.WorkspaceConfiguration): ModelConfig | null {
  if (!target) return null;
  if (target.kind === 'onnx') return { kind: 'onnx', modelDir: target.modelDir, workerPath: env.onnxWorkerPath, cacheDir: env.cacheDir };
  const apiKey = env.apiKey?.();
  const served = { urls: target.urls, cacheDir: env.cacheDir, ...(apiKey ? { apiKey } : {}) };
  return target.kind === 'critic' ? { kind: 'critic', ...served, ...criticSettings(config) } : { kind: 'http', ...served };
}

/** Reads the scorer settings, honouring workspace trust. */
export function readScorerPlan(env: ModelEnvironment, scope?: vscode.ConfigurationScope): HostScorerPlan {
  const config = vscode.workspace.getConfiguration(undefined, scope);
  const choice = config.get<string>(settingIds.scorer) ?? 'auto';
  const plan = planScorer({
    choice: SCORER_CHOICES.includes(choice as ScorerChoice) ? (choice as ScorerChoice) : 'auto',
    modelPath: levels(config, settingIds.modelPath),
    endpointUrl: levels(config, settingIds.endpointUrl),
    criticUrl: levels(config, settingIds.criticEndpointUrl),
    isTrusted: vscode.workspace.isTrusted,
    paths: { workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath },
  });
  return { choice: plan.choice, model: toConfig(plan.model, env, config), notice: plan.notice };
}

/** The settings the model scorers would use (trust honoured), for the scorer picker and Check Setup. */
export interface ModelSettings {
  modelPath: TrustedValue;
  endpointUrl: TrustedValue & { urls: string[] };
  criticUrl: TrustedValue & { urls: string[] };
  critic: { modelName?: string; maxTokens?: number };
}

/** The model folder and endpoints that apply (trust honoured). */
export function readModelSettings(): ModelSettings {
  const config = vscode.workspace.getConfiguration();
  const isTrusted = vscode.workspace.isTrusted;
  return {
    modelPath: trustedValue(levels(config, settingIds.modelPath), isTrusted),
    endpointUrl: trustedUrls(levels(config, settingIds.endpointUrl), isTrusted),
    criticUrl: trustedUrls(levels(config, settingIds.criticEndpointUrl), isTrusted),
    critic: criticSettings(config),
  };
}

/**
 * The extension's model paths: its bundled ONNX worker, and the score cache in its global storage
 * (so the cache goes with the extension), or the shared default cache when that is not on disk.
 */
export function modelEnvironment(context: vscode.ExtensionContext, apiKey?: () => string | undefined): ModelEnvironment {
  const storage = context.globalStorageUri;
  return {
    onnxWorkerPath: context.asAbsolutePath('dist/onnxWorker.js'),
    cacheDir: storage.scheme === 'file' ? vscode.Uri.joinPath(storage, 'score-cache').fsPath : defaultCacheDir(),
    ...(apiKey ? { apiKey } : {}),
  };
}

/** A planner bound to the extension's paths. */
export function scorerPlanner(env: ModelEnvironment): ScorerPlanner {
  return (scope) => readScorerPlan(env, scope);
}
