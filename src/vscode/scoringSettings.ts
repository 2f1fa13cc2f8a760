/**
 * Reads the scorer settings with workspace trust applied and turns them into what the analysis
 * worker needs: the scorer choice and the model to open, with the host's paths (the ONNX worker
 * script, the score cache in the extension's global storage).
 */
import * as vscode from 'vscode';
import { defaultCacheDir } from '../scoring/cache/identity';
import type { ModelConfig } from '../protocol/analysis';
import { SCORER_CHOICES, type ScorerChoice } from '../core/scorerChoice';
import { planScorer, trustedValue, type ModelTarget, type ScorerNotice, type SettingLevels, type TrustedValue } from './scorerChoice';
import { settingIds } from './settingIds';

/** Where the host keeps what model scorers need. */
export interface ModelEnvironment {
  /** The bundled ONNX worker, `dist/onnxWorker.js` of the extension. */
  onnxWorkerPath: string;
  /** The persistent score cache's folder. */
  cacheDir: string;
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

function toConfig(target: ModelTarget | null, env: ModelEnvironment): ModelConfig | null {
  if (!target) return null;
  return target.kind === 'onnx'
    ? { kind: 'onnx', modelDir: target.modelDir, workerPath: env.onnxWorkerPath, cacheDir: env.cacheDir }
    : { kind: 'http', url: target.url, cacheDir: env.cacheDir };
}

/** Reads the scorer settings, honouring workspace trust. */
export function readScorerPlan(env: ModelEnvironment, scope?: vscode.ConfigurationScope): HostScorerPlan {
  const config = vscode.workspace.getConfiguration(undefined, scope);
  const choice = config.get<string>(settingIds.scorer) ?? 'auto';
  const plan = planScorer({
    choice: SCORER_CHOICES.includes(choice as ScorerChoice) ? (choice as ScorerChoice) : 'auto',
    modelPath: levels(config, settingIds.modelPath),
    endpointUrl: levels(config, settingIds.endpointUrl),
    isTrusted: vscode.workspace.isTrusted,
    paths: { workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath },
  });
  return { choice: plan.choice, model: toConfig(plan.model, env), notice: plan.notice };
}

/** The model folder and endpoint that apply (trust honoured), for the scorer picker. */
export function readModelSettings(): { modelPath: TrustedValue; endpointUrl: TrustedValue } {
  const config = vscode.workspace.getConfiguration();
  return {
    modelPath: trustedValue(levels(config, settingIds.modelPath), vscode.workspace.isTrusted),
    endpointUrl: trustedValue(levels(config, settingIds.endpointUrl), vscode.workspace.isTrusted),
  };
}

/**
 * The extension's model paths: its bundled ONNX worker, and the score cache in its global storage
 * (so the cache goes with the extension), or the shared default cache when that is not on disk.
 */
export function modelEnvironment(context: vscode.ExtensionContext): ModelEnvironment {
  const storage = context.globalStorageUri;
  return {
    onnxWorkerPath: context.asAbsolutePath('dist/onnxWorker.js'),
    cacheDir: storage.scheme === 'file' ? vscode.Uri.joinPath(storage, 'score-cache').fsPath : defaultCacheDir(),
  };
}

/** A planner bound to the extension's paths. */
export function scorerPlanner(env: ModelEnvironment): ScorerPlanner {
  return (scope) => readScorerPlan(env, scope);
}
