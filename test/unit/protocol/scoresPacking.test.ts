/**
 * A chunk of summaries sent with its step scores and group keys packed arrives as the same
 * summaries: every score where it was (a step not scored stays null), each rollout in its own
 * group, field order and all, after a copy between threads as the worker's messages take. A chunk
 * holding a NaN score is not packed, since NaN and "not scored" would arrive alike.
 */
import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { summariseRollout, type RolloutSummary } from '../../../src/protocol/analysis';
import { packScores, unpackScores, type PackedScores } from '../../../src/protocol/summaryPacking';
import { analyseText } from '../../../src/scoring/analysis/analyse';

const text = [
  JSON.stringify({ prompt: 'q1', response: 'a = 1\n\nb = 2\n\nThe answer is \\boxed{2}', answer: '2', score: 1, step_scores: [0.9, 0.2, 0.8] }),
  JSON.stringify({ prompt: 'q1', response: 'only one step', answer: '2', score: 0, step_scores: [0.4] }),
  JSON.stringify({ prompt: 'q2', response: 'x\n\ny', answer: '1', score: 1 }),
  JSON.stringify({ prompt: 'q1', response: 'c = 3\n\nso 2', answer: '2', score: 1, step_scores: [0.7, 0.6] }),
].join('\n');

async function sent(summaries: RolloutSummary[], packed: PackedScores): Promise<RolloutSummary[]> {
  const { port1, port2 } = new MessageChannel();
  const arrived = new Promise<{ rollouts: RolloutSummary[]; scores: PackedScores }>((resolve) => port2.once('message', resolve));
  port1.postMessage({ rollouts: summaries, scores: packed }, [packed.columns.buffer as ArrayBuffer]);
  const message = await arrived;
  port1.close();
  unpackScores(message.rollouts, message.scores);
  return message.rollouts;
}

describe('step scores and group keys packed for the trip to the host', () => {
  it('arrive as the summaries had them, in the same field order, each key sent once', async () => {
    const expected = (await analyseText(text, { fileName: 'p.jsonl' })).rollouts.map(summariseRollout);
    const all = [...expected, { ...expected[0]!, id: 98, stepScores: [0.5, null, 0.25] }, { ...expected[0]!, id: 99, stepScores: [] }];
    const copy = structuredClone(all);
    const packed = packScores(copy);
    expect(packed?.groups).toHaveLength(2);
    expect(copy.every((s) => s.group === '' && s.stepScores.length === 0)).toBe(true);
    const arrived = await sent(copy, packed!);
    expect(arrived).toEqual(all);
    expect(arrived.map((s) => Object.keys(s))).toEqual(all.map((s) => Object.keys(s)));
    expect(all.some((s) => s.stepScores.length > 1)).toBe(true);
  });

  it('leaves a chunk with a NaN score as it is', async () => {
    const summaries = (await analyseText(text, { fileName: 'p.jsonl' })).rollouts.map(summariseRollout);
    summaries[1]!.stepScores = [Number.NaN];
    const before = structuredClone(summaries);
    expect(packScores(summaries)).toBeNull();
    expect(summaries).toEqual(before);
  });
});
