import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandIds } from '../../../src/vscode/commandIds';
import { themeColorIds } from '../../../src/vscode/presentation';
import { restrictedSettingIds, settingIds } from '../../../src/vscode/settingIds';
import { SCORER_CHOICES } from '../../../src/protocol/analysis';

const ROOT = join(__dirname, '../../..');

interface Manifest {
  main: string;
  activationEvents: string[];
  capabilities: { untrustedWorkspaces: { supported: string; restrictedConfigurations: string[] } };
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    keybindings: { command: string; key: string }[];
    menus: { commandPalette: { command: string }[] };
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

  it('groups settings in the titled sections scoring, steps, PROF, display, fields', () => {
    expect(manifest.contributes.configuration.map((s) => s.title)).toEqual(['Scoring', 'Steps', 'PROF', 'Display', 'Fields']);
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

  it('activates on JSON Lines and JSON files, not on startup', () => {
    expect(manifest.activationEvents).toEqual(expect.arrayContaining(['onLanguage:jsonl', 'onLanguage:json']));
    expect(manifest.activationEvents).not.toContain('*');
    expect(manifest.activationEvents).not.toContain('onStartupFinished');
  });
});

describe('settings defaults', () => {
  it('uses the same summary template default in code and package.json', async () => {
    const { DEFAULT_SUMMARY_TEMPLATE } = await import('../../../src/vscode/settingIds');
    const display = manifest.contributes.configuration.find((s) => s.title === 'Display');
    expect(display?.properties[settingIds.summaryTemplate]?.default).toBe(DEFAULT_SUMMARY_TEMPLATE);
  });
});
