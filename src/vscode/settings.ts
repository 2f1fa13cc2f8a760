/**
 * The extension's settings: ids declared once (a unit test checks them against package.json),
 * read with validation so a bad value falls back to its default instead of breaking analysis.
 */
import * as vscode from 'vscode';
import { FALSE_POSITIVE_RULES, FIELD_ROLES, validateSettings, resolveSettings } from '../core/profSettings';
import type { FalsePositiveRule, FieldRole, ProfSettings } from '../core/profSettings';
import { SCORER_CHOICES, type ScorerChoice } from '../core/scorerChoice';
import { trustedValue } from './scorerFromSettings';
import { DEFAULT_SUMMARY_TEMPLATE, settingIds } from './settingIds';
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
    falsePositiveRules: rules?.filter((r): r is FalsePositiveRule => FALSE_POSITIVE_RULES.includes(r as FalsePositiveRule)),
    fields: Object.fromEntries(
      Object.entries(fields).filter(([role, path]) => (FIELD_ROLES as readonly string[]).includes(role) && typeof path === 'string'),
    ) as Partial<Record<FieldRole, string>>,
  };
  return prof;
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

/** Reads and validates the settings for a document (or the window when none is given). */
export function readSettings(scope?: vscode.ConfigurationScope): ExtensionSettings {
  const config = vscode.workspace.getConfiguration('profLens', scope);
  const problems: string[] = [];
  const prof = validProf(readProf(config, problems), problems);
  const scorer = config.get<string>(key(settingIds.scorer)) ?? 'auto';
  const template = config.get<string>(key(settingIds.summaryTemplate));
  return {
    prof,
    scorer: SCORER_CHOICES.includes(scorer as ScorerChoice) ? (scorer as ScorerChoice) : 'auto',
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

/** True when a configuration change touches any PROF Lens setting. */
export function affectsProfLens(event: vscode.ConfigurationChangeEvent): boolean {
  return event.affectsConfiguration('profLens');
}

/** The current settings, re-read when any `profLens.*` setting changes. */
export class LiveSettings implements vscode.Disposable {
  private value = readSettings();
  private readonly changes = new vscode.EventEmitter<ExtensionSettings>();
  private readonly subscription: vscode.Disposable;
  /** Fires after the settings were re-read, and when the workspace becomes trusted (its model settings then apply). */
  readonly onDidChange = this.changes.event;

  constructor() {
    this.reportProblems();
    const reread = (): void => {
      this.value = readSettings();
      this.reportProblems();
      this.changes.fire(this.value);
    };
    this.subscription = vscode.Disposable.from(
      vscode.workspace.onDidChangeConfiguration((event) => affectsProfLens(event) && reread()),
      vscode.workspace.onDidGrantWorkspaceTrust(reread),
    );
  }

  get current(): ExtensionSettings {
    return this.value;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changes.dispose();
  }

  private reportProblems(): void {
    if (this.value.problems.length === 0) return;
    void showWarning(`PROF Lens settings: ${this.value.problems.join('; ')}`);
  }
}
