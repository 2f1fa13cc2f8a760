// Generated training runs in verl's step-file layout: a clean run with noise in every series, and
// the same run with one failure injected from a known step on. Seeded, so each run is the same on
// every machine; nothing is committed but this generator.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mulberry32 } from '../../../../src/core/rules/random';
import type { DetectorId } from '../../../../src/core/health/healthTypes';
import type { HealthRollout } from '../../../../src/core/health/stepHealth';
import { responseExtras } from '../../../../src/core/health/tokenFields';

export interface RunOptions {
  steps?: number;
  prompts?: number;
  perPrompt?: number;
  /** The failure, and the first step that shows it. */
  inject?: DetectorId;
  onset?: number;
  seed?: number;
}

export const STEPS = 30;
export const ONSET = 18;

type Json = Record<string, unknown>;

const SENTENCES = ['We read the question again', 'The numbers are small', 'So the next value follows', 'Checking the units keeps it right', 'That gives the partial sum', 'Now the last part remains'];

function tokens(rand: () => number, n: number, centre: number, spread: number): number[] {
  return Array.from({ length: n }, () => centre + (rand() - 0.5) * 2 * spread);
}

/** One rollout's record at `step`: clean unless `failing` names the failure it shows. */
function record(rand: () => number, at: { step: number; prompt: number; correct: boolean; failing: DetectorId | null; inject: DetectorId | null }): Json {
  // One question per prompt and step, so its rollouts form one group (the group is the prompt with its gold).
  const a = 2 + ((at.prompt * 17 + at.step * 5) % 50);
  const b = 2 + ((at.prompt * 29 + at.step * 3) % 50);
  const answer = at.correct ? a + b : a + b + 1;
  const steps = [`We add ${a} and ${b}.`, `${SENTENCES[Math.floor(rand() * SENTENCES.length)]}: ${a} + ${b} = ${a + b}.`];
  for (let i = Math.floor(rand() * 3); i > 0; i--) steps.push(`${SENTENCES[Math.floor(rand() * SENTENCES.length)]}, and ${a} stays ${a}.`);
  const f = at.failing;
  if (f === 'length') for (let i = 0; i < 12; i++) steps.push(`Let me reconsider part ${i} of the problem with ${a + i} and ${b * i} before going on.`);
  if (f === 'repetition') steps.push(Array.from({ length: 20 }, () => 'Wait, let me check that again.').join('\n'));
  if (f === 'garbled') steps.push(`The total is \uFFFD\uFFFD ${a}\u0001\u0002 units.`);
  if (f === 'reward-visible') steps.push(`<tool_call>\n{"name": "check", "arguments": {"answer": "${answer}"}}\n</tool_call>\nuser\n<tool_response>\nCurrent parsed answer='${answer}' reward=${at.correct ? '1.0' : '0.0'}\n</tool_response>\nassistant\nThe check agrees.`);
  const output = f === 'format-gaming' ? `#### ${answer}` : `${steps.join('\n\n')}\n\n#### ${answer}`;
  const count = f === 'format-gaming' ? 1 : steps.length + 1;
  const scoreCentre = at.inject === 'score-inflation' && at.step >= ONSET ? 0.9 : 0.5;
  const n = 40;
  const entropy = tokens(rand, n, f === 'entropy-collapse' ? 0.1 : 1.0, 0.1);
  const generation = tokens(rand, n, -1, 0.1);
  const gap = f === 'mismatch' ? 0.3 : 0.01;
  return {
    input: `Question ${at.prompt} of step ${at.step}: what is ${a} + ${b}?`,
    output,
    gts: String(a + b),
    score: at.correct ? 1 : 0,
    step: at.step,
    step_scores: tokens(rand, count, scoreCentre, 0.05).map((x) => Math.min(1, Math.max(0, x))),
    finish_reason: f === 'length' ? 'length' : 'stop',
    entropy,
    generation_logprobs: generation,
    prev_logprobs: generation.map((x) => x + (rand() < 0.5 ? gap : -gap)),
  };
}

/** The records of each step (`steps` of them, numbered from 1). */
export function generatedRun(options: RunOptions = {}): Json[][] {
  const { steps = STEPS, prompts = 8, perPrompt = 8, inject, onset = ONSET, seed = 7 } = options;
  const rand = mulberry32(seed);
  const run: Json[][] = [];
  for (let step = 1; step <= steps; step++) {
    const records: Json[] = [];
    const isFailing = inject !== undefined && step >= onset;
    for (let p = 0; p < prompts; p++) {
      // Groups lose their signal by being all correct or all wrong; otherwise about half are correct.
      const groupVerdict = isFailing && inject === 'no-signal-groups' ? rand() < 0.5 : null;
      for (let r = 0; r < perPrompt; r++) {
        const correct = groupVerdict ?? rand() < 0.5;
        // Per-rollout failures show in about half the rollouts of a failing step.
        const perRollout = isFailing && inject !== 'score-inflation' && inject !== 'no-signal-groups' && (rand() < 0.5 || inject === 'entropy-collapse' || inject === 'mismatch');
        records.push(record(rand, { step, prompt: p, correct, failing: perRollout ? inject : null, inject: inject ?? null }));
      }
    }
    run.push(records);
  }
  return run;
}

/** A run written as verl writes one: `{step}.jsonl` in a folder. */
export function writeRun(dir: string, run: readonly Json[][]): string {
  mkdirSync(dir, { recursive: true });
  run.forEach((records, i) => writeFileSync(join(dir, `${i + 1}.jsonl`), records.map((r) => JSON.stringify(r)).join('\n') + '\n'));
  return dir;
}

/** A record as the audit reads it, without the file analysis: steps split on blank lines, outcome from the score. */
export function asHealthRollout(r: Json, line: number): HealthRollout {
  const response = String(r['output']);
  const steps: { start: number; end: number }[] = [];
  let at = 0;
  for (const part of response.split('\n\n')) {
    steps.push({ start: at, end: at + part.length });
    at += part.length + 2;
  }
  return {
    file: `${String(r['step'])}.jsonl`, line, index: 0, step: Number(r['step']), group: String(r['input']), response, responseTurns: null, steps,
    stepScores: r['step_scores'] as number[], isCorrect: r['score'] === 1, extras: responseExtras(r, 0),
  };
}
