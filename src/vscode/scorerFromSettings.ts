/**
 * Which scorer and which model an analysis uses, from the settings and workspace trust. Pure (no
 * `vscode` import), so the rules are tested with plain Node:
 * - `auto`: the file's step scores, else the model folder, else the PRM endpoints, else the checker
 *   (never the critic: it sends rollouts to a chat model, only when the user chose it);
 * - `file`, `checker`: no model;
 * - `onnx` / `http` / `critic`: the model folder / the PRM endpoints / the critic endpoints, or the
 *   checker with a notice saying why not.
 * An untrusted workspace's own model path and endpoint URLs are never used: a checked-out repository
 * must not make the editor load a binary or send rollouts to a server. Only user settings count.
 */
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { ScorerChoice } from '../core/scorerChoice';
import { settingIds } from './settingIds';

/** A setting's value at each level, as `WorkspaceConfiguration.inspect` reports it. */
export interface SettingLevels {
  user?: unknown;
  workspace?: unknown;
  folder?: unknown;
}

/** The value that applies once workspace trust is honoured. */
export interface TrustedValue {
  value: string | null;
  /** Where `value` came from. */
  level: 'user' | 'workspace' | 'folder' | null;
  /** The workspace set a value that was ignored because the workspace is not trusted. */
  isWorkspaceValueIgnored: boolean;
}

/** The model an analysis should use. */
export type ModelTarget = { kind: 'onnx'; modelDir: string } | { kind: 'http'; urls: string[] } | { kind: 'critic'; urls: string[] };

/** Why the configured model is not used, for the status bar (`short`) and a notification. */
export interface ScorerNotice {
  short: string;
  message: string;
  /** True for failures (a model that did not load), false for how the settings are. */
  isError: boolean;
  /** Shown in the status bar only: the user caused it a moment ago (declined to send). */
  isQuiet?: boolean;
}

/** The scorer settings of one analysis. */
export interface ScorerSettings {
  choice: ScorerChoice;
  modelPath: SettingLevels;
  endpointUrl: SettingLevels;
  /** The critic's endpoints; absent → none. */
  criticUrl?: SettingLevels;
  isTrusted: boolean;
  /** For `~` and for relative model folders set by the workspace. */
  paths?: PathBase;
}

/** What model folder paths are resolved against. */
export interface PathBase {
  home?: string;
  workspaceFolder?: string;
}

