/**
 * The scorer settings (read through settings.ts) with workspace trust applied and turns them into what the analysis
 * worker needs: the scorer choice and the model to open, with the host's paths (the ONNX worker
 * script, the score cache in the extension's global storage) and the API key from secret storage.
 */
import * as vscode from 'vscode';
import { defaultCacheDir } from '../scoring/scorers/cache/identity';
import type { ModelConfig } from '../protocol/modelConfig';
import type { ScorerChoice } from '../core/scorerChoice';
import { planScorer, trustedUrls, trustedValue, type ModelTarget, type ScorerNotice, type TrustedValue } from './scorerFromSettings';
import { readCriticSettings, readScorerChoice, settingLevels } from './settings';
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

function toConfig(target: ModelTarget | null, env: ModelEnvironment, scope?: vscode.ConfigurationScope): ModelConfig | null {
  if (!target) return null;
  if (target.kind === 'onnx') return { kind: 'onnx', modelDir: target.modelDir, workerPath: env.onnxWorkerPath, cacheDir: env.cacheDir };
  const apiKey = env.apiKey?.();
  const served = { urls: target.urls, cacheDir: env.cacheDir, ...(apiKey ? { apiKey } : {}) };
  return target.kind === 'critic' ? { kind: 'critic', ...served, ...readCriticSettings(scope) } : { kind: 'http', ...served };
}

/** Reads the scorer settings, honouring workspace trust. */
export function readScorerPlan(env: ModelEnvironment, scope?: vscode.ConfigurationScope): HostScorerPlan {
  const plan = planScorer({
    choice: readScorerChoice(scope),
    modelPath: settingLevels(settingIds.modelPath, scope),
    endpointUrl: settingLevels(settingIds.endpointUrl, scope),
    criticUrl: settingLevels(settingIds.criticEndpointUrl, scope),
    isTrusted: vscode.workspace.isTrusted,
    paths: { workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath },
  });
  return { choice: plan.choice, model: toConfig(plan.model, env, scope), notice: plan.notice };
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
  const isTrusted = vscode.workspace.isTrusted;
  return {
    modelPath: trustedValue(settingLevels(settingIds.modelPath), isTrusted),
    endpointUrl: trustedUrls(settingLevels(settingIds.endpointUrl), isTrusted),
    criticUrl: trustedUrls(settingLevels(settingIds.criticEndpointUrl), isTrusted),
    critic: readCriticSettings(),
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
