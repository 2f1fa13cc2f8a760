/**
 * Every output byte for byte as recorded: for each rollout file in test/fixtures and for generated
 * dumps (verl-shaped and grouped, with and without step scores), `report`, `report --json`,
 * `filter` (kept bytes and decision lines) and the editor's analysis (every rollout with its step
 * scores, checker notes and evidence, as the hovers show them) must give what the goldens in
 * test/fixtures/golden/outputs.json say. Outputs are stored whole when short, else as a SHA-256.
 * Speed work must leave this green; a change meant to alter outputs regenerates the goldens with
 * `UPDATE_OUTPUT_GOLDENS=1 npx vitest run test/unit/cli/outputCorpus.test.ts` and says why.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';
import { analysePath } from '../../../src/scoring/analysis/analysePath';
import { fixtureFiles, generateDump, textPool } from './corpusDumps';

const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));
const GOLDEN = join(FIXTURES, 'golden/outputs.json');
const UPDATE = process.env.UPDATE_OUTPUT_GOLDENS === '1';
const FULL_TEXT_LIMIT = 2000;

const dir = mkdtempSync(join(tmpdir(), 'prof-lens-corpus-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Outputs = Record<string, string>;

function stored(text: string): string {
  if (text.length <= FULL_TEXT_LIMIT) return text;
  return `sha256:${createHash('sha256').update(text).digest('hex')} (${text.length} chars)`;
}

/** Paths differ per run (the temp folder): written as `<dir>` and `<fixtures>`. */
function relative(text: string): string {
  return text.split(dir).join('<dir>').split(FIXTURES.replace(/\/$/, '')).join('<fixtures>');
}

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t), isStderrTty: false, cwd: dir });
  return { code, out, err };
}

async function outputsOf(path: string, extra: readonly string[]): Promise<Outputs> {
  const result: Outputs = {};
  const report = await cli(['report', path, ...extra]);
  Object.assign(result, { 'report rc': String(report.code), 'report stdout': report.out, 'report stderr': report.err });
  const json = await cli(['report', path, '--json', ...extra]);
  Object.assign(result, { 'report --json rc': String(json.code), 'report --json stdout': json.out, 'report --json stderr': json.err });
  const kept = join(dir, 'kept.out');
  const decisions = join(dir, 'decisions.out');
  rmSync(kept, { force: true });
  rmSync(decisions, { force: true });
  const filter = await cli(['filter', path, '-o', kept, '--decisions', decisions, ...extra]);
  Object.assign(result, { 'filter rc': String(filter.code), 'filter stdout': filter.out, 'filter stderr': filter.err });
  result['filter kept bytes'] = readOrNone(kept);
  result['filter decision lines'] = readOrNone(decisions);
  const scorer = extra.includes('checker') ? 'checker' : 'auto';
  try {
    const { analysis } = await analysePath(path, { scorer });
    result['editor analysis'] = JSON.stringify({ rollouts: analysis.rollouts, diagnostics: analysis.diagnostics, report: analysis.report });
  } catch (error) {
    result['editor analysis'] = `failed: ${(error as Error).message}`;
  }
  for (const key of Object.keys(result)) result[key] = stored(relative(result[key]!));
  return result;
}

function readOrNone(path: string): string {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return '(no file)';
  }
}

const files = fixtureFiles(FIXTURES);
const pool = textPool(FIXTURES, files);
const DUMPS = [
  { name: 'generated/verl-no-scores.jsonl', shape: { grouped: false, withScores: false, records: 300, seed: 1 } },
  { name: 'generated/verl-scores.jsonl', shape: { grouped: false, withScores: true, records: 200, seed: 2 } },
  { name: 'generated/grouped-no-scores.jsonl', shape: { grouped: true, withScores: false, records: 60, seed: 3 } },
  { name: 'generated/grouped-scores.jsonl', shape: { grouped: true, withScores: true, records: 60, seed: 4 } },
];

const golden: Record<string, Outputs> = UPDATE ? {} : (JSON.parse(readFileSync(GOLDEN, 'utf8')) as Record<string, Outputs>);
const seen: Record<string, Outputs> = {};
afterAll(() => {
  if (UPDATE) writeFileSync(GOLDEN, `${JSON.stringify(seen, null, 1)}\n`);
});

describe('every output is byte-identical to the recorded one', () => {
  const cases: { name: string; path: () => string; extra: string[] }[] = [];
  for (const file of files) {
    cases.push({ name: file, path: () => join(FIXTURES, file), extra: [] });
    cases.push({ name: `${file} --scorer checker`, path: () => join(FIXTURES, file), extra: ['--scorer', 'checker'] });
  }
  for (const dump of DUMPS) {
    const path = (): string => {
      const at = join(dir, dump.name.replace('/', '-'));
      writeFileSync(at, generateDump(pool, dump.shape));
      return at;
    };
    cases.push({ name: dump.name, path, extra: [] });
    if (dump.shape.withScores) cases.push({ name: `${dump.name} --scorer checker`, path, extra: ['--scorer', 'checker'] });
    else cases.push({ name: `${dump.name} --m 2 --variant pos`, path, extra: ['--m', '2', '--variant', 'pos'] });
  }

  it('the corpus covers the fixtures and the generated dumps', () => {
    expect(files.length).toBeGreaterThanOrEqual(15);
    expect(pool.length).toBeGreaterThan(1000);
    if (!UPDATE) expect(Object.keys(golden).sort()).toEqual(cases.map((c) => c.name).sort());
  });

  for (const c of cases) {
    it(c.name, async () => {
      const outputs = await outputsOf(c.path(), c.extra);
      seen[c.name] = outputs;
      if (!UPDATE) expect(outputs).toEqual(golden[c.name]);
    }, 120_000);
  }
});
