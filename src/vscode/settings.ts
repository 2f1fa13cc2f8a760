/**
 * The one settings reader: every feature reads its settings here (a unit test checks that no
 * other file of src/vscode calls `getConfiguration`). Ids are declared once in settingIds.ts (a
 * unit test checks them against package.json); values are read with validation so a bad value
 * falls back to its default instead of breaking analysis; the settings whose change needs a
 * re-analysis are listed in `reanalysisSettingIds`.
 */
import * as vscode from 'vscode';
import { FALSE_POSITIVE_RULES, FIELD_ROLES, validateSettings, resolveSettings } from '../core/profSettings';
import type { FalsePositiveRule, FieldRole, ProfSettings } from '../core/profSettings';
import { SCORER_CHOICES, type ScorerChoice } from '../core/scorerChoice';
import { ruleProblems } from '../core/rules/registry';
import { trustedValue, type SettingLevels } from './scorerFromSettings';
import { DEFAULT_SUMMARY_TEMPLATE, reanalysisSettingIds, settingIds } from './settingIds';
import { showWarning } from './notify';

/** Everything the extension reads from settings, validated. */
export interface ExtensionSettings {
  prof: Partial<ProfSettings>;
  scorer: ScorerChoice;
  threshold: number;
  /** The user set the threshold (at any level): analyses use it as given, never a calibrated one. */
  isThresholdGiven: boolean;
  isDecorationEnabled: boolean;
  summaryTemplate: string;
  isCodeLensEnabled: boolean;
  debounceMs: number;
  maxProblems: number;
  /** Messages about values that were ignored, shown once in the output channel. */
  problems: string[];
}


function key(id: string): string {
  return id.slice('profLens.'.length);
}

/**
 * The split rule: a restricted setting (a workspace's own pattern is code run on its files), so in
 * an untrusted workspace only the user's value counts; a workspace value then set is reported.
 */
function readSplit(config: vscode.WorkspaceConfiguration, problems: string[]): string | undefined {
  return readRestricted(config, settingIds.split, problems);
}

/** A restricted setting's value: in an untrusted workspace, only the user's own. */
function readRestricted(config: vscode.WorkspaceConfiguration, id: string, problems: string[]): string | undefined {
  const inspected = config.inspect<unknown>(key(id));
  const levels = { user: inspected?.globalValue, workspace: inspected?.workspaceValue, folder: inspected?.workspaceFolderValue };
  const trusted = trustedValue(levels, vscode.workspace.isTrusted);
  if (trusted.isWorkspaceValueIgnored) problems.push(`this workspace's ${id} is ignored until the workspace is trusted`);
  return trusted.value ?? undefined;
}

