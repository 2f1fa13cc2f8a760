import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { adaptRecord } from '../../../src/core/formats/adaptRecord';
import { fakeScore, startFakeServer, type FakeServer } from '../scoring/scorers/http/fakePoolingServer';

// prime-rl episodes whose errored traces (no `nodes`) sit at the start, middle and end: `score`
// must write each trace's list at the trace's own index, since readers take step_scores[i] for traces[i].
const dir = mkdtempSync(join(tmpdir(), 'prof-lens-prime-slots-'));
let server: FakeServer;
beforeAll(async () => {
  server = await startFakeServer();
});
afterAll(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

const QUESTION = 'Tom has 2 apples and buys 4 more. How many apples?';
const trace = (steps: string[], score: number): object => ({
  nodes: [
    { message: { role: 'user', content: QUESTION }, sampled: false },
    { message: { role: 'assistant', content: steps.join('\n\n') }, sampled: true },
  ],
  rewards: { correct: { score, weight: 1 } },
});
const errored = { error: 'sandbox timed out', rewards: null };
// The fake PRM scores a step by its length: 49 characters score 50/64, a step any PRM would pass.
const THREE = ['Tom starts with 2 apples.'.padEnd(49, '.'), 'He buys 4 more apples, so 2 + 4 = 6.'.padEnd(49, '.'), 'The total is six apples.'.padEnd(42, '.') + ' #### 6'];
const ONE = ['#### 7'];
const TWO = ['2 + 4 is 5.', '#### 5'];

function episode(id: string, traces: object[]): string {
  return JSON.stringify({ task: { type: 'GSM8KTask', data: { prompt: QUESTION, answer: '6' } }, group: { id }, traces });
}

describe('score on prime-rl episodes with errored traces', () => {
  it('writes every trace\'s scores at its own index, so each trace reads back its own steps', async () => {
    const input = join(dir, 'traces.jsonl');
    const layouts = [
      [errored, trace(THREE, 1), trace(ONE, 0), trace(TWO, 0)],
      [trace(ONE, 0), trace(THREE, 1), errored, trace(TWO, 0)],
      [trace(TWO, 0), trace(ONE, 0), trace(THREE, 1), errored],
    ];
    writeFileSync(input, layouts.map((traces, i) => episode(`g${i}`, traces)).join('\n') + '\n');
    const out = join(dir, 'scored.jsonl');
    let stderr = '';
    const io = { stdout: () => undefined, stderr: (t: string) => (stderr += t), isStderrTty: false, cwd: dir };
    expect(await runCli(['score', input, '-o', out, '--url', server.url, '--no-cache'], io)).toBe(0);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(3);
    lines.forEach((raw, i) => {
      const value = JSON.parse(raw) as { step_scores: unknown[] };
      // One list per trace, null for the errored one.
      expect(value.step_scores).toHaveLength(4);
      const erroredAt = layouts[i]!.indexOf(errored);
      expect(value.step_scores[erroredAt]).toBeNull();
      for (const draft of adaptRecord({ line: i + 1, raw, value }).drafts) {
        const steps = (layouts[i]![draft.index] as { nodes: { message: { content: string } }[] }).nodes[1]!.message.content.split('\n\n');
        expect(draft.fileStepScores).toEqual(steps.map(fakeScore));
      }
    });
    // Read back: no step count disagrees with its scores, and the correct 3-step traces are not suspected.
    let json = '';
    let reportErr = '';
    expect(await runCli(['report', out, '--json'], { ...io, stdout: (t: string) => (json += t), stderr: (t: string) => (reportErr += t) })).toBe(0);
    const report = JSON.parse(json) as { rollouts: number; suspectedFalsePositives: number; diagnostics: number };
    expect(report.rollouts).toBe(9);
    expect(report.diagnostics).toBe(0);
    expect(reportErr).not.toMatch(/step scores but the response splits/);
    expect(report.suspectedFalsePositives).toBe(0);
  });
});
