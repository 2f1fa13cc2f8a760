/**
 * Generated dumps for the explorer and compare benchmarks: flat verl-like lines, eight rollouts a
 * prompt, 2–9 steps each with step scores, a binary score; about one response in a hundred
 * mentions sympy. `seed` changes the outcomes and scores, so two dumps of one size differ the way
 * two steps of a run do.
 */
import { closeSync, openSync, writeSync } from 'node:fs';

export interface DumpShape {
  /** Stop after this many rollouts … */
  rollouts?: number;
  /** … or once this many bytes are written. */
  bytes?: number;
  seed: number;
}

/** Writes the dump a megabyte at a time; returns the number of rollouts. */
export function writeExploreDump(path: string, shape: DumpShape): number {
  let seed = shape.seed;
  const rand = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const fd = openSync(path, 'w');
  let pending: string[] = [];
  let pendingBytes = 0;
  let written = 0;
  let i = 0;
  try {
    for (; (shape.rollouts === undefined || i < shape.rollouts) && (shape.bytes === undefined || written + pendingBytes < shape.bytes); i++) {
      const p = Math.floor(i / 8);
      const h = 2 + Math.floor(rand() * 8);
      const steps = Array.from({ length: h }, (_, k) => `Step ${k + 1}: ${k + 3} * ${p % 50} = ${(k + 3) * (p % 50)}${rand() < 0.01 ? ', checked with sympy' : ''}.`);
      steps.push(`The answer is \\boxed{${p % 17}}.`);
      const line = JSON.stringify({
        uid: `u${p}`,
        prompt: `Problem ${p}: what is ${p % 17} times one?`,
        response: steps.join('\n\n'),
        answer: String(p % 17),
        score: rand() < 0.55 ? 1 : 0,
        step_scores: steps.map(() => Math.round(rand() * 1000) / 1000),
      }) + '\n';
      pending.push(line);
      pendingBytes += line.length;
      if (pendingBytes >= 1 << 20) {
        written += writeSync(fd, pending.join(''));
        pending = [];
        pendingBytes = 0;
      }
    }
    writeSync(fd, pending.join(''));
  } finally {
    closeSync(fd);
  }
  return i;
}

/** Median of a few timings (ms). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}
