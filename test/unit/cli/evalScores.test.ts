/**
 * `eval` reads the step scores labelled files already carry (every name `report` reads), locates
 * JSON-array items by index, takes `steps`-only records as rollouts, and round-trips `score`'s
 * output. Figures are hand-computed from ProcessBench's rule: an error item is found when the first
 * step below the threshold is the labelled one; a correct item passes when no step is below it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';
import { startFakeChatServer } from '../scoring/scorers/critic/fakeChatServer';

let dir: string;

/** Runs the CLI; `@name` stands for a file in the test's folder. */
async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const argv = args.map((a) => (a.startsWith('@') ? join(dir, a.slice(1)) : a));
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t), isStderrTty: false, cwd: dir, env: {} });
  return { code, out, err };
}

const item = (problem: string, steps: string[], label: number, scores?: Record<string, (number | null)[]>) => ({
  id: problem, generator: 'test', problem, steps, final_answer_correct: label < 0, label, ...scores,
});

/** Five items, four score names; the last has none (it is unscored: a miss). */
const SCORED = [
  item('A', ['a1', 'a2', 'a3'], 1, { step_scores: [0.9, 0.3, 0.8] }), // first below .5 is step 1: found
  item('B', ['b1', 'b2', 'b3'], 2, { prm_scores: [0.4, 0.9, 0.2] }), // step 0: flagged, not found
  item('C', ['c1', 'c2'], -1, { step_rewards: [0.9, 0.7] }), // passed
  item('D', ['d1', 'd2'], -1, { values: [0.6, 0.45] }), // step 1 below: not passed
  item('E', ['e1'], 0, { step_scores: [0.1] }), // found
  item('F', ['f1', 'f2'], -1), // no scores: counted as a miss
];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'prof-lens-eval-scores-'));
  // json.dump without indent: every item on line 1.
  writeFileSync(join(dir, 'scored.json'), JSON.stringify(SCORED));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface EvalJson {
  items: number;
  unscored: number;
  report: { subsets: { errorItems: number; errorHits: number; errorFlagged: number; correctItems: number; correctHits: number; f1: number }[] };
}

describe('eval with the scores in the file', () => {
  it('reads step_scores, prm_scores, step_rewards and values; figures by ProcessBench rule', async () => {
    const { code, out } = await cli(['eval', '@scored.json', '--scorer', 'file', '--json']);
    expect(code).toBe(0);
    const result = JSON.parse(out) as EvalJson;
    expect(result).toMatchObject({ items: 6, unscored: 1 });
    expect(result.report.subsets[0]).toMatchObject({ errorItems: 3, errorHits: 2, errorFlagged: 3, correctItems: 3, correctHits: 1 });
    // error accuracy 2/3, correct accuracy 1/3: F1 = 2·(2/3)(1/3) / (2/3 + 1/3) = 4/9.
    expect(result.report.subsets[0]?.f1).toBeCloseTo(4 / 9, 12);
  });

  it('names an unscored array item by its index and line', async () => {
    const { out } = await cli(['eval', '@scored.json', '--scorer', 'file']);
    expect(out).toContain('1 solution(s) not scored, counted as misses:');
    expect(out).toContain(`${join(dir, 'scored.json')}: item 5 (line 1): the record has no step scores`);
  });

  it('names a broken array item by its index', async () => {
    writeFileSync(join(dir, 'broken.json'), `[${JSON.stringify(SCORED[0])},\n  "not an object", ${JSON.stringify(SCORED[2])}]`);
    const { err } = await cli(['eval', '@broken.json', '--scorer', 'file']);
    expect(err).toContain(`${join(dir, 'broken.json')}:2: error: item 1 (line 2): expected each array element to be a JSON object`);
  });
});

describe('records with steps and no response', () => {
  const rows = [
    { question: 'What is 2 + 3?', steps: ['2 + 3 = 5.', 'The answer is 5.'], correct: true, step_scores: [0.9, 0.8] },
    { question: 'What is 2 + 3?', steps: ['2 + 3 = 6.', 'The answer is 6.'], correct: false, step_scores: [0.2, 0.3] },
    { problem: 'What is 4 × 5?', steps: ['4 × 5 = 20.', 'So 21.'], label: 1 },
  ];

  it('are rollouts in report, their steps those strings', async () => {
    writeFileSync(join(dir, 'steps.jsonl'), rows.slice(0, 2).map((r) => JSON.stringify(r)).join('\n') + '\n');
    const { code, out } = await cli(['report', '@steps.jsonl', '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(out) as { rollouts: number; groups: number; outcomes: Record<string, number>; stepCounts: Record<string, number>; scorers: Record<string, number> };
    expect(report).toMatchObject({ rollouts: 2, groups: 1, outcomes: { correct: 1, incorrect: 1 }, stepCounts: { '2': 2 }, scorers: { file: 2 } });
  });

  it('an integer label is the first wrong step (ProcessBench without final_answer_correct)', async () => {
    writeFileSync(join(dir, 'labelled-steps.jsonl'), JSON.stringify(rows[2]) + '\n');
    const { code, out } = await cli(['eval', '@labelled-steps.jsonl', '--json']);
    expect(code).toBe(0);
    // The checker finds nothing false in "So 21.": the error is missed, flagged nowhere.
    expect((JSON.parse(out) as EvalJson).report.subsets[0]).toMatchObject({ errorItems: 1, errorHits: 0, errorFlagged: 0 });
  });
});

describe('score → eval round trip', () => {
  it('eval --scorer file on score’s output gives the critic’s own figures', async () => {
    const problems = [
      item('A box holds 12 pencils. How many in 3 boxes?', ['Each box holds 12.', 'So 3 × 12 = 38 pencils.', 'The answer is 38.'], 1),
      item('What is 2 + 3?', ['2 + 3 = 5.', 'The answer is 5.'], -1),
      item('What is 4 × 5 + 1?', ['First 4 × 5 = 20.', 'Then 20 + 1 = 21.', 'Check: 21 - 1 = 19.'], 2),
      item('Is 7 even?', ['Seven divides by two evenly.', 'So 7 is even.'], 0),
      item('UNREADABLE: what is 1 + 1?', ['1 + 1 = 2.'], -1),
    ];
    writeFileSync(join(dir, 'pb.json'), JSON.stringify(problems, null, 2));
    const server = await startFakeChatServer({ onChat: (_call, body) => (body.messages?.[0]?.content.includes('UNREADABLE') ? { content: 'Hmm.' } : undefined) });
    try {
      const direct = await cli(['eval', '@pb.json', '--scorer', 'critic', '--url', server.url, '--no-cache', '--json']);
      const scored = await cli(['score', '@pb.json', '-o', '@pb-scored.jsonl', '--scorer', 'critic', '--url', server.url, '--no-cache']);
      expect(scored.code).toBe(0);
      const lines = readFileSync(join(dir, 'pb-scored.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { step_scores: unknown; label: number });
      expect(lines.map((l) => l.step_scores)).toEqual([[1, 0, null], [1, 1], [1, 1, 0], [1, 1], [null]]);
      const fromFile = await cli(['eval', '@pb-scored.jsonl', '--scorer', 'file', '--json']);
      const a = JSON.parse(direct.out) as EvalJson;
      const b = JSON.parse(fromFile.out) as EvalJson;
      expect(b.report.subsets[0]).toEqual({ ...a.report.subsets[0], subset: 'pb-scored' });
      expect(b.unscored + b.items).toBe(a.unscored + a.items);
    } finally {
      await server.close();
    }
  });
});
