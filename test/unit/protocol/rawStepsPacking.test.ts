/**
 * A chunk of summaries sent with its raw step offsets packed in one array arrives as the same
 * summaries: every rollout's steps where they were (none stays none, an empty list stays empty),
 * field order and all, after a copy between threads as the worker's messages take.
 */
import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { packRawSteps, unpackRawSteps, type RolloutSummary } from '../../../src/protocol/analysis';
import { analyseText } from '../../../src/scoring/analysis/analyse';
import { summariseRollout } from '../../../src/protocol/analysis';

const text = [
  JSON.stringify({ prompt: 'q1', response: 'a = 1\n\nb "x" = 2\n\nThe answer is \\boxed{2}', answer: '2', score: 1, step_scores: [0.9, 0.2, 0.8] }),
  JSON.stringify({ prompt: 'q1', response: 'only one step', answer: '2', score: 0 }),
  JSON.stringify({ problem: 'q2', responses: ['x\n\ny', 'z'], answer: '1', score: [1, 0] }),
  JSON.stringify({ messages: [{ role: 'user', content: 'q3' }, { role: 'assistant', content: 'p\n\nq' }], answer: '1', score: 1 }),
].join('\n');

async function sent(summaries: RolloutSummary[]): Promise<RolloutSummary[]> {
  const rawSpans = packRawSteps(summaries);
  const { port1, port2 } = new MessageChannel();
  const arrived = new Promise<{ rollouts: RolloutSummary[]; rawSpans: Int32Array }>((resolve) => port2.once('message', resolve));
  port1.postMessage({ rollouts: summaries, rawSpans }, [rawSpans.buffer as ArrayBuffer]);
  const message = await arrived;
  port1.close();
  unpackRawSteps(message.rollouts, message.rawSpans);
  return message.rollouts;
}

describe('raw step offsets packed for the trip to the host', () => {
  it('arrive as the summaries had them, in the same field order', async () => {
    const expected = (await analyseText(text, { fileName: 'p.jsonl' })).rollouts.map(summariseRollout);
    // A response that is not one literal in its line has no raw offsets; one without steps, an empty list.
    const all = [...expected, { ...expected[0]!, id: 98, rawSteps: null }, { ...expected[0]!, id: 99, rawSteps: [] }];
    const copy = structuredClone(all);
    const arrived = await sent(copy);
    expect(arrived).toEqual(all);
    expect(arrived.map((s) => Object.keys(s))).toEqual(all.map((s) => Object.keys(s)));
    expect(all.some((s) => s.rawSteps === null)).toBe(true);
    expect(all.filter((s) => (s.rawSteps?.length ?? 0) > 1).length).toBeGreaterThan(1);
  });
});
