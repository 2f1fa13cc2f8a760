import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { closeTruncatedJson, DETECTION_PREFIX_CHARS, holdsRollouts, prefixEnd } from '../../../../src/core/formats/rolloutDetection';

const ROOT = join(__dirname, '../../../..');
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

/** What the editor does: the document's first 64 KB, and whether that is all of it. */
function detect(text: string, fileName: string, fields = {}): boolean {
  return holdsRollouts(text.slice(0, DETECTION_PREFIX_CHARS), { fileName, fields, isWholeText: text.length <= DETECTION_PREFIX_CHARS });
}

describe('rollout files are recognised from their first 64 KB', () => {
  const rollouts: [string, string, string][] = [
    ['the bundled example', 'gsm-rollouts.jsonl', read('examples/gsm-rollouts.jsonl')],
    ['the e2e fixture (with a broken line)', 'rollouts.jsonl', read('test/fixtures/e2e/rollouts.jsonl')],
    ['hostile rollout text', 'hostile.jsonl', read('test/fixtures/panel/hostile.jsonl')],
    ['a ProcessBench JSON array', 'gsm8k.json', read('test/fixtures/processbench-gsm8k-sample.json')],
    ['verl dump lines', 'step_100.jsonl', '{"input": "What is 2+2?", "output": "2+2 = 4.\\n\\nThe answer is 4.", "gts": "4", "score": 1.0, "step": 100}\n'],
    ['chat messages', 'chat.jsonl', '{"messages": [{"role": "user", "content": "What is 2+2?"}, {"role": "assistant", "content": "It is 4."}], "answer": "4"}\n'],
    ['a grouped line', 'eval.jsonl', '{"problem": "What is 2+2?", "responses": ["It is 4.", "It is 5."], "score": [1, 0]}\n'],
    ['PRM800K', 'prm800k.jsonl', '{"question": {"problem": "What is 2+2?", "ground_truth_answer": "4"}, "label": {"steps": [{"completions": [{"text": "2+2 is 4.", "rating": 1}], "chosen_completion": 0}]}}\n'],
    ['Math-Shepherd', 'shepherd.jsonl', '{"input": "What is 2+2? Step 1: 2+2=4 ки\\nThe answer is: 4 ки", "label": "What is 2+2? Step 1: 2+2=4 +\\nThe answer is: 4 +"}\n'],
    ['keyed model solutions', 'solutions.jsonl', '{"question": "What is 2+2?", "answer": "4", "model_a": {"solution": "2+2 is 4", "is_correct": true}}\n'],
    ['a BOM and CRLF', 'bom.jsonl', `\uFEFF${read('examples/gsm-rollouts.jsonl').replace(/\n/g, '\r\n')}`],
    ['a first line of 3 MB, cut by the prefix', 'long.jsonl', `${JSON.stringify({ prompt: 'Explain.', response: 'word '.repeat(600_000), score: 1 })}\n`],
    ['a first line cut inside an escape', 'escape.jsonl', `{"prompt": "p q", "response": "${'a\\n'.repeat(DETECTION_PREFIX_CHARS / 3)}`],
    ['a JSON array whose first element is longer than the prefix', 'big.json', `[${JSON.stringify({ problem: 'What is 2+2?', steps: ['step one '.repeat(20_000)], label: -1, final_answer_correct: true })}]`],
    ['a ROLL dump', 'rollout_dump_data.step_1.jsonl', read('test/fixtures/trainers/roll/output/rollout_dump/rollout_dump_data.step_1.jsonl')],
    ['an AReaL trajectory file', '0.jsonl', read('test/fixtures/trainers/areal/logs/root/gsm8k-grpo/trial0/rollout/1/0.jsonl')],
    ['a SkyRL evaluation dump', 'openai_gsm8k.jsonl', read('test/fixtures/trainers/skyrl/export/dumped_evals/global_step_40_evals/openai_gsm8k.jsonl')],
    ['a ROLL dump whose one line outruns the prefix in its responses', 'rollout_dump_data.step_9.jsonl', `${JSON.stringify({ id: ['a', 'a'], prompt: ['What is 2+2?', 'What is 2+2?'], ground_truth: ['4', '4'], responses: ['word '.repeat(20_000), '4'], scores: [1.0, 0.0], global_step: [9, 9] })}\n`],
    ['a rollout after some blank and broken lines', 'late.jsonl', `\n{oops\n\n${read('examples/gsm-rollouts.jsonl')}`],
  ];
  for (const [name, fileName, text] of rollouts) it(`${name}: analysed`, () => expect(detect(text, fileName)).toBe(true));

  const others: [string, string, string][] = [
    ['this repository’s tsconfig.json', 'tsconfig.json', read('tsconfig.json')],
    ['this repository’s package.json', 'package.json', read('package.json')],
    ['this repository’s package-lock.json (megabytes)', 'package-lock.json', read('package-lock.json')],
    ['a VS Code settings file', 'settings.json', '{\n  // comments are allowed here\n  "editor.fontSize": 14,\n  "files.exclude": {"**/.git": true}\n}\n'],
    ['a launch configuration', 'launch.json', '{"version": "0.2.0", "configurations": [{"type": "node", "request": "launch", "name": "Run", "program": "${workspaceFolder}/index.js", "outputCapture": "std"}]}'],
    ['a JSON schema', 'schema.json', '{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {"prompt": {"type": "string"}, "response": {"type": "string"}}}'],
    ['a build config with input and output paths', 'build.json', '{"input": "src/index.ts", "output": "dist/bundle.js", "target": "es2020"}'],
    ['pre-training text lines', 'corpus.jsonl', '{"text": "Once upon a time there was a model.", "meta": {"source": "web"}}\n'.repeat(10)],
    ['log lines', 'app.log.jsonl', '{"level": "info", "msg": "server started", "time": 1700000000}\n'.repeat(10)],
    ['an array of numbers', 'data.json', '[1, 2, 3]'],
    ['an empty file', 'empty.jsonl', ''],
    ['rollouts only after the first 64 KB', 'late.jsonl', `${'{"level": "info", "msg": "warming up"}\n'.repeat(3_000)}${read('examples/gsm-rollouts.jsonl')}`],
  ];
  for (const [name, fileName, text] of others) it(`${name}: left alone`, () => expect(detect(text, fileName)).toBe(false));

  it('a field mapping decides what a response is', () => {
    const text = '{"question_text": "What is 2+2?", "extra": {"completion_text": "It is 4."}}\n';
    expect(detect(text, 'custom.jsonl')).toBe(false);
    expect(detect(text, 'custom.jsonl', { prompt: 'question_text', response: 'extra.completion_text' })).toBe(true);
  });

  it('looks at no more than the prefix: a 20 MB first line is decided in milliseconds', () => {
    const text = `${JSON.stringify({ prompt: 'Explain.', response: 'word '.repeat(4_000_000) })}\n`;
    const started = performance.now();
    expect(detect(text, 'huge.jsonl')).toBe(true);
    // Generous: reading the 20 MB line would take far longer than this on any machine.
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe('closing a JSON text cut anywhere', () => {
  const cases: [string, string | null][] = [
    ['{"a": "xyz', '{"a": "xyz"}'],
    ['{"a": "x\\', '{"a": "x"}'],
    ['{"a": "x\\u00', '{"a": "x"}'],
    ['{"a": 1, "b', '{"a": 1}'],
    ['{"a": 1, "b": tr', '{"a": 1}'],
    ['{"a": [1, 2', '{"a": [1]}'],
    ['{"a": [1, "two', '{"a": [1, "two"]}'],
    ['{"a": {"b": 1}, "c": [{"d": "e', '{"a": {"b": 1}, "c": [{"d": "e"}]}'],
    ['[{"a": 1}, {"b', '[{"a": 1}, {}]'],
    ['{', '{}'],
    ['{"a": 1}', null],
    ['"just a string', null],
  ];
  for (const [cut, closed] of cases) it(`${cut} → ${closed}`, () => expect(closeTruncatedJson(cut)).toBe(closed));

  it('every cut of a real record closes to valid JSON', () => {
    const record = JSON.stringify({ prompt: 'Q "quoted" \\ and \u00e9', response: 'a\n\nb', steps: [1, 2.5, null, true], nested: { x: [{ y: 'z' }] } });
    for (let at = 1; at < record.length; at++) {
      const closed = closeTruncatedJson(record.slice(0, at));
      expect(() => JSON.parse(closed ?? '{}'), record.slice(0, at)).not.toThrow();
    }
  });
});

describe('where the first 64 KB of an editor document end', () => {
  /** What an editor's `positionAt` answers: an offset inside a line break stays at the line's end. */
  function positionAt(lines: string[], eol: string, offset: number): { line: number; character: number } {
    let start = 0;
    for (let line = 0; line < lines.length; line++) {
      const length = (lines[line] as string).length;
      if (offset <= start + length || line === lines.length - 1) return { line, character: Math.min(offset - start, length) };
      if (offset < start + length + eol.length) return { line, character: length };
      start += length + eol.length;
    }
    return { line: 0, character: 0 };
  }

  it('agrees with positionAt at every offset, line breaks LF and CRLF, past the end too', () => {
    const lines = ['{"prompt": "a"}', '', 'xyz', '', '', 'a longer last line'];
    for (const eol of ['\n', '\r\n']) {
      const total = lines.join(eol).length;
      for (let offset = 0; offset <= total + 3; offset++) {
        expect(prefixEnd((i) => (lines[i] as string).length, lines.length, eol.length, offset), `${JSON.stringify(eol)} @${offset}`)
          .toEqual(positionAt(lines, eol, offset));
      }
    }
  });

  it('reads only the lines the prefix reaches, not a 40 MB document\'s all', () => {
    let read = 0;
    const end = prefixEnd(() => (read++, 1_000), 46_907, 1);
    expect(end).toEqual({ line: 65, character: DETECTION_PREFIX_CHARS - 65 * 1_001 });
    expect(read).toBe(66);
  });
});