/** The folder of the tokenizer that decodes token-id traces (a path: restricted like the model folder). */
function readTokenizerFolder(config: vscode.WorkspaceConfiguration, problems: string[]): string | undefined {
  const value = readRestricted(config, settingIds.tokenizerFolder, problems);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function readProf(config: vscode.WorkspaceConfiguration, problems: string[]): Partial<ProfSettings> {
  const get = <T>(id: string): T | undefined => config.get<T>(key(id));
  const rules = get<string[]>(settingIds.falsePositiveRules);
  const fields = get<Record<string, string>>(settingIds.fields) ?? {};
  const prof: Partial<ProfSettings> = {
    m: get<number>(settingIds.m),
    remove: get<number | null>(settingIds.remove) ?? null,
    variant: get<ProfSettings['variant']>(settingIds.variant),
    seed: get<number>(settingIds.seed),
    penalty: get<ProfSettings['penalty']>(settingIds.penalty),
    lambda: get<number>(settingIds.lambda),
    maxSteps: get<number>(settingIds.maxSteps),
    aggregate: get<ProfSettings['aggregate']>(settingIds.aggregate),
    threshold: get<number>(settingIds.threshold),
    split: readSplit(config, problems),
    tokenizerDir: readTokenizerFolder(config, problems),
    curation: readCuration(get<string>(settingIds.curationRule), get<Record<string, unknown>>(settingIds.curationParams), problems),
    falsePositiveRules: rules?.filter((r): r is FalsePositiveRule => FALSE_POSITIVE_RULES.includes(r as FalsePositiveRule)),
    fields: Object.fromEntries(
      Object.entries(fields).filter(([role, path]) => (FIELD_ROLES as readonly string[]).includes(role) && typeof path === 'string'),
    ) as Partial<Record<FieldRole, string>>,
  };
  return prof;
}

/** The curation rule and its parameters; PROF (undefined) when unset or not valid, which is reported. */
function readCuration(rule: string | undefined, given: Record<string, unknown> | undefined, problems: string[]): ProfSettings['curation'] {
  if (!rule || rule === 'prof') return undefined;
  const params: Record<string, number | boolean | string | null> = {};
  for (const [name, value] of Object.entries(given ?? {})) {
    if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string' || value === null) params[name] = value;
  }
  const choice = { rule, params };
  const issues = ruleProblems(choice);
  if (issues.length === 0) return choice;
  problems.push(...issues.map((issue) => `${issue} (using PROF)`));
  return undefined;
}

/** Keeps only the PROF settings that validate; each rejected one is reported. */
function validProf(prof: Partial<ProfSettings>, problems: string[]): Partial<ProfSettings> {
  const accepted: Partial<ProfSettings> = {};
  for (const [name, value] of Object.entries(prof) as [keyof ProfSettings, unknown][]) {
    if (value === undefined) continue;
    const issues = validateSettings(resolveSettings({ [name]: value }));
    if (issues.length > 0) problems.push(...issues.map((issue) => `${issue} (using the default)`));
    else (accepted as Record<string, unknown>)[name] = value;
  }
  return accepted;
}

/** Whether any level (user, workspace, folder) sets the setting, rather than leaving its default. */
function isSetByUser(config: vscode.WorkspaceConfiguration, id: string): boolean {
  const inspected = config.inspect<unknown>(key(id));
  return [inspected?.globalValue, inspected?.workspaceValue, inspected?.workspaceFolderValue].some((v) => v !== undefined);
}

function clampInteger(value: number | undefined, fallback: number, min: number, max: number): number {
  return typeof value === 'number' && Number.isInteger(value) ? Math.min(max, Math.max(min, value)) : fallback;
}

/** The scorer setting, validated: the one place it is (an unknown value reads as `auto`). */
function scorerOf(config: vscode.WorkspaceConfiguration): ScorerChoice {
  const scorer = config.get<unknown>(key(settingIds.scorer));
  return SCORER_CHOICES.includes(scorer as ScorerChoice) ? (scorer as ScorerChoice) : 'auto';
}

/** Reads and validates the settings for a document (or the window when none is given). */
export function readSettings(scope?: vscode.ConfigurationScope): ExtensionSettings {
  const config = vscode.workspace.getConfiguration('profLens', scope);
  const problems: string[] = [];
  const prof = validProf(readProf(config, problems), problems);
  const template = config.get<string>(key(settingIds.summaryTemplate));
  return {
    prof,
    scorer: scorerOf(config),
    threshold: resolveSettings(prof).threshold,
    isThresholdGiven: isSetByUser(config, settingIds.threshold) && prof.threshold !== undefined,
    isDecorationEnabled: config.get<boolean>(key(settingIds.decorationsEnabled)) ?? true,
    summaryTemplate: template && template.trim() !== '' ? template : DEFAULT_SUMMARY_TEMPLATE,
    isCodeLensEnabled: config.get<boolean>(key(settingIds.codeLens)) ?? true,
    debounceMs: clampInteger(config.get<number>(key(settingIds.debounceMs)), 400, 50, 5_000),
    maxProblems: clampInteger(config.get<number>(key(settingIds.maxProblems)), 500, 0, 100_000),
    problems,
  };
}

/** The scorer choice for a document (or the window). */
export function readScorerChoice(scope?: vscode.ConfigurationScope): ScorerChoice {
  return scorerOf(vscode.workspace.getConfiguration('profLens', scope));
}

/** A setting's value at each level (user, workspace, folder), for the trust rules to weigh. */
export function settingLevels(id: string, scope?: vscode.ConfigurationScope): SettingLevels {
  const inspected = vscode.workspace.getConfiguration('profLens', scope).inspect<unknown>(key(id));
  return { user: inspected?.globalValue, workspace: inspected?.workspaceValue, folder: inspected?.workspaceFolderValue };
}

/** The critic's model name and `max_tokens` (ordinary settings: they cannot send anything anywhere). */
export function readCriticSettings(scope?: vscode.ConfigurationScope): { modelName?: string; maxTokens?: number } {
  const config = vscode.workspace.getConfiguration('profLens', scope);
  const name = config.get<unknown>(key(settingIds.criticModel));
  const maxTokens = config.get<unknown>(key(settingIds.criticMaxTokens));
  return {
    ...(typeof name === 'string' && name.trim() !== '' ? { modelName: name.trim() } : {}),
    ...(typeof maxTokens === 'number' && Number.isInteger(maxTokens) && maxTokens > 0 ? { maxTokens } : {}),
  };
}

/** Whether the end-of-line summaries are on (window scope). */
export function readDecorationsEnabled(): boolean {
  return vscode.workspace.getConfiguration('profLens').get<boolean>(key(settingIds.decorationsEnabled)) ?? true;
}

/** Whether responses are tinted by their tokens' log-probability or entropy (off by default). */
export function readTokenHeat(): boolean {
  return vscode.workspace.getConfiguration('profLens').get<boolean>(key(settingIds.tokenHeat)) ?? false;
}

/** Writes a PROF Lens setting (the scorer picker, the decorations toggle). */
export async function updateSetting(id: string, value: unknown, target: vscode.ConfigurationTarget): Promise<void> {
  await vscode.workspace.getConfiguration('profLens').update(key(id), value, target);
}

/** The editor stops rendering a line after this many characters (`editor.stopRenderingLineAfter`; -1: never). */
export function editorRenderLimit(document: vscode.TextDocument): number {
  return vscode.workspace.getConfiguration('editor', document).get<number>('stopRenderingLineAfter') ?? 10_000;
}

/** True when a configuration change touches any PROF Lens setting. */
export function affectsProfLens(event: vscode.ConfigurationChangeEvent): boolean {
  return event.affectsConfiguration('profLens');
}

/** True when a change touches a setting analyses are made with (see `reanalysisSettingIds`). */
export function needsReanalysis(event: vscode.ConfigurationChangeEvent): boolean {
  return reanalysisSettingIds.some((id) => event.affectsConfiguration(id));
}

/** True when a change touches the scorer settings (the scorer, its model, its endpoints). */
export function affectsScoring(event: vscode.ConfigurationChangeEvent): boolean {
  return event.affectsConfiguration('profLens.scoring');
}

/** The current settings, re-read when any `profLens.*` setting changes. */
export class LiveSettings implements vscode.Disposable {
  private value = readSettings();
  private readonly changes = new vscode.EventEmitter<ExtensionSettings>();
  private readonly analysisChanges = new vscode.EventEmitter<ExtensionSettings>();
  private readonly subscription: vscode.Disposable;
  /** Fires after the settings were re-read, and when the workspace becomes trusted (its model settings then apply). */
  readonly onDidChange = this.changes.event;
  /** Fires after `onDidChange` when what analyses are made with changed: open rollout files are analysed again. */
  readonly onDidChangeAnalysis = this.analysisChanges.event;

  constructor() {
    this.reportProblems();
    const reread = (isAnalysisChanged: boolean): void => {
      this.value = readSettings();
      this.reportProblems();
      this.changes.fire(this.value);
      if (isAnalysisChanged) this.analysisChanges.fire(this.value);
    };
    this.subscription = vscode.Disposable.from(
      vscode.workspace.onDidChangeConfiguration((event) => affectsProfLens(event) && reread(needsReanalysis(event))),
      vscode.workspace.onDidGrantWorkspaceTrust(() => reread(true)),
    );
  }

  get current(): ExtensionSettings {
    return this.value;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changes.dispose();
    this.analysisChanges.dispose();
  }

  private reportProblems(): void {
    if (this.value.problems.length === 0) return;
    void showWarning(`PROF Lens settings: ${this.value.problems.join('; ')}`);
  }
}
