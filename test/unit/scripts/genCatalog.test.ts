/**
 * A curation rule is one file of src/core/rules/catalog/ and a trainer's format one file of
 * src/core/formats/catalog/: what lists them (the registry, the trainer formats' order, the reason
 * codes and format ids, package.json's rule setting) is written by scripts/gen-catalog.mjs. These
 * tests fail when a generated file is stale, and check that the generator refuses a catalog that
 * contradicts itself, naming the files.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { catalogFiles, catalogOutputs, staleCatalogFiles } from '../../../scripts/gen-catalog.mjs';
import { RULES } from '../../../src/core/rules/registry';
import { TRAINER_FORMATS } from '../../../src/core/formats/trainerCatalog';
import { REASON_CODES, REASON_WORDS, TRAINER_FORMAT_NAMES } from '../../../src/core/catalogWords';
import { REASONS } from '../../../src/core/table/rolloutTable';
import { REASON_LABELS } from '../../../src/core/presentation/reasonWords';
import { reasonShort } from '../../../src/core/explore/explorerWords';
import { formatName } from '../../../src/core/presentation/readingWords';

const ROOT = join(__dirname, '../../..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, { enum?: string[]; enumDescriptions?: string[] }> }[] };
};
const ruleSetting = manifest.contributes.configuration.map((s) => s.properties['profLens.curation.rule']).find((p) => p !== undefined);

/** A copy of what the generator reads, to break on purpose. */
function scratchRepository(): string {
  const dir = mkdtempSync(join(tmpdir(), 'prof-lens-catalog-'));
  for (const path of ['src/core', 'scripts', 'docs/settings.md', 'package.json']) cpSync(join(ROOT, path), join(dir, path), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}
const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe('the generated catalog', () => {
  it('is up to date with the catalog folders', async () => {
    expect(await staleCatalogFiles(ROOT), 'generated files are stale: run npm run gen:catalog').toEqual([]);
  }, 60_000);

  it('lists every rule file, in declared order, and package.json offers each with its summary', () => {
    const files = catalogFiles(ROOT, 'src/core/rules/catalog');
    expect(RULES).toHaveLength(files.length);
    expect(RULES.map((r) => r.name)).toEqual(['prof', 'grpo', 'prime', 'gfpo', 'fapo', 'roc']);
    expect(RULES.map((r) => r.order)).toEqual([...RULES.map((r) => r.order)].sort((a, b) => a - b));
    expect(ruleSetting?.enum).toEqual(RULES.map((r) => r.name));
    expect(ruleSetting?.enumDescriptions).toEqual(RULES.map((r) => r.summary));
  });

  it('lists every trainer format file, tried in the order they were before the catalog', () => {
    expect(TRAINER_FORMATS).toHaveLength(catalogFiles(ROOT, 'src/core/formats/catalog').length);
    expect(TRAINER_FORMATS.map((f) => f.id)).toEqual(['trl', 'open-instruct', 'prime-rl', 'nemo-rl', 'slime', 'roll', 'areal', 'skyrl', 'nemo-gym']);
    for (const f of TRAINER_FORMATS) expect(formatName(f.id as keyof typeof TRAINER_FORMAT_NAMES)).toBe(f.name);
  });

  it('numbers PROF\'s reasons as the table always has, then the other rules\' keeps before their drops', () => {
    expect(REASONS).toEqual([
      'kept', 'kept-small-group', 'dropped-low-consistency', 'dropped-conflict', 'dropped-step-penalty', 'dropped-random',
      'dropped-tie', 'dropped-group-too-small', 'not-ranked-no-outcome', 'not-ranked-non-binary', 'not-ranked-no-scores',
      'kept-zero-advantage', 'kept-within-quota', 'kept-no-signal',
      'dropped-equal-rewards', 'dropped-outside-band', 'dropped-ranked-out', 'dropped-flawed-positive', 'dropped-below-sample-size',
    ]);
  });

  it('words every reason once, from the rule that declares it', () => {
    const declared = RULES.flatMap((r) => r.reasons);
    expect(declared.map((d) => d.code).sort()).toEqual([...REASON_CODES].sort());
    for (const d of declared) {
      expect(REASON_LABELS[d.code as keyof typeof REASON_LABELS]).toBe(d.words);
      expect(reasonShort(d.code as keyof typeof REASON_WORDS)).toBe(d.short);
    }
    expect(Object.keys(REASON_LABELS)).toEqual([...REASON_CODES]);
  });
});

describe('gen:catalog', () => {
  it('finds a new rule file: the lists, the reason codes and package.json go stale', async () => {
    const dir = scratchRepository();
    scratch.push(dir);
    const grpo = readFileSync(join(dir, 'src/core/rules/catalog/grpo.ts'), 'utf8');
    writeFileSync(join(dir, 'src/core/rules/catalog/keepAll.ts'), grpo
      .replace("name: 'grpo'", "name: 'keep-all'").replace('order: 10', 'order: 60')
      .replace("code: 'kept-zero-advantage'", "code: 'kept-by-keep-all'").replace("code: 'dropped-equal-rewards'", "code: 'dropped-by-keep-all'"));
    const outputs = await catalogOutputs(dir);
    expect(await staleCatalogFiles(dir, outputs)).toEqual(['src/core/catalogWords.ts', 'src/core/rules/ruleCatalog.ts', 'package.json', 'docs/settings.md']);
    expect(outputs.get('src/core/rules/ruleCatalog.ts')).toContain('[profRule, grpo, primeBand, gfpo, fapo, roc, keepAll]');
    // A new rule's keep comes after the earlier rules' keeps; its drop goes last.
    expect(outputs.get('src/core/catalogWords.ts')).toMatch(/'kept-no-signal',\n {2}'kept-by-keep-all',\n {2}'dropped-equal-rewards',[^\]]*'dropped-below-sample-size',\n {2}'dropped-by-keep-all',\n\]/);
    expect(outputs.get('docs/settings.md')).toContain('`fapo`, `roc`, `keep-all`.');
  }, 60_000);

  it('refuses two rules at one place, a reason declared twice or named without its family, and too many reasons', async () => {
    const dir = scratchRepository();
    scratch.push(dir);
    const path = join(dir, 'src/core/rules/catalog/grpo.ts');
    const grpo = readFileSync(path, 'utf8');
    writeFileSync(path, grpo.replace('order: 10', 'order: 20'));
    await expect(catalogOutputs(dir)).rejects.toThrow('src/core/rules/catalog/grpo.ts and src/core/rules/catalog/primeBand.ts both declare order 20');
    writeFileSync(path, grpo.replace("code: 'kept-zero-advantage'", "code: 'kept-no-signal'"));
    await expect(catalogOutputs(dir)).rejects.toThrow('src/core/rules/catalog/grpo.ts and src/core/rules/catalog/fapo.ts both declare the reason "kept-no-signal"');
    // The first word says whether a reason keeps: every surface colours it by that.
    writeFileSync(path, grpo.replace("code: 'kept-zero-advantage'", "code: 'zero-advantage'"));
    await expect(catalogOutputs(dir)).rejects.toThrow('src/core/rules/catalog/grpo.ts: reason "zero-advantage" must start with kept-, dropped- or not-ranked-');
    // More codes than the Explorer's reason filter has bits for.
    const many = Array.from({ length: 20 }, (_, i) => `{ code: 'dropped-${i}', words: 'dropped', short: 'dropped' }`).join(', ');
    writeFileSync(path, grpo.replace(/reasons: \[[\s\S]*?\n {2}\],/, `reasons: [${many}],`));
    await expect(catalogOutputs(dir)).rejects.toThrow('the rules declare 37 reason codes; at most 31 fit');
  }, 60_000);

  it('places a new trainer format by its order', async () => {
    const dir = scratchRepository();
    scratch.push(dir);
    const areal = readFileSync(join(dir, 'src/core/formats/catalog/areal.ts'), 'utf8');
    writeFileSync(join(dir, 'src/core/formats/catalog/early.ts'), areal.replace("id: 'areal'", "id: 'early'").replace('order: 70', 'order: 5'));
    const outputs = await catalogOutputs(dir);
    expect(outputs.get('src/core/formats/trainerCatalog.ts')).toContain('[early, trl, openInstruct,');
    expect(outputs.get('src/core/catalogWords.ts')).toContain("'early': 'AReaL trajectories'");
  }, 60_000);
});
