/**
 * One line never sinks a file, and what is not a file is not read. Before: a NUL-filled tail
 * longer than V8's longest string failed the whole report with "Invalid string length" and no line
 * named; `report /dev/zero` ran V8 out of memory (4.3 GB, rc 134); a ProcessBench step that is a
 * 200,000-deep array failed the command with "Maximum call stack size exceeded"; a `--field` path
 * no record has put everything in one group `null`; a file named `constructor` was an option.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { readFileLines } from '../../../src/scoring/analysis/fileLines';
import { readLine } from '../../../src/core/read/reader';

const dir = mkdtempSync(join(tmpdir(), 'prof-lens-one-line-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(argv: string[], cwd = dir): Promise<{ code: number; out: string; err: string; seconds: number }> {
  let out = '';
  let err = '';
  const started = performance.now();
  const code = await runCli(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t), isStderrTty: false, cwd });
  return { code, out, err, seconds: (performance.now() - started) / 1000 };
}

const FINE = JSON.stringify({ prompt: 'What is 6 * 7?', response: 'We get 42.\n\nThe answer is 42', gold: '42', score: 1, step_scores: [0.9, 0.8] });

describe('a line longer than the limit', () => {
  it('is a diagnostic naming it; the lines around it are read', async () => {
    const path = join(dir, 'long.jsonl');
    writeFileSync(path, `${FINE}\n${'x'.repeat(300_000)}\n${FINE}\n`);
    const seen = [];
    for await (const batch of readFileLines(path, 64 * 1024, { maxLineBytes: 100_000 })) for (const line of batch) seen.push(readLine(line));
    expect(seen.map((r) => r.kind)).toEqual(['record', 'bad', 'record']);
    expect(seen[1]).toMatchObject({ kind: 'bad', diagnostic: { line: 2, code: 'line-too-long', message: expect.stringMatching(/^line 2 is 0 MB long, over the 256 MB limit for one line: it is not read$/) } });
  });

  it('a 300 MB NUL-filled tail (a crashed writer) through report: named, the good line reported, in bounded memory', async () => {
    const path = join(dir, 'nul.jsonl');
    writeFileSync(path, `${FINE}\n`);
    const fd = openSync(path, 'r+');
    // Sparse: the zeros cost no disk.
    ftruncateSync(fd, 300 * 1024 * 1024);
    closeSync(fd);
    const run = await cli(['report', path, '--json']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.out)).toMatchObject({ rollouts: 1, unreadableLines: 1 });
    expect(run.err).toMatch(/nul\.jsonl:2: error: line 2 is 300 MB long, over the 256 MB limit for one line: it is not read/);
    expect(run.seconds).toBeLessThan(60);
  });
});

describe('special files are refused by type', () => {
  it('/dev/zero: exit 2 at once, saying what it is', async () => {
    const run = await cli(['report', '/dev/zero']);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/\/dev\/zero is a character device, not a regular file/);
    expect(run.seconds).toBeLessThan(5);
  });

  it('a FIFO is not opened (opening it would wait for a writer for ever)', async () => {
    const fifo = join(dir, 'pipe.jsonl');
    execFileSync('mkfifo', [fifo]);
    for (const command of [['report', fifo], ['filter', fifo, '-o', join(dir, 'never.jsonl')], ['grade', fifo]]) {
      const run = await cli(command);
      expect(run.code).toBe(2);
      expect(run.err).toMatch(/pipe\.jsonl is a named pipe \(FIFO\), not a regular file/);
    }
  });
});

describe('one record never takes the file with it', () => {
  const deep = (n: number): string => `${'['.repeat(n)}${']'.repeat(n)}`;

  it('a ProcessBench step that is a 200,000-deep array: that record is named, the others are reported', async () => {
    const path = join(dir, 'pb.json');
    writeFileSync(path, `[{"id": "a", "problem": "p", "steps": ["s1", "s2"], "label": -1, "final_answer_correct": true},\n{"id": "b", "problem": "p", "steps": [${deep(200_000)}], "label": 0, "final_answer_correct": false}]`);
    const run = await cli(['report', path, '--json']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.out)).toMatchObject({ rollouts: 1, unreadableLines: 1 });
    expect(run.err).toMatch(/pb\.json:2: error: line 2: step 1 is not a text but a value nested more than 32 deep/);
  });

  it('a PRM800K pre-generated step that is a 200,000-deep array: the same', async () => {
    const good = JSON.stringify({ question: { problem: 'p', ground_truth_answer: '1', pre_generated_steps: ['a', 'b'] }, label: { steps: [{ completions: [{ text: 'a', rating: 1 }] }] } });
    const bad = `{"question": {"problem": "p", "ground_truth_answer": "1", "pre_generated_steps": ["a", ${deep(200_000)}]}, "label": {"steps": []}}`;
    const run = await cli(['report', join(dir, 'prm.jsonl'), '--json'].map((a, i) => (i === 1 ? (writeFileSync(a, `${good}\n${bad}\n`), a) : a)));
    expect(run.code).toBe(1);
    expect(JSON.parse(run.out)).toMatchObject({ rollouts: 1, unreadableLines: 1 });
    expect(run.err).toMatch(/prm\.jsonl:2: error: .*step 2 is not a text but a value nested more than 32 deep/);
  });
});

describe('arguments and paths', () => {
  it('a --field path that no record has is an error naming the path (everything went to one group "null")', async () => {
    const path = join(dir, 'uids.jsonl');
    writeFileSync(path, `${FINE}\n${FINE}\n`);
    const run = await cli(['report', path, '--field', 'group=meta.uid']);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/--field: .*uids\.jsonl: no record has "meta\.uid", the path the field mapping gives for group/);
    const filter = await cli(['filter', path, '--field', 'group=meta.uid', '-o', join(dir, 'uids.kept.jsonl')]);
    expect(filter.code).toBe(2);
  });

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])('a file named %s is a file, not an option', async (name) => {
    const folder = join(dir, `names-${name}`);
    mkdirSync(folder);
    writeFileSync(join(folder, name), `${FINE}\n`);
    const run = await cli(['report', name, '--json'], folder);
    expect(run.err).not.toMatch(/needs a value/);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out).rollouts).toBe(1);
    expect((await cli([name], folder)).err).toMatch(/unknown command/);
  });
});

describe('what reaches the terminal', () => {
  const ESC = '\u001b';
  const hostile = `${ESC}]52;c;ZWNobyBwd25lZA==\u0007${ESC}]0;title\u0007${ESC}[2J${ESC}]8;;https://evil.example\u0007link${ESC}]8;;\u0007\u202e`;

  it('keys, prompts, answers and file names lose their escape sequences; JSON keeps the data as escapes', async () => {
    const name = `esc${hostile.replace(/[/\u0000]/g, '')}.jsonl`;
    const path = join(dir, name);
    const record = { uid: hostile, prompt: `prompt ${hostile}`, response: `So the answer is ${hostile}`, gold: '1', score: 1, step_scores: [2] };
    writeFileSync(path, `${JSON.stringify(record)}\n${JSON.stringify({ [hostile]: 1 })}\n`);
    const text = await cli(['report', path]);
    for (const output of [text.out, text.err]) expect(output).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(text.out).toMatch(/PROF report: .*esc.*\.jsonl/);
    // The key is quoted cut to 60 characters: a sequence cut open loses its ESC, the rest is plain text.
    expect(text.err).toMatch(/keys present: \S/);
    expect(text.err).not.toMatch(/title|ZWNob/);
    const json = await cli(['report', path, '--json']);
    expect(json.out).not.toMatch(/[\u007f-\u009f\u202a-\u202e]/);
    expect(JSON.parse(json.out).file).toBe(path);
    const missing = await cli(['report', join(dir, `missing${hostile.slice(0, 20)}.jsonl`)]);
    expect(missing.err).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });

  it('a 20 MB key makes a message of a few hundred characters, with its size', async () => {
    const path = join(dir, 'bigkey.jsonl');
    const fd = openSync(path, 'w');
    writeSync(fd, `{"${'k'.repeat(20 * 1024 * 1024)}": 1}\n${FINE}\n`);
    closeSync(fd);
    const run = await cli(['report', path, '--json']);
    expect(run.code).toBe(1);
    expect(run.err.length).toBeLessThan(2000);
    expect(run.err).toMatch(/keys present: k{60}… \(20 MB\)/);
  });
});
