/**
 * The analysis worker under the shared policy, as a user meets it: a worker that dies in the
 * middle of an analysis comes back and finishes the file; one that dies every time ends in a
 * failure with a message (never "running" forever); a cancel the worker cannot read because it
 * is computing still frees the worker for the next file. Runs the built `dist/analysisWorker.js`.
 */
import { mkdtempSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { AnalysisClient, CancelledError } from '../../../../src/scoring/analysis/analysisClient';
import type { AnalyseRequest } from '../../../../src/protocol/analysis';

const ROOT = resolve(__dirname, '../../../..');
const WORKER = join(ROOT, 'dist/analysisWorker.js');
const EXAMPLE = join(ROOT, 'examples/gsm-rollouts.jsonl');
const dir = mkdtempSync(join(tmpdir(), 'prof-lens-analysis-client-'));
const clients: AnalysisClient[] = [];

afterAll(() => {
  for (const c of clients) c.dispose();
  rmSync(dir, { recursive: true, force: true });
});

function request(path = EXAMPLE): Omit<AnalyseRequest, 'type' | 'requestId'> {
  return { documentKey: `file://${path}`, fileName: path, source: { kind: 'path', path }, settings: {}, scorer: 'checker', model: null };
}

/** A worker whose crash hook points at `marker`: it dies mid-analysis while the marker does not exist. */
function crashing(marker: () => string): () => Worker {
  return () => new Worker(WORKER, { env: { ...process.env, PROF_LENS_TEST_CRASH_ANALYSIS_ONCE: marker() } });
}

function client(spawn?: () => Worker, cancelGraceMs?: number): AnalysisClient {
  const c = new AnalysisClient(WORKER, { ...(spawn ? { spawn } : {}), ...(cancelGraceMs ? { cancelGraceMs } : {}) });
  clients.push(c);
  return c;
}

const exampleRollouts = readFileSync(EXAMPLE, 'utf8').trim().split('\n').length;

describe('analysis worker lifecycle', () => {
  it('a worker killed mid-analysis comes back and finishes the file, once, without duplicated rollouts', async () => {
    const marker = join(dir, 'crashed-once');
    const c = client(crashing(() => marker));
    let restarts = 0;
    let restartEvents = 0;
    c.onDidRestart(() => restartEvents++);
    const job = c.analyse(request(), { onRestart: () => restarts++ });
    const result = await job.result;
    expect(existsSync(marker)).toBe(true);
    expect(restarts).toBe(1);
    expect(restartEvents).toBe(1);
    expect(result.rollouts).toHaveLength(exampleRollouts);
    expect(new Set(result.rollouts.map((r) => r.id)).size).toBe(exampleRollouts);
    expect(result.summary.report.rollouts).toBe(exampleRollouts);
    // The new worker holds the analysis: the Rollout View can fetch texts from it.
    const [detail] = await c.details(`file://${EXAMPLE}`, [0]);
    expect(detail?.response.length).toBeGreaterThan(0);
  });

  it('a worker that dies every time fails the analysis with a message after one retry', async () => {
    let n = 0;
    const c = client(crashing(() => join(dir, `never-${n++}`)));
    await expect(c.analyse(request()).result).rejects.toThrow(/the analysis worker stopped unexpectedly \(exit code 70\); tried 2 times/);
    expect(n).toBe(2);
  });

  it('a cancel the computing worker cannot read stops it, and the next file is analysed by a fresh one', async () => {
    let spawned = 0;
    const spawn = (): Worker => {
      spawned++;
      // The first worker never reads its messages again once an analysis arrives: it computes forever.
      return spawned === 1
        ? new Worker(`require('node:worker_threads').parentPort.on('message', (m) => { if (m.type === 'analyse') for (;;); });`, { eval: true })
        : new Worker(WORKER);
    };
    const c = client(spawn, 300);
    const stuck = c.analyse(request());
    await new Promise((r) => setTimeout(r, 100));
    const cancelledAt = performance.now();
    stuck.cancel();
    await expect(stuck.result).rejects.toBeInstanceOf(CancelledError);
    expect(performance.now() - cancelledAt).toBeLessThan(200);
    const next = await c.analyse(request()).result;
    expect(next.rollouts).toHaveLength(exampleRollouts);
    expect(spawned).toBe(2);
  });
});
