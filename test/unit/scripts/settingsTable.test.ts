/**
 * docs/settings.md documents every setting with its default: each `profLens.*` setting in package.json
 * has its row in that page's table, as scripts/settings-table.mjs writes it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { settingsTable } from '../../../scripts/settings-table.mjs';

const ROOT = join(__dirname, '../../..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, { default?: unknown }> }[] };
};
const readme = readFileSync(join(ROOT, 'docs', 'settings.md'), 'utf8');

describe('the settings table of docs/settings.md', () => {
  it('has a row with the default of every setting package.json declares', () => {
    const settings = manifest.contributes.configuration.flatMap((s) => Object.entries(s.properties));
    expect(settings.length).toBeGreaterThan(0);
    for (const [id, property] of settings) {
      const row = `| \`${id}\` | \`${JSON.stringify(property.default)}\` |`;
      expect(readme, `${id} is missing from docs/settings.md: run node scripts/settings-table.mjs and paste its table`).toContain(row);
    }
  });

  it('is generated from package.json: one header and one row per setting', () => {
    const rows = settingsTable(manifest).trim().split('\n');
    const count = manifest.contributes.configuration.reduce((n, s) => n + Object.keys(s.properties).length, 0);
    expect(rows).toHaveLength(count + 2);
    expect(rows[0]).toBe('| setting | default | what it does |');
  });
});
