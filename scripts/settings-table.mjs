#!/usr/bin/env node
// Prints the settings table of docs/settings.md from package.json: every `profLens.*` setting, its default and
// its description, by section. A unit test checks that docs/settings.md holds exactly this table, so
// paste the output into docs/settings.md after changing a setting.
//
// Usage: node scripts/settings-table.mjs
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function describe(property) {
  const text = property.markdownDescription ?? property.description ?? '';
  // `#profLens.x.y#` is VS Code's link to another setting; in the README it is just a name.
  const plain = text.replace(/`#(profLens\.[\w.]+)#`/g, '`$1`').replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
  return property.enum ? `${plain} One of ${property.enum.map((v) => `\`${v}\``).join(', ')}.` : plain;
}

/**
 * The markdown table of every setting a manifest contributes.
 * @param {{ contributes: { configuration: { title: string, properties: Record<string, any> }[] } }} manifest
 * @returns {string}
 */
export function settingsTable(manifest) {
  const rows = ['| setting | default | what it does |', '|---|---|---|'];
  for (const section of manifest.contributes.configuration) {
    for (const [id, property] of Object.entries(section.properties)) {
      rows.push(`| \`${id}\` | \`${JSON.stringify(property.default)}\` | ${describe(property)} |`);
    }
  }
  return `${rows.join('\n')}\n`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.stdout.write(settingsTable(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))));
}
