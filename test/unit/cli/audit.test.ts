/**
 * `prof-lens audit` against the loopback critic stand-in, whose verdicts are known: it flags the
 * first paragraph holding a false `a op b = c`. Ten correct answers in three groups, four of them
 * flawed; the figures below are worked out by hand from the groups' step scores.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';
import type { CliIo } from '../../../src/cli/io';
import { wilsonInterval } from '../../../src/core/rules/flawAudit';
import { startFakeChatServer, type FakeChatServer } from '../scoring/scorers/critic/fakeChatServer';

let dir: string;
const servers: FakeChatServer[] = [];
const KEY = 'sk-audit-1f2e3d';

async function cli(argv: string[], extra: Partial<CliIo> = {}): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t), isStderrTty: false, cwd: dir, env: {}, ...extra });
  return { code, out, err };
}

const row = (uid: string, steps: string[], correct: boolean, score: number) => ({
  uid, prompt: `Problem ${uid}`, response: steps.join('\n\n'), correct, step_scores: steps.map(() => score),
});

/**
 * g1 (n 6, m 4: PROF drops the two least consistent correct): c .9 sound, .5 flawed, .8 sound, .7 flawed.
 * g2 (n 4: nothing dropped): .4 sound, .9 flawed, .6 sound. g3 (n 5: one correct dropped): .3 sound,
 * .95 flawed, .85 sound. Bottom halves: g1 .5 and .7 (both flawed), g2 .4, g3 .3 (sound).
 */
const DUMP = [
  row('g1', ['2 + 2 = 4.', 'So 4.'], true, 0.9),
  row('g1', ['2 + 2 = 5.', 'So 4.'], true, 0.5),
  row('g1', ['3 × 3 = 9.', 'So 9.'], true, 0.8),
  row('g1', ['3 × 3 = 10.', 'So 9.'], true, 0.7),
  row('g1', ['Guess.', 'So 7.'], false, 0.3),
  row('g1', ['Guess.', 'So 8.'], false, 0.4),
  row('g2', ['5 - 1 = 4.', 'Done.'], true, 0.4),
  row('g2', ['5 - 1 = 3.', 'Done.'], true, 0.9),
  row('g2', ['6 + 1 = 7.', 'Done.'], true, 0.6),
  row('g2', ['Guess.', 'Done.'], false, 0.2),
  row('g3', ['7 × 2 = 14.', 'Yes.'], true, 0.3),
  row('g3', ['7 × 2 = 15.', 'Yes.'], true, 0.95),
  row('g3', ['8 + 1 = 9.', 'Yes.'], true, 0.85),
  row('g3', ['Guess.', 'No.'], false, 0.1),
  row('g3', ['Guess.', 'Maybe.'], false, 0.2),
];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'prof-lens-audit-'));
  writeFileSync(join(dir, 'dump.jsonl'), DUMP.map((r) => JSON.stringify(r)).join('\n') + '\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function critic(): Promise<FakeChatServer> {
  const server = await startFakeChatServer();
  servers.push(server);
  return server;
}

