/**
 * The checker in worker threads gives the editor analysis recorded in the output corpus's goldens,
 * byte for byte, on every fixture and generated dump (several chunks and slices in flight at once,
 * finished in file order); a worker that dies fails the analysis with a message naming the file and
 * the line.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { analysePath } from '../../../../../src/scoring/analysis/analysePath';
import { CheckerPool } from '../../../../../src/scoring/scorers/checker/checkerPool';
import { fixtureFiles, generateDump, textPool } from '../../../cli/corpusDumps';

const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../../../../fixtures/', import.meta.url));
const WORKER = join(ROOT, 'dist/checkerWorker.js');
const golden = JSON.parse(readFileSync(join(FIXTURES, 'golden/outputs.json'), 'utf8')) as Record<string, Record<string, string>>;

const dir = mkdtempSync(join(tmpdir(), 'prof-lens-pool-'));
const pool = new CheckerPool(2, WORKER);
afterAll(async () => {
  await pool.dispose();
  rmSync(dir, { recursive: true, force: true });
});

/** As the corpus stores it: whole when short, else a SHA-256; temporary and fixture paths by name. */
function stored(text: string): string {
  const relative = text.split(dir).join('<dir>').split(FIXTURES.replace(/\/$/, '')).join('<fixtures>');
  if (relative.length <= 2000) return relative;
  return `sha256:${createHash('sha256').update(relative).digest('hex')} (${relative.length} chars)`;
}

async function editorAnalysis(path: string, scorer: 'auto' | 'checker', checkerPool: CheckerPool): Promise<string> {
  try {
    const { analysis } = await analysePath(path, { scorer, checkerPool });
    return stored(JSON.stringify({ rollouts: analysis.rollouts, diagnostics: analysis.diagnostics, report: analysis.report }));
  } catch (error) {
    return stored(`failed: ${(error as Error).message}`);
  }
}

const files = fixtureFiles(FIXTURES);
const texts = textPool(FIXTURES, files);
const DUMPS = [
  { name: 'generated/verl-no-scores.jsonl', scorer: 'auto', shape: { grouped: false, withScores: false, records: 300, seed: 1 } },
  { name: 'generated/verl-scores.jsonl --scorer checker', scorer: 'checker', shape: { grouped: false, withScores: true, records: 200, seed: 2 } },
  { name: 'generated/grouped-no-scores.jsonl', scorer: 'auto', shape: { grouped: true, withScores: false, records: 60, seed: 3 } },
  { name: 'generated/grouped-scores.jsonl --scorer checker', scorer: 'checker', shape: { grouped: true, withScores: true, records: 60, seed: 4 } },
] as const;

describe('the checker in worker threads', () => {
  it('gives the recorded editor analysis of every fixture, scored by the checker', async () => {
    expect(files.length).toBeGreaterThanOrEqual(15);
    for (const file of files) {
      const name = `${file} --scorer checker`;
      expect(await editorAnalysis(join(FIXTURES, file), 'checker', pool), name).toBe(golden[name]?.['editor analysis']);
    }
  }, 120_000);

  it('gives the recorded editor analysis of the generated dumps', async () => {
    for (const dump of DUMPS) {
      const path = join(dir, dump.name.split(' ')[0]!.replace('/', '-'));
      writeFileSync(path, generateDump(texts, dump.shape));
      expect(await editorAnalysis(path, dump.scorer, pool), dump.name).toBe(golden[dump.name]?.['editor analysis']);
    }
  }, 120_000);

  it('decides on the host, with the CAS, the claims a worker leaves to it, as one thread does', async () => {
    const path = join(dir, 'surds.jsonl');
    const responses = ['We have $\\sqrt{8} = 2\\sqrt{2}$.\n\nSo 2 + 2 = 4.\n\nThe answer is 4', 'We have $\\sqrt{8} = 3\\sqrt{2}$.\n\nThe answer is 4', 'Then 3 + 4 = 8.\n\nThe answer is 8'];
    const lines = Array.from({ length: 150 }, (_, k) => JSON.stringify({ prompt: `Problem ${k % 5}`, response: responses[k % 3], gold: '4' }));
    writeFileSync(path, `${lines.join('\n')}\n`);
    const pooled = await analysePath(path, { scorer: 'checker', checkerPool: pool });
    const here = await analysePath(path, { scorer: 'checker' });
    const notes = pooled.analysis.rollouts.slice(0, 3).map((r) => r.stepNotes[0]);
    expect(notes).toEqual(['checked: \\sqrt{8} = 2\\sqrt{2}', expect.stringContaining('\\sqrt{8} = 3\\sqrt{2} is false'), '3 + 4 = 8 is false (7)']);
    expect(JSON.stringify(pooled.analysis.rollouts)).toBe(JSON.stringify(here.analysis.rollouts));
    expect(JSON.stringify(pooled.analysis.diagnostics)).toBe(JSON.stringify(here.analysis.diagnostics));
  }, 60_000);

  it('sends requests under 48K characters (a larger one is made in fresh memory each time), one rollout alone when it is longer', async () => {
    const path = join(dir, 'long-responses.jsonl');
    const step = (k: number, n: number): string => `Step ${n}: we have ${k} + ${n} = ${k + n}, and the running total grows by a few units as the reasoning goes on.`;
    // 3,000 characters a rollout, and one of 60,000: a request of 64 rollouts would hold 190,000.
    const lines = Array.from({ length: 200 }, (_, k) => JSON.stringify({ prompt: `Problem ${k >> 3}`, response: Array.from({ length: k === 77 ? 500 : 25 }, (_, n) => step(k, n)).join('\n\n'), gold: String(k) }));
    writeFileSync(path, `${lines.join('\n')}\n`);
    const sizes: { items: number; chars: number }[] = [];
    const judge = pool.judge.bind(pool);
    const recording = Object.create(pool) as CheckerPool;
    recording.judge = (items, scores, signal) => {
      sizes.push({ items: items.length, chars: items.reduce((n, steps) => n + steps.reduce((m, s) => m + s.length, 0), 0) });
      return judge(items, scores, signal);
    };
    const pooled = await analysePath(path, { scorer: 'checker', checkerPool: recording });
    const here = await analysePath(path, { scorer: 'checker' });
    expect(sizes.reduce((n, s) => n + s.items, 0)).toBe(200);
    expect(sizes.filter((s) => s.chars > 48 * 1024).every((s) => s.items === 1)).toBe(true);
    expect(sizes.some((s) => s.items === 1 && s.chars > 48 * 1024)).toBe(true);
    expect(Math.max(...sizes.map((s) => s.items))).toBeLessThan(64);
    expect(JSON.stringify(pooled.analysis.rollouts)).toBe(JSON.stringify(here.analysis.rollouts));
  }, 60_000);

  it('names the file and line when a worker dies', async () => {
    const dying = join(dir, 'dying-worker.js');
    writeFileSync(dying, "require('node:worker_threads').parentPort.on('message', () => process.exit(3));\n");
    const path = join(dir, 'rollouts.jsonl');
    const lines = ['{"note": "not a rollout"}'];
    for (let i = 0; i < 3; i++) lines.push(JSON.stringify({ prompt: 'What is 6 * 7?', response: 'We get 6 * 7 = 42.\n\nThe answer is 42', gold: '42' }));
    writeFileSync(path, `${lines.join('\n')}\n`);
    const broken = new CheckerPool(1, dying);
    try {
      await expect(analysePath(path, { scorer: 'checker', checkerPool: broken })).rejects.toThrow(`${path}:2: the checker's worker failed on the rollouts of lines 2–4`);
    } finally {
      await broken.dispose();
    }
  }, 60_000);
});
