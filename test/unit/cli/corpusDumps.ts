/**
 * Generated dumps for the output corpus: steps drawn from the real texts in test/fixtures (GSM8K
 * calculator notes, PRM800K LaTeX, ProcessBench steps), some with a number changed so the checker
 * finds false claims, shaped like verl dumps (one response per line) and like grouped records (a
 * `responses` array per prompt), with and without step scores. Seeded: the same bytes every run.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every string of 12 characters or more in the fixture rollout files, in file order, deduplicated. */
export function textPool(fixtures: string, files: readonly string[]): string[] {
  const seen = new Set<string>();
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      if (value.length >= 12 && value.length < 4000) seen.add(value);
    } else if (Array.isArray(value)) {
      for (const v of value) visit(v);
    } else if (value && typeof value === 'object') {
      for (const v of Object.values(value)) visit(v);
    }
  };
  for (const file of files) {
    const text = readFileSync(join(fixtures, file), 'utf8');
    const values = file.endsWith('.json') ? [text] : text.split('\n');
    for (const line of values) {
      try {
        visit(JSON.parse(line));
      } catch {
        // Deliberately broken lines (the e2e fixture) hold nothing to draw from.
      }
    }
  }
  return [...seen];
}

/** Rollout files under `fixtures` (JSONL and JSON), relative, sorted. */
export function fixtureFiles(fixtures: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(join(fixtures, dir)).sort()) {
      const rel = dir ? `${dir}/${name}` : name;
      if (statSync(join(fixtures, rel)).isDirectory()) {
        // prm/ is a labelled evaluation set (realPrmScores.test.ts covers it), not a rollout dump;
        // real/ has its own acceptance suite (test/real), checked against the files' own verdicts.
        // Left out, they also leave the generated dumps' text pool as recorded.
        if (name !== 'golden' && name !== 'prm' && name !== 'real') walk(rel);
      } else if (/\.jsonl?$/.test(name)) {
        found.push(rel);
      }
    }
  };
  walk('');
  return found;
}

export interface DumpShape {
  grouped: boolean;
  withScores: boolean;
  records: number;
  seed: number;
}

/** A dump drawn from `pool`: JSONL text. */
export function generateDump(pool: readonly string[], shape: DumpShape): string {
  let seed = shape.seed;
  const rand = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
  const response = (): string => {
    const steps = Array.from({ length: 2 + Math.floor(rand() * 8) }, () => mutate(pick(pool), rand));
    steps.push(`The answer is \\boxed{${Math.floor(rand() * 20)}}.`);
    return steps.join(rand() < 0.8 ? '\n\n' : '\n');
  };
  const lines: string[] = [];
  for (let i = 0; i < shape.records; i++) {
    const prompt = pick(pool).slice(0, 300);
    const gold = String(Math.floor(rand() * 20));
    if (shape.grouped) {
      const n = 2 + Math.floor(rand() * 6);
      const responses = Array.from({ length: n }, response);
      const record: Record<string, unknown> = { prompt, responses, gold };
      if (shape.withScores) {
        record.score = responses.map(() => (rand() < 0.5 ? 1 : 0));
        record.step_scores = responses.map((r) => r.split(/\n\n/).map(() => Math.round(rand() * 1000) / 1000));
      }
      lines.push(JSON.stringify(record));
    } else {
      const output = response();
      const record: Record<string, unknown> = { input: prompt, output, gts: gold, uid: `u${Math.floor(i / 6)}` };
      if (shape.withScores) {
        record.score = rand() < 0.5 ? 1.0 : 0.0;
        record.step_scores = output.split('\n\n').map(() => Math.round(rand() * 1000) / 1000);
      }
      lines.push(JSON.stringify(record));
    }
  }
  return `${lines.join('\n')}\n`;
}

/** One step in four gets a digit changed (a false claim, or a true one turned into another). */
function mutate(text: string, rand: () => number): string {
  if (rand() >= 0.25) return text;
  const digits = [...text.matchAll(/\d/g)];
  if (digits.length === 0) return text;
  const at = digits[Math.floor(rand() * digits.length)]!.index!;
  return `${text.slice(0, at)}${(Number(text[at]) + 1 + Math.floor(rand() * 8)) % 10}${text.slice(at + 1)}`;
}