/** What the analysis will use. */
export interface ScorerPlan {
  choice: ScorerChoice;
  model: ModelTarget | null;
  notice: ScorerNotice | null;
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** The value of a restricted setting: any level when trusted, only the user's otherwise. */
export function trustedValue(levels: SettingLevels, isTrusted: boolean): TrustedValue {
  const user = nonEmpty(levels.user);
  const workspace = nonEmpty(levels.workspace);
  const folder = nonEmpty(levels.folder);
  if (isTrusted) {
    if (folder !== undefined) return { value: folder, level: 'folder', isWorkspaceValueIgnored: false };
    if (workspace !== undefined) return { value: workspace, level: 'workspace', isWorkspaceValueIgnored: false };
  }
  const isWorkspaceValueIgnored = !isTrusted && (workspace !== undefined || folder !== undefined);
  return { value: user ?? null, level: user === undefined ? null : 'user', isWorkspaceValueIgnored };
}

/** URLs from a setting that takes one URL or a list of them; blanks and non-strings dropped. */
export function urlList(value: unknown): string[] {
  const values = Array.isArray(value) ? value : [value];
  return values.flatMap((v) => (typeof v === 'string' && v.trim() !== '' ? [v.trim()] : []));
}

/** A restricted list setting's URLs (any level when trusted, only the user's otherwise). */
export function trustedUrls(levels: SettingLevels, isTrusted: boolean): TrustedValue & { urls: string[] } {
  const joined = (value: unknown): string | undefined => (urlList(value).length > 0 ? JSON.stringify(urlList(value)) : undefined);
  const found = trustedValue({ user: joined(levels.user), workspace: joined(levels.workspace), folder: joined(levels.folder) }, isTrusted);
  const urls = found.value === null ? [] : (JSON.parse(found.value) as string[]);
  return { ...found, value: urls.length > 0 ? urls.join(', ') : null, urls };
}

/**
 * A model folder as a path: `~` is the home folder, and a relative path set by the workspace is
 * relative to its first folder (a user-level relative path is left to fail with its own name).
 */
export function resolveModelDir(path: TrustedValue & { value: string }, base: PathBase = {}): string {
  const home = base.home ?? homedir();
  if (path.value === '~') return home;
  if (path.value.startsWith('~/')) return join(home, path.value.slice(2));
  if (isAbsolute(path.value) || path.level === 'user' || !base.workspaceFolder) return path.value;
  return resolve(base.workspaceFolder, path.value);
}

const KIND_SETTING = { onnx: settingIds.modelPath, http: settingIds.endpointUrl, critic: settingIds.criticEndpointUrl } as const;
const KIND_WANTS = {
  onnx: 'a model folder (model.onnx, tokenizer.json, tokenizer_config.json, prof-lens.json)',
  http: 'the base URL of a vLLM server running a process reward model, e.g. http://127.0.0.1:8000',
  critic: 'the base URL of an OpenAI-compatible server running a chat model, e.g. http://127.0.0.1:8000',
} as const;
const KIND_MISSING = { onnx: 'no model folder set', http: 'no endpoint set', critic: 'no critic endpoint set' } as const;

function missingNotice(kind: 'onnx' | 'http' | 'critic', value: TrustedValue): ScorerNotice {
  const setting = KIND_SETTING[kind];
  if (value.isWorkspaceValueIgnored) {
    return {
      short: 'workspace model setting ignored',
      message: `This workspace is not trusted, so PROF Lens ignores its ${setting} setting. Trust the workspace, `
        + `or set ${setting} in your user settings. Scoring with the checker instead.`,
      isError: false,
    };
  }
  return {
    short: KIND_MISSING[kind],
    message: `${settingIds.scorer} is "${kind}" but ${setting} is not set: set it to ${KIND_WANTS[kind]}. `
      + 'Scoring with the checker instead.',
    isError: false,
  };
}

const UNTRUSTED_AUTO: ScorerNotice = {
  short: 'workspace model setting ignored',
  message: `This workspace is not trusted, so PROF Lens ignores its ${settingIds.modelPath} and ${settingIds.endpointUrl} `
    + 'settings. Trust the workspace, or set them in your user settings. Using the file\'s step scores, else the checker.',
  isError: false,
};

/** Decides the scorer and model for the settings. */
export function planScorer(settings: ScorerSettings): ScorerPlan {
  const { choice } = settings;
  if (choice === 'file' || choice === 'checker') return { choice, model: null, notice: null };
  const path = trustedValue(settings.modelPath, settings.isTrusted);
  const url = trustedUrls(settings.endpointUrl, settings.isTrusted);
  const onnx: ModelTarget | null = path.value === null ? null : { kind: 'onnx', modelDir: resolveModelDir({ ...path, value: path.value }, settings.paths) };
  const http: ModelTarget | null = url.urls.length === 0 ? null : { kind: 'http', urls: url.urls };
  if (choice === 'onnx') return { choice, model: onnx, notice: onnx ? null : missingNotice('onnx', path) };
  if (choice === 'http') return { choice, model: http, notice: http ? null : missingNotice('http', url) };
  if (choice === 'critic') {
    const critic = trustedUrls(settings.criticUrl ?? {}, settings.isTrusted);
    return { choice, model: critic.urls.length > 0 ? { kind: 'critic', urls: critic.urls } : null, notice: critic.urls.length > 0 ? null : missingNotice('critic', critic) };
  }
  const model = onnx ?? http;
  const isIgnored = path.isWorkspaceValueIgnored || url.isWorkspaceValueIgnored;
  return { choice, model, notice: model === null && isIgnored ? UNTRUSTED_AUTO : null };
}
