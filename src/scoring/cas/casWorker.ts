/**
 * The CAS worker (bundled to `dist/casWorker.js`): the algebra engine, alone in a thread, so
 * that an expression that runs away can be stopped by ending the thread. Tasks run one at a time,
 * in order; each result is posted as soon as it is known, which tells the host's watchdog which
 * task a silent worker is stuck on.
 */
import { parentPort } from 'node:worker_threads';
import type { ComputeEngine, Expression } from '@cortex-js/compute-engine';
import { loadCas } from '../../core/cas/casEngine';
import { casLeaves, casParser } from '../../core/answer/casCompare';
import type { LeafComparer } from '../../core/answer/answerEquality';
import { decideOnEngine } from '../../core/answer/gradeAnswer';
import { casScreen, shorten } from '../../core/cas/casLimits';
import type { CasResult, CasTask } from '../../core/cas/casService';
import { isHostToCas, type CasToHost } from '../../protocol/cas';
import { casValue } from '../scorers/checker/casCheck';

const port = parentPort;
// The engine reports its own troubles on the console; here they are results ("not decided"), not noise on the user's terminal.
for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) console[method] = () => undefined;
let engine: Promise<{ ce: ComputeEngine; leaves: LeafComparer }> | null = null;

function post(message: CasToHost): void {
  port?.postMessage(message);
}

function load(): Promise<{ ce: ComputeEngine; leaves: LeafComparer }> {
  // Parsed expressions are cached for the worker's life: the same answers recur across rollouts.
  engine ??= loadCas().then((ce) => ({ ce, leaves: casLeaves(ce, casParser(ce, new Map<string, Expression | null>())) }));
  return engine;
}

function runTask(task: CasTask, on: { ce: ComputeEngine; leaves: LeafComparer }): CasResult {
  if (task.kind === 'value') {
    const screened = casScreen(task.latex);
    if (screened !== null) return { kind: 'not-decided', reason: `${shorten(task.latex)} is ${screened}` };
    return { kind: 'value', value: casValue(on.ce, task.latex) };
  }
  return { kind: 'equal', equal: decideOnEngine(on.leaves, task.pred, task.gold) };
}

port?.on('message', (message: unknown) => {
  if (!isHostToCas(message)) return;
  void (async () => {
    try {
      const on = await load();
      if (message.type === 'load') return post({ type: 'ready', id: message.id });
      message.tasks.forEach((task, index) => {
        let result: CasResult;
        try {
          result = runTask(task, on);
        } catch (error) {
          result = { kind: 'not-decided', reason: `the algebra system failed: ${error instanceof Error ? error.message : String(error)}` };
        }
        post({ type: 'result', id: message.id, index, result });
      });
      post({ type: 'done', id: message.id });
    } catch (error) {
      post({ type: 'failed', id: message.id, message: error instanceof Error ? error.message : String(error) });
    }
  })();
});
