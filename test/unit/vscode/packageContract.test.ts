import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandIds, ROLLOUT_FILE_CONTEXT } from '../../../src/vscode/commandIds';
import { renderRollouts, ROLLOUT_VIEW_LANGUAGE } from '../../../src/vscode/rolloutViewRender';
import { themeColorIds } from '../../../src/vscode/marks';
import { restrictedSettingIds, settingIds } from '../../../src/vscode/settingIds';
import { SCORER_CHOICES } from '../../../src/core/scorerChoice';

const ROOT = join(__dirname, '../../..');

interface Manifest {
  main: string;
  activationEvents: string[];
  capabilities: { untrustedWorkspaces: { supported: string; restrictedConfigurations: string[] } };
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    keybindings: { command: string; key: string; when: string }[];
    menus: { commandPalette: { command: string; when?: string }[] };
    languages: { id: string; aliases: string[]; firstLine?: string; extensions?: string[] }[];
    grammars: { language: string; path: string }[];
    configurationDefaults: Record<string, Record<string, unknown>>;
    configuration: { title: string; properties: Record<string, { enum?: string[]; default?: unknown }> }[];
    colors: { id: string }[];
  };
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;
const declaredCommands = manifest.contributes.commands.map((c) => c.command);
const declaredSettings = manifest.contributes.configuration.flatMap((s) => Object.keys(s.properties));

function sourceText(dir: string): string {
  return readdirSync(dir).map((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceText(path) : path.endsWith('.ts') ? readFileSync(path, 'utf8') : '';
  }).join('\n');
}

