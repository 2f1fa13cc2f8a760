/**
 * The editor worker's path for files on disk: streamed (never one string), keeping only what the
 * marks need, and the Rollout View's texts read back from the file. It must show exactly what the
 * whole-text analysis shows.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { summariseRollout } from '../../../../src/protocol/analysis';
import { analyseText } from '../../../../src/scoring/analysis/analyse';
import { analyseWithModel } from '../../../../src/scoring/analysis/modelAnalysis';
import { ModelScorers } from '../../../../src/scoring/scorers/modelScorers';
import { rolloutDetails } from '../../../../src/scoring/analysis/rolloutDetails';

const ROOT = join(__dirname, '../../../..');
const dir = mkdtempSync(join(tmpdir(), 'prof-lens-path-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const example = readFileSync(join(ROOT, 'examples/gsm-rollouts.jsonl'), 'utf8');
const fixture = readFileSync(join(ROOT, 'test/fixtures/e2e/rollouts.jsonl'), 'utf8');

/** A file with what makes offsets hard: a BOM, CRLF, a lone CR inside a record, a bad line, escapes. */
function awkward(): string {
  const lines = fixture.split('\n').filter(Boolean);
  const withLoneCr = '{"prompt": "Split by a lone CR?",\r"response": "Yes.\\n\\n1 + 1 = 3", "answer": "2", "score": 0}';
  const grouped = JSON.stringify({ problem: 'Pick one \u00e9 \ud83d\ude00', responses: ['a\\b "q"\n\nb = 4', 'c\n\nd'], score: [1, 0], step_scores: [[0.9, 0.1], [0.8, 0.7]] });
  return `\uFEFF${lines.slice(0, 4).join('\r\n')}\r\n${withLoneCr}\n${grouped}\r${lines.slice(4).join('\n')}\n`;
}

async function both(text: string, name: string): Promise<{ whole: Awaited<ReturnType<typeof analyseWithModel>>; disk: Awaited<ReturnType<typeof analyseWithModel>>; path: string }> {
  const path = join(dir, name);
  writeFileSync(path, text);
  const options = { fileName: path, settings: {}, scorer: 'auto' as const, model: null, models: new ModelScorers(), signal: new AbortController().signal };
  return { whole: await analyseWithModel(text, options), disk: await analyseWithModel({ kind: 'path', path }, options), path };
}

describe('a file analysed from disk shows what its text shows', () => {
  for (const [name, text] of [['example.jsonl', example], ['awkward.jsonl', awkward()]] as const) {
    it(`${name}: the same rollouts, marks, decisions, diagnostics and report`, async () => {
      const { whole, disk } = await both(text, name);
      expect(disk.analysis.rollouts.map(summariseRollout)).toEqual(whole.analysis.rollouts.map(summariseRollout));
      expect(disk.analysis.diagnostics).toEqual(whole.analysis.diagnostics);
      expect(disk.analysis.report).toEqual(whole.analysis.report);
      // Only the disk analysis drops the texts (that is what lets it outgrow a string).
      expect(disk.analysis.rollouts.every((r) => r.response === '' && r.steps.length === 0)).toBe(true);
      expect(disk.lines).toBeDefined();
    });

    it(`${name}: the Rollout View's texts, read back from disk, are the ones the text analysis kept`, async () => {
      const { whole, disk, path } = await both(text, name);
      const ids = whole.analysis.rollouts.map((r) => r.id);
      const fromText = await rolloutDetails({ analysis: whole.analysis, disk: null }, ids);
      const fromDisk = await rolloutDetails({ analysis: disk.analysis, disk: { path, lines: disk.lines! } }, ids);
      expect(fromDisk).toEqual(fromText);
      expect(fromDisk.some((d) => d.steps.length > 1)).toBe(true);
    });
  }

  it('a lone CR splits a record as VS Code shows it: later rollouts keep their editor line numbers', async () => {
    const { disk } = await both(awkward(), 'lines.jsonl');
    const lines = awkward().slice(1).split(/\r\n|\r|\n/);
    for (const r of disk.analysis.rollouts) expect(lines[r.line - 1], `line ${r.line}`).toMatch(/^\{/);
    expect(disk.analysis.diagnostics.filter((d) => d.code === 'bad-json').map((d) => d.line)).toEqual([5, 6, 12]);
  });

  it('a file that changed on disk since it was analysed is said to have changed, not shown wrong', async () => {
    const { disk, path } = await both(example, 'changing.jsonl');
    writeFileSync(path, example.split('\n').reverse().join('\n'));
    await expect(rolloutDetails({ analysis: disk.analysis, disk: { path, lines: disk.lines! } }, [0])).rejects.toThrow(/changed on disk since it was analysed/);
  });

  it('analyseText on the same text agrees (the worker’s text path is unchanged)', async () => {
    const direct = await analyseText(example, { fileName: 'x.jsonl' });
    const { whole } = await both(example, 'again.jsonl');
    expect(whole.analysis.rollouts.map(summariseRollout)).toEqual(direct.rollouts.map(summariseRollout));
  });
});
