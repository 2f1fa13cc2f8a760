/**
 * Spreading requests over several endpoints: critic throughput against local stand-ins that each
 * answer after a fixed delay (a stand-in for a busy GPU server; no model runs), with one endpoint,
 * with two, and with two of which one answers every request with 503. Each figure is a ratio to the
 * single endpoint measured in the same run; the ideal for two healthy endpoints is 2.
 */
import { createCriticScorer } from '../../src/scoring/scorers/critic/criticScorer';
import type { ScoreItem } from '../../src/scoring/scorers/scorer';
import { startFakeChatServer, type FakeChatServer } from '../unit/scoring/scorers/critic/fakeChatServer';
import type { BenchResult } from './types';

const ROLLOUTS = 160;
const LATENCY_MS = 100;
const CONCURRENCY = 4;

const items: ScoreItem[] = Array.from({ length: ROLLOUTS }, (_, i) => ({
  id: i,
  prompt: `What is ${i} × 3?`,
  steps: [`${i} × 3 = ${i * 3 + (i % 7 === 0 ? 1 : 0)}.`, `The answer is ${i * 3}.`],
}));

/** Rollouts judged per second over the given servers. */
async function throughput(servers: readonly FakeChatServer[]): Promise<number> {
  const critic = createCriticScorer({ urls: servers.map((s) => s.url), concurrency: CONCURRENCY, retryBaseMs: 200 });
  await critic.ready();
  const started = performance.now();
  const results = await critic.score(items);
  const seconds = (performance.now() - started) / 1000;
  await critic.dispose();
  if (results.some((r) => r.kind !== 'scored')) throw new Error('a rollout was not judged');
  return ROLLOUTS / seconds;
}

export async function run(): Promise<BenchResult[]> {
  const slow = { onChat: () => ({ delayMs: LATENCY_MS }) };
  const a = await startFakeChatServer(slow);
  const b = await startFakeChatServer(slow);
  const failing = await startFakeChatServer({ onChat: () => ({ status: 503, body: { error: { message: 'overloaded' } } }) });
  try {
    const one = await throughput([a]);
    const two = await throughput([a, b]);
    const withFailing = await throughput([failing, a]);
    const baseline = { name: '1 endpoint', value: one };
    const note = `${ROLLOUTS} rollouts, ${LATENCY_MS} ms per answer, ${CONCURRENCY} in flight per endpoint`;
    return [
      { name: 'critic over 1 endpoint', value: one, unit: 'rollouts/s', note },
      { name: 'critic over 2 endpoints', value: two, unit: 'rollouts/s', baseline, ratio: two / one, note: 'ideal 2' },
      { name: 'critic over 2 endpoints, one answering 503', value: withFailing, unit: 'rollouts/s', baseline, ratio: withFailing / one, note: `ideal 1; ${failing.chats().length} requests reached the failing one` },
    ];
  } finally {
    await Promise.all([a.close(), b.close(), failing.close()]);
  }
}