describe('prof-lens audit --critic', () => {
  it('reproduces the hand-computed figures: flawed share, its Wilson interval, what PROF removes', async () => {
    const server = await critic();
    const { code, out, err } = await cli(['audit', join(dir, 'dump.jsonl'), '--critic', server.url, '--yes', '--no-cache', '--json'], { env: { PROF_LENS_API_KEY: KEY } });
    expect(err).not.toContain(KEY);
    expect(code).toBe(0);
    const result = JSON.parse(out);
    expect(Object.keys(result)).toEqual(['judge', 'sample', 'flawed', 'flawedShare', 'interval', 'prof']);
    expect(Object.keys(result.prof)).toEqual(['bottomHalfRemovedOfFlawed', 'droppedOfFlawed', 'soundOfRemoved']);
    expect(result).toMatchObject({ judge: 'critic', sample: 10, flawed: 4, flawedShare: 0.4 });
    // Wilson, 4 of 10, z = 1.96: (0.4 + z²/20 ± z·√(0.024 + z²/400)) / (1 + z²/10).
    expect(result.interval[0]).toBeCloseTo(0.168180, 5);
    expect(result.interval[1]).toBeCloseTo(0.687326, 5);
    // Flawed: g1's .5 and .7 (both in its bottom half, both dropped), g2's .9, g3's .95 (neither).
    expect(result.prof.bottomHalfRemovedOfFlawed).toBe(0.5);
    expect(result.prof.droppedOfFlawed).toBe(0.5);
    // Dropped correct answers: g1's two flawed ones and g3's sound .3.
    expect(result.prof.soundOfRemoved).toBeCloseTo(1 / 3, 12);
    // Only the ten correct answers were sent, each with the key.
    expect(server.chats()).toHaveLength(10);
    expect(server.chats().every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
  });

  it('says what would be sent and sends nothing without a yes', async () => {
    const server = await critic();
    const refused = await cli(['audit', join(dir, 'dump.jsonl'), '--critic', server.url, '--no-cache']);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/send 10 rollouts to the critic at 127\.0\.0\.1:\d+\?/);
    expect(refused.err).toContain('Nothing from this file is sent until you agree.');
    expect(refused.err).toContain('add --yes to agree');
    const declined = await cli(['audit', join(dir, 'dump.jsonl'), '--critic', server.url, '--no-cache'], { ask: () => Promise.resolve('n') });
    expect(declined.code).toBe(2);
    expect(declined.err).toContain('nothing was sent: you did not agree');
    expect(server.chats()).toHaveLength(0);
    let asked = '';
    const agreed = await cli(['audit', join(dir, 'dump.jsonl'), '--critic', server.url, '--no-cache'], { ask: (q) => ((asked = q), Promise.resolve('y')) });
    expect(asked).toBe('Send them? [y/N] ');
    expect(agreed.code).toBe(0);
    expect(agreed.out).toContain('flawed (a wrong step on the way to a correct answer): 4 = 40.0% (95% interval 16.8% – 68.7%');
    expect(agreed.out).toContain('bottom half by consistency removes 50.0% of the flawed ones (the paper: 65.88%)');
    expect(server.chats()).toHaveLength(10);
  });

  it('a seeded sample: N answers, the same ones for the same seed', async () => {
    const server = await critic();
    const run = async (seed: string) => JSON.parse((await cli(['audit', join(dir, 'dump.jsonl'), '--critic', server.url, '--yes', '--no-cache', '--json', '--sample', '4', '--seed', seed])).out);
    const a = await run('3');
    const b = await run('3');
    expect(a.sample).toBe(4);
    expect(b).toEqual(a);
  });
});

describe('prof-lens audit --labels', () => {
  it('judges by the labels, matched by content; unlabelled answers are not judged', async () => {
    // ProcessBench-shaped labels for four of the correct answers, in another order.
    const pick = [DUMP[3]!, DUMP[0]!, DUMP[11]!, DUMP[6]!];
    const labels = pick.map((r) => ({ problem: r.prompt, steps: r.response.split('\n\n'), label: /= (5|10|15|3)\./.test(r.response) ? 0 : -1, final_answer_correct: true }));
    writeFileSync(join(dir, 'labels.json'), JSON.stringify(labels));
    const { code, out } = await cli(['audit', join(dir, 'dump.jsonl'), '--labels', join(dir, 'labels.json'), '--json']);
    expect(code).toBe(0);
    const result = JSON.parse(out);
    expect(result).toMatchObject({ judge: 'labels', sample: 4, flawed: 2, flawedShare: 0.5 });
    expect(result.interval).toEqual(wilsonInterval(2, 4));
    // g1's .7 flawed (bottom half, dropped), g3's .95 flawed (neither); g1's .9 and g2's .4 sound, kept.
    expect(result.prof).toEqual({ bottomHalfRemovedOfFlawed: 0.5, droppedOfFlawed: 0.5, soundOfRemoved: 0 });
  });

  it('needs exactly one judge', async () => {
    const { code, err } = await cli(['audit', join(dir, 'dump.jsonl')]);
    expect(code).toBe(2);
    expect(err).toContain('audit needs a dump and a judge');
  });
});
