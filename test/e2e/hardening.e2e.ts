/**
 * What hostile input and a dying worker look like in a real VS Code. The analysis worker is made
 * to die once in the middle of its first analysis (a test-only environment variable names a marker
 * file; the worker creates it and exits): the file still gets its summaries and the status bar
 * ends on the scorer, never stuck on "scoring". Then a file whose rollouts hold CAS bombs (a boxed
 * power tower, a tower and a huge factorial claimed in steps) is analysed in seconds, its other
 * rollouts graded, and the Problems panel names each expression that was not decided.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { repoRoot } from './codeServer';
import { attachedTexts } from './editorDom';
import { Workbench } from './workbench';

const fixture = readFileSync(join(repoRoot, 'test', 'fixtures', 'e2e', 'rollouts.jsonl'), 'utf8');

const fine = (response: string, answer: string): string => JSON.stringify({ uid: 'q', prompt: 'What is 6 * 7?', response, answer });
const bombs = [
  fine('We get 6 * 7 = 42.\n\nThe answer is \\boxed{42}.', '42'),
  fine('Step 1.\n\nSo \\boxed{9^{9^{9^{9}}}}', '42'),
  fine('We get $\\pi^{9^{9^{9}}} = 3$.\n\nThe answer is \\boxed{42}.', '42'),
  fine('We get $100000! = 5$.\n\nThe answer is \\boxed{41}.', '42'),
].join('\n') + '\n';

describe('hostile input and a dying worker in the editor', () => {
  let workbench: Workbench;
  let markerDir: string;
  let marker: string;

  beforeAll(async () => {
    markerDir = mkdtempSync(join(tmpdir(), 'prof-lens-e2e-crash-'));
    marker = join(markerDir, 'analysis-worker-crashed');
    workbench = await Workbench.start({
      workspaceFiles: { 'rollouts.jsonl': fixture, 'bombs.jsonl': bombs },
      env: { PROF_LENS_TEST_CRASH_ANALYSIS_ONCE: marker },
    });
  });
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') await workbench?.screenshot(`failure-hardening-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
  });
  afterAll(async () => {
    await workbench?.stop();
    rmSync(markerDir, { recursive: true, force: true });
  });

  test('the analysis worker dies mid-analysis, comes back, and finishes the file', async () => {
    await workbench.openFile('rollouts.jsonl');
    const editor = workbench.activeEditor();
    await expect.poll(async () => (await attachedTexts(editor)).length, { timeout: 60_000 }).toBe(12);
    expect(existsSync(marker)).toBe(true);
    const status = workbench.statusItem('PROF Lens ·');
    await expect.poll(async () => (await status.innerText()).trim(), { timeout: 30_000 }).toMatch(/^PROF Lens · file/);
    await workbench.screenshot('hardening-01-after-worker-crash');
  });

  test('CAS bombs are analysed in seconds; what was not decided is in the Problems panel', async () => {
    const started = Date.now();
    await workbench.openFile('bombs.jsonl');
    const editor = workbench.activeEditor();
    await expect.poll(async () => (await attachedTexts(editor)).length, { timeout: 60_000 }).toBe(4);
    expect(Date.now() - started).toBeLessThan(60_000);
    const summaries = await attachedTexts(editor);
    expect(summaries[0]).toMatch(/^✓ 42 vs 42/);
    expect(summaries[3]).toMatch(/^✗ 41 vs 42/);
    const status = workbench.statusItem('PROF Lens ·');
    await expect.poll(async () => (await status.innerText()).trim(), { timeout: 30_000 }).toMatch(/^PROF Lens · checker/);
    await workbench.screenshot('hardening-02-bombs');
    const notGraded = (await workbench.problems('was not graded')).join('\n');
    expect(notGraded).toMatch(/the answer "9\^\{9\^\{9\^\{9\}\}\}" was not graded: .*power tower/);
    const notChecked = (await workbench.problems('was not checked')).join('\n');
    expect(notChecked).toMatch(/step 1: "\\pi\^\{9\^\{9\^\{9\}\}\} = 3" was not checked/);
    expect(notChecked).toMatch(/step 1: "100000! = 5" was not checked: .*factorial of 100000/);
    await workbench.screenshot('hardening-03-problems');
  });
});
