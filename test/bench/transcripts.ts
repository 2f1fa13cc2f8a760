/**
 * The cost of reading trainers' chat transcripts: a 50 MB verl-style dump whose prompts are Qwen
 * chats decoded without special tokens (a 900-character system prompt with a tool list, then the
 * question), one in eight responses a tool rollout, 16 responses per prompt, scores in the file.
 * The report's rate is compared with a bare read + `JSON.parse` of the same file, in the same run;
 * the transcript reader alone with the bare parse.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyseFile } from '../../src/cli/analyseFile';
import type { CliIo } from '../../src/cli/io';
import { readFileLines } from '../../src/scoring/analysis/fileLines';
import { readPrompt } from '../../src/core/transcript/promptReading';
import { readResponse } from '../../src/core/transcript/response';
import type { BenchResult } from './types';

const DIR = join(process.cwd(), 'test-output', 'bench');
const io: CliIo = { stdout: () => undefined, stderr: () => undefined, isStderrTty: false, cwd: process.cwd() };

const SYSTEM = `You are a math expert. Reason step by step before any tool call.\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n<tools>\n${JSON.stringify({ type: 'function', function: { name: 'calc', description: 'Evaluate an arithmetic expression.', parameters: { type: 'object', properties: { expression: { type: 'string' } } } } })}\n</tools>\n\n`.repeat(2);

function writeDump(path: string, targetBytes: number): void {
  const lines: string[] = [];
  let bytes = 0;
  for (let i = 0; bytes < targetBytes; i++) {
    const p = Math.floor(i / 16);
    const question = `Problem ${p}: a shop sells ${p % 50} pens at $${(p % 7) + 2} each. How much is that? Let's think step by step and output the final answer after "####".`;
    const input = `system\n${SYSTEM}\nuser\n${question}\nassistant\n`;
    const steps = Array.from({ length: 4 + (i % 9) }, (_, k) => `Step ${k + 1}: ${k} + ${k * 2} = ${k * 3}, and the total grows as the reasoning goes on.`);
    const body = steps.join('\n\n');
    const output = i % 8 === 0
      ? `${body}\n<tool_call>\n{"name": "calc", "arguments": {"expression": "${i % 50} * 3"}}\n</tool_call>\nuser\n<tool_response>\n${(i % 50) * 3}\n</tool_response>\nassistant\nThe tool agrees.\n\n#### ${(i % 50) * 3}`
      : `${body}\n\n#### ${(i % 50) * 3}`;
    const line = JSON.stringify({ input, output, gts: String((i % 50) * 3), score: i % 3 === 0 ? 1.0 : 0.0, step: 7, step_scores: steps.map((_, k) => ((k * 37 + i) % 100) / 100) });
    lines.push(line);
    bytes += line.length + 1;
  }
  writeFileSync(path, lines.join('\n') + '\n');
}

async function parseAll(path: string, read: boolean): Promise<number> {
  let count = 0;
  for await (const batch of readFileLines(path)) {
    for (const line of batch) {
      const record = JSON.parse(line.raw) as { input: string; output: string };
      if (read) {
        readPrompt(record.input);
        readResponse(record.output);
      }
      count++;
    }
  }
  return count;
}

export async function run(): Promise<BenchResult[]> {
  mkdirSync(DIR, { recursive: true });
  const path = join(DIR, 'transcripts-16-50mb.jsonl');
  if (!existsSync(path)) writeDump(path, 50 * 1024 * 1024);
  const size = statSync(path).size;
  let baseSeconds = Infinity;
  let readerSeconds = Infinity;
  let reportSeconds = Infinity;
  let rollouts = 0;
  for (let round = 0; round < 3; round++) {
    let t = performance.now();
    rollouts = await parseAll(path, false);
    baseSeconds = Math.min(baseSeconds, (performance.now() - t) / 1000);
    t = performance.now();
    await parseAll(path, true);
    readerSeconds = Math.min(readerSeconds, (performance.now() - t) / 1000);
    t = performance.now();
    const analysis = await analyseFile(path, { scorer: 'auto' }, io);
    reportSeconds = Math.min(reportSeconds, (performance.now() - t) / 1000);
    if (analysis.report.rollouts !== rollouts) throw new Error(`report saw ${analysis.report.rollouts} rollouts, baseline ${rollouts}`);
  }
  const base = { name: 'read + JSON.parse only', value: rollouts / baseSeconds };
  return [
    { name: `baseline: read + JSON.parse (${(size / 1048576).toFixed(1)} MB, ${rollouts} rollouts)`, value: base.value, unit: 'rollouts/s' },
    { name: 'read + parse + transcript reader (prompt and response)', value: rollouts / readerSeconds, unit: 'rollouts/s', baseline: base, ratio: rollouts / readerSeconds / base.value },
    { name: 'full report of the chat dump (file scores, PROF, report)', value: rollouts / reportSeconds, unit: 'rollouts/s', baseline: base, ratio: rollouts / reportSeconds / base.value, note: 'plain prompts (core): target ≥ 0.5' },
  ];
}
