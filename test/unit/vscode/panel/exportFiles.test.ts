import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../../src/cli/main';
import { analyseText } from '../../../../src/scoring/analysis/analyse';
import { summariseRollout } from '../../../../src/protocol/analysis';
import { resolveSettings } from '../../../../src/core/profSettings';
import { decideFile, decisionsCsv, decisionsJsonl, keptBytes, keptRowBytes } from '../../../../src/vscode/panel/exportFiles';
import { csvCell } from '../../../../src/core/presentation/csvCell';
import { analysePath } from '../../../../src/scoring/analysis/analysePath';
import { InputFile } from '../../../../src/scoring/inputs/inputFile';
import { parquetLines } from '../../../../src/scoring/inputs/parquetRows';

const ROOT = join(__dirname, '../../../..');
const dir = mkdtempSync(join(tmpdir(), 'prof-lens-panel-export-'));

function grouped(): string {
  const line = (uid: string, scores: number[][], outcomes: number[]): string => JSON.stringify({
    uid, prompt: `Question ${uid}?`, responses: scores.map((s, i) => Array.from({ length: s.length }, (_, k) => `step ${k} of ${i}`).join('\n\n')),
    scores: outcomes, step_scores: scores, answer: '1',
  });
  const bom = '\uFEFF';
  return bom + [
    line('a', [[0.9, 0.8], [0.2, 0.3], [0.7, 0.7], [0.1], [0.95, 0.9, 0.9]], [1, 1, 0, 0, 1]),
    line('b', [[0.5, 0.5], [0.6, 0.6]], [1, 0]),
    line('c', [[0.9, 0.9], [0.8, 0.8], [0.7, 0.2], [0.4, 0.4], [0.3, 0.3], [0.9, 0.1]], [1, 1, 1, 0, 0, 1]),
  ].join('\r\n') + '\r\n';
}

function keyed(): string {
  return readFileSync(join(ROOT, 'test/fixtures/data/gsm8k_openai_example_model_solutions_first120.jsonl'), 'utf8').split('\n').slice(0, 6).join('\n') + '\n';
}

const cases: { name: string; text: () => string }[] = [
  { name: 'gsm-rollouts.jsonl', text: () => readFileSync(join(ROOT, 'examples/gsm-rollouts.jsonl'), 'utf8') },
  { name: 'with-bad-line.jsonl', text: () => readFileSync(join(ROOT, 'test/fixtures/e2e/rollouts.jsonl'), 'utf8') },
  { name: 'grouped-crlf-bom.jsonl', text: grouped },
  { name: 'keyed-solutions.jsonl', text: keyed },
  { name: 'processbench.json', text: () => readFileSync(join(ROOT, 'test/fixtures/processbench-gsm8k-sample.json'), 'utf8') },
];

async function cli(argv: string[]): Promise<number> {
  return runCli(argv, { stdout: () => undefined, stderr: () => undefined, isStderrTty: false, cwd: dir });
}

describe('exports from the panel are what prof-lens filter writes', () => {
  for (const c of cases) {
    it(`${c.name}: kept rollouts byte for byte, and the decision lines`, async () => {
      const text = c.text();
      const input = join(dir, c.name);
      writeFileSync(input, text);
      await cli(['filter', input, '-o', join(dir, `${c.name}.kept`), '--decisions', join(dir, `${c.name}.decisions`), '--m', '2']);
      const analysis = await analyseText(text, { fileName: input });
      const summaries = decideFile(analysis.rollouts.map(summariseRollout), resolveSettings({ ...analysis.settings, m: 2 }));
      const kept = keptBytes(readFileSync(input), summaries, input);
      expect(Buffer.from(kept.bytes).equals(readFileSync(join(dir, `${c.name}.kept`)))).toBe(true);
      expect(kept.lines).toBeGreaterThan(0);
      expect(decisionsJsonl(summaries)).toBe(readFileSync(join(dir, `${c.name}.decisions`), 'utf8'));
    });
  }

  it('a TRL parquet: the kept rows as lines of JSON, what filter writes', async () => {
    const parquet = join(ROOT, 'test/fixtures/trainers/trl/grpo-qwen2.5-gsm8k/completions/completions_00001.parquet');
    const out = join(dir, 'trl.kept.jsonl');
    expect(await cli(['filter', parquet, '-o', out, '--scorer', 'checker', '--m', '2'])).toBe(0);
    const { analysis } = await analysePath(parquet, { scorer: 'checker', settings: { m: 2 } });
    const input = InputFile.open(parquet);
    const rows = await parquetLines(input).finally(() => input.close());
    const kept = keptRowBytes(rows, analysis.rollouts.map(summariseRollout));
    expect(kept.lines).toBe(6);
    expect(Buffer.from(kept.bytes).equals(readFileSync(out))).toBe(true);
  });

  it('under the analysed settings, decideFile changes nothing', async () => {
    const analysis = await analyseText(cases[0]!.text(), { fileName: 'gsm.jsonl' });
    const summaries = analysis.rollouts.map(summariseRollout);
    expect(decideFile(summaries, analysis.settings)).toEqual(summaries);
  });
});

describe('decisions as CSV', () => {
  it('one header row and one row per rollout, lists space-separated', async () => {
    const analysis = await analyseText(readFileSync(join(ROOT, 'test/fixtures/e2e/rollouts.jsonl'), 'utf8'), { fileName: 'r.jsonl' });
    const csv = decisionsCsv(analysis.rollouts.map(summariseRollout)).split('\r\n');
    expect(csv[0]).toBe('line,index,group,correct,steps,stepScores,score,consistency,penalised,kept,reason,firstLowStep,suspectedFalsePositive,falsePositiveRules');
    expect(csv).toHaveLength(analysis.rollouts.length + 2);
    expect(csv[2]).toMatch(/^2,0,g1,true,3,0\.9 0\.12 0\.81,[\d.]+,[\d.]+,false,false,dropped-low-consistency,1,true,prof-dropped weak-step bottom-half$/);
  });

  it('quotes what must be quoted and defuses spreadsheet formulas from the file', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell(-0.5)).toBe('-0.5');
    expect(csvCell(null)).toBe('');
    expect(csvCell([0.5, null, 1])).toBe('0.5  1');
  });
});
