/**
 * The shared worker policy on small scripted workers: restarts back off while a worker keeps
 * dying and start promptly again after it recovers; a silent worker is replaced and only the
 * request it was on fails; nothing is left pending after dispose.
 */
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { SupervisedWorker } from '../../../../src/scoring/workers/supervisedWorker';
import { WorkerCrashError, WorkerStallError } from '../../../../src/scoring/workers/workerPolicy';

type Reply = { id: number; value: string };

/**
 * A worker answering `{id, value}` for each `{id, op}`: `echo` at once, `crash` by exiting,
 * `hang` by never answering (busy forever).
 */
const SCRIPT = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', (m) => {
  if (m.op === 'crash') process.exit(9);
  if (m.op === 'hang') for (;;);
  parentPort.postMessage({ id: m.id, value: m.op });
});`;

const workers: SupervisedWorker<Reply>[] = [];
afterAll(() => Promise.all(workers.map((w) => w.dispose())));

function supervised(options: { stallMs?: number; backoffInitialMs?: number } = {}): { worker: SupervisedWorker<Reply>; spawns: number[] } {
  const spawns: number[] = [];
  const worker = new SupervisedWorker<Reply>({
    name: 'test',
    spawn: () => {
      spawns.push(performance.now());
      return new Worker(SCRIPT, { eval: true });
    },
    isReply: (m): m is Reply => typeof (m as Reply | null)?.id === 'number',
    idOf: (r) => r.id,
    isFinal: () => true,
    ...options,
  });
  workers.push(worker);
  return { worker, spawns };
}

const send = (w: SupervisedWorker<Reply>, op: string, retries?: number): Promise<Reply> =>
  w.request((id) => ({ id, op }), retries === undefined ? {} : { retries });

describe('the shared worker policy', () => {
  it('backs off between restarts while the worker keeps dying, and resets once it answers', async () => {
    const { worker, spawns } = supervised({ backoffInitialMs: 150 });
    for (let i = 0; i < 3; i++) await expect(send(worker, 'crash', 0)).rejects.toBeInstanceOf(WorkerCrashError);
    const answered = await send(worker, 'echo');
    expect(answered.value).toBe('echo');
    // The thread starts at once; the backoff holds its requests back.
    expect(spawns).toHaveLength(4);
    const before = performance.now();
    await expect(send(worker, 'crash', 0)).rejects.toThrow(/the test worker stopped unexpectedly \(exit code 9\)/);
    expect(await send(worker, 'echo')).toMatchObject({ value: 'echo' });
    // After a success the counter starts again: the first restart waits 150 ms, not 1.2 s.
    expect(performance.now() - before).toBeLessThan(1000);
  });

  it('the delays grow: 0, then 150 ms, then 300 ms before the requests of each new worker', async () => {
    const { worker } = supervised({ backoffInitialMs: 150 });
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      await expect(send(worker, 'crash', 0)).rejects.toBeInstanceOf(WorkerCrashError);
      times.push(performance.now() - started);
    }
    expect(times[1]).toBeGreaterThanOrEqual(140);
    expect(times[2]).toBeGreaterThanOrEqual(290);
  });

  it('a silent worker is replaced: the request it was on fails, the one queued behind it is answered', async () => {
    const { worker, spawns } = supervised({ stallMs: 300 });
    const stuck = send(worker, 'hang');
    const behind = send(worker, 'echo');
    await expect(stuck).rejects.toBeInstanceOf(WorkerStallError);
    expect(await behind).toMatchObject({ value: 'echo' });
    expect(spawns).toHaveLength(2);
  });

  it('dispose fails what is pending and refuses later requests', async () => {
    const { worker } = supervised();
    const outcome = expect(send(worker, 'hang')).rejects.toThrow(/disposed/);
    await new Promise((r) => setTimeout(r, 50));
    await worker.dispose();
    await outcome;
    await expect(send(worker, 'echo')).rejects.toThrow(/disposed/);
  });
});
