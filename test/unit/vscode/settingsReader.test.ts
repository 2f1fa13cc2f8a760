/**
 * Settings are read in one place: src/vscode/settings.ts. Every other file of the editor's code
 * goes through its getters, so a setting is validated once and trust is applied once; and every
 * setting says whether changing it needs the open files analysed again.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { liveSettingIds, reanalysisSettingIds, settingIds } from '../../../src/vscode/settingIds';

const root = join(__dirname, '../../..');

function files(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('the settings reader', () => {
  it('is the only file of src/vscode (and the extension entry) that reads or writes the configuration', () => {
    const readers = [...files(join(root, 'src/vscode')), join(root, 'src/extension.ts')]
      .filter((path) => /\bgetConfiguration\s*\(/.test(readFileSync(path, 'utf8')))
      .map((path) => relative(root, path));
    expect(readers).toEqual(['src/vscode/settings.ts']);
  });

  it('validates the scorer setting in one place', () => {
    const validating = files(join(root, 'src/vscode')).filter((path) => /SCORER_CHOICES\.includes/.test(readFileSync(path, 'utf8'))).map((path) => relative(root, path));
    expect(validating).toEqual(['src/vscode/settings.ts']);
  });

  it('says of every setting whether its change needs a re-analysis', () => {
    const all = Object.values(settingIds);
    const classified = [...reanalysisSettingIds, ...liveSettingIds];
    expect([...classified].sort()).toEqual([...all].sort());
    expect(new Set(classified).size).toBe(classified.length);
    // What scores, splits and decides is analysed again; a display switch is not.
    for (const id of [settingIds.scorer, settingIds.modelPath, settingIds.split, settingIds.m, settingIds.fields]) expect(reanalysisSettingIds).toContain(id);
    expect(reanalysisSettingIds).not.toContain(settingIds.decorationsEnabled);
  });
});
