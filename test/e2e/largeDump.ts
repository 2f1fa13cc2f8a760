/**
 * Writes a large synthetic rollout dump (groups of eight, step scores in the file) for the
 * large-file test. Deterministic, so timings compare across runs.
 */
import { createWriteStream } from 'node:fs';

const PROMPTS = [
  'A shop sells pencils at 3 for $1. How much do 27 pencils cost?',
  'Tom reads 12 pages a day. How many days does he need for a 180-page book?',
  'A tank holds 250 litres and leaks 15 litres an hour. How much is left after 6 hours?',
];

function response(i: number): { text: string; scores: number[] } {
  const steps = 3 + (i % 4);
  const parts: string[] = [];
  const scores: number[] = [];
  for (let s = 0; s < steps; s++) {
    parts.push(`Step ${s + 1}: we compute ${i % 97} \\times ${s + 2} = ${(i % 97) * (s + 2)}, so the "running total" is ${(i % 97) * (s + 2) + s}. This keeps the reasoning going with some filler text to make the line realistic.`);
    scores.push(Number((((i * 7 + s * 13) % 100) / 100).toFixed(2)));
  }
  parts.push(`The answer is \\boxed{${i % 9}}.`);
  scores.push(0.9);
  return { text: parts.join('\n\n'), scores };
}

/** Writes about `targetBytes` of JSON Lines to `path`; resolves with the line count. */
export async function writeLargeDump(path: string, targetBytes: number): Promise<number> {
  const out = createWriteStream(path);
  let bytes = 0;
  let lines = 0;
  while (bytes < targetBytes) {
    const { text, scores } = response(lines);
    const line = JSON.stringify({
      uid: `q-${Math.floor(lines / 8)}`,
      prompt: PROMPTS[Math.floor(lines / 8) % PROMPTS.length],
      response: text,
      answer: String(Math.floor(lines / 8) % 9),
      step_scores: scores,
    }) + '\n';
    bytes += Buffer.byteLength(line);
    lines++;
    if (!out.write(line)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return lines;
}