describe('package.json matches the extension code', () => {
  it('declares every command the extension registers, each with a title in the PROF Lens category', () => {
    for (const id of Object.values(commandIds)) {
      const entry = manifest.contributes.commands.find((c) => c.command === id);
      expect(entry, id).toBeDefined();
      expect(entry?.category).toBe('PROF Lens');
    }
  });

  it('declares no command that no code registers', () => {
    const source = sourceText(join(ROOT, 'src'));
    for (const id of declaredCommands) expect(source, id).toContain(`'${id}'`);
  });

  it('names commands profLens.verbNoun and settings profLens.area.key', () => {
    for (const id of declaredCommands) expect(id).toMatch(/^profLens\.[a-z]+[A-Z][A-Za-z]*$/);
    for (const id of declaredSettings) expect(id).toMatch(/^profLens\.[a-z]+\.[a-zA-Z]+$/);
  });

  it('declares every setting the code reads, and reads every setting it declares', () => {
    expect([...declaredSettings].sort()).toEqual([...Object.values(settingIds)].sort());
  });

  it('groups settings in the titled sections scoring, steps, PROF, curation, display, fields, inputs', () => {
    expect(manifest.contributes.configuration.map((s) => s.title)).toEqual(['Scoring', 'Steps', 'PROF', 'Curation', 'Display', 'Fields', 'Inputs']);
    for (const section of manifest.contributes.configuration) {
      const area = section.title.toLowerCase();
      for (const id of Object.keys(section.properties)) expect(id.startsWith(`profLens.${area}.`), id).toBe(true);
    }
  });

  it('offers exactly the scorers the worker accepts', () => {
    const scorer = manifest.contributes.configuration.flatMap((s) => Object.entries(s.properties)).find(([id]) => id === settingIds.scorer);
    expect(scorer?.[1].enum).toEqual([...SCORER_CHOICES]);
  });

  it('restricts model paths, endpoint URLs and split patterns in untrusted workspaces', () => {
    const trust = manifest.capabilities.untrustedWorkspaces;
    expect(trust.supported).toBe('limited');
    expect([...trust.restrictedConfigurations].sort()).toEqual([...restrictedSettingIds].sort());
  });

  it('declares every theme colour the decorations use', () => {
    const colors = manifest.contributes.colors.map((c) => c.id);
    for (const id of themeColorIds()) expect(colors, id).toContain(id);
  });

  it('binds keys and palette entries only to declared commands', () => {
    for (const binding of manifest.contributes.keybindings) expect(declaredCommands).toContain(binding.command);
    for (const entry of manifest.contributes.menus.commandPalette) expect(declaredCommands).toContain(entry.command);
  });

  it('activates on JSON Lines (and its own panels) and in a workspace that holds them, not on every JSON file, not on every startup', () => {
    expect(manifest.activationEvents).toContain('onLanguage:jsonl');
    // Its analysis worker then starts before the first rollout file is opened.
    expect(manifest.activationEvents).toContain('workspaceContains:**/*.jsonl');
    expect(manifest.activationEvents.filter((e) => e.startsWith('workspaceContains:'))).toEqual(['workspaceContains:**/*.jsonl']);
    expect(manifest.activationEvents).not.toContain('onLanguage:json');
    expect(manifest.activationEvents).not.toContain('*');
    expect(manifest.activationEvents).not.toContain('onStartupFinished');
  });

  it('offers rollout commands and takes Alt+] … only in analysed rollout files and Rollout Views', () => {
    const onlyThere = `(${ROLLOUT_FILE_CONTEXT} || resourceScheme == prof-lens-rollout)`;
    for (const binding of manifest.contributes.keybindings) expect(binding.when).toContain(onlyThere);
    const palette = manifest.contributes.menus.commandPalette;
    // The sidebar's own reveal and open-step commands are never offered in the palette (they need a node to act on).
    const sidebarOnly: string[] = [commandIds.revealRollout, commandIds.openRunStep];
    for (const command of sidebarOnly) expect(palette.find((e) => e.command === command)?.when, command).toBe('false');
    const offered = palette.filter((e) => e.command !== commandIds.analyseFile && !sidebarOnly.includes(e.command));
    for (const entry of offered) expect(entry.when, entry.command).toBe(onlyThere);
    expect(palette.find((e) => e.command === commandIds.analyseFile)?.when).toContain(`!${ROLLOUT_FILE_CONTEXT}`);
    expect(JSON.stringify(manifest.contributes.menus)).not.toMatch(/editorLangId == json(?!l)[^&]*\|\|/);
  });

  it('gives the Rollout View its own language (not Markdown), found by the first line the view renders, with links off and long lines wrapped', () => {
    const language = manifest.contributes.languages.find((l) => l.id === ROLLOUT_VIEW_LANGUAGE);
    expect(language?.extensions).toBeUndefined();
    const rendered = renderRollouts([{
      id: 6, line: 12, index: 1, group: 'g', gold: '4', rawSteps: null, stepScores: [0.9], stepNotes: [null], scorer: 'file',
      outcome: { kind: 'correct', source: 'file', extracted: '4' }, firstLowStep: null, falsePositive: { suspected: false, rules: [], evidence: null, strength: null },
      lowSteps: [], weakestStep: { step: 0, score: 0.9 }, isScored: true, evidence: null,
      decision: { id: 6, kept: true, reason: 'kept', steps: 1, score: 0.9, consistency: 0.9, penalised: true, rank: 1 },
      prompt: 'What is [2](command:workbench.action.quit) + 2?', response: 'It is 4.', steps: [{ index: 0, text: 'It is 4.', start: 0, end: 8 }],
    }], { fileLabel: 'rollouts.jsonl', settings: { lambda: 10, maxSteps: 30, penalty: 'card' } });
    const firstLine = rendered.text.slice(0, rendered.text.indexOf('\n') + 1);
    expect(new RegExp(language?.firstLine ?? '$^').test(firstLine)).toBe(true);
    expect(manifest.contributes.grammars.find((g) => g.language === ROLLOUT_VIEW_LANGUAGE)?.path).toBe('./media/rollout-view.tmLanguage.json');
    expect(manifest.contributes.configurationDefaults[`[${ROLLOUT_VIEW_LANGUAGE}]`]).toEqual({ 'editor.links': false, 'editor.wordWrap': 'on' });
  });
});

describe('settings defaults', () => {
  it('uses the same summary template default in code and package.json', async () => {
    const { DEFAULT_SUMMARY_TEMPLATE } = await import('../../../src/vscode/settingIds');
    const display = manifest.contributes.configuration.find((s) => s.title === 'Display');
    expect(display?.properties[settingIds.summaryTemplate]?.default).toBe(DEFAULT_SUMMARY_TEMPLATE);
  });
});
