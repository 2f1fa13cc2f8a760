/**
 * Model scoring in a real VS Code: a tiny ONNX model (built by scripts/build-tiny-model.mjs with the
 * qwen-prm input/output contract; its scores test plumbing only and mean nothing about the steps)
 * set as the model folder in the user settings scores a rollout file that has no step scores.
 * Then a model whose inputs do not fit is chosen through the scorer picker: an error names what was
 * expected and the checker takes over, with the status bar saying so.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { filesUnder, repoRoot } from './codeServer';
import { textPosition } from './editorDom';
import { Workbench } from './workbench';

const unscored = [
  { uid: 'q1', prompt: 'A box holds 12 pencils. How many pencils are in 3 boxes?', response: 'Each box holds 12 pencils.\n\nThree boxes hold 3 * 12 = 36 pencils.\n\nThe answer is \\boxed{36}.', answer: '36' },
  { uid: 'q1', prompt: 'A box holds 12 pencils. How many pencils are in 3 boxes?', response: 'We multiply the boxes by the pencils.\n\n3 * 12 = 38, so there are 38 pencils.\n\nThe answer is \\boxed{38}.', answer: '36' },
  { uid: 'q1', prompt: 'A box holds 12 pencils. How many pencils are in 3 boxes?', response: 'Twelve and twelve is 24.\n\nAdding another 12 gives 36.\n\nThe answer is \\boxed{36}.', answer: '36' },
].map((r) => JSON.stringify(r)).join('\n') + '\n';

describe('a rollout file scored by an ONNX model', () => {
  let workbench: Workbench;
  let models: string;

  beforeAll(async () => {
    models = mkdtempSync(join(tmpdir(), 'prof-lens-e2e-models-'));
    execFileSync(process.execPath, [join(repoRoot, 'scripts', 'build-tiny-model.mjs'), models, '--only', 'tiny,tiny-bad-inputs']);
    workbench = await Workbench.start({
      workspaceFiles: { 'unscored.jsonl': unscored },
      userSettings: { 'profLens.scoring.scorer': 'onnx', 'profLens.scoring.modelPath': join(models, 'tiny') },
    });
  });
  afterEach(async (context) => {
    // What the window showed when a test failed, for the CI log's reader.
    if (context.task.result?.state === 'fail') await workbench?.screenshot(`failure-model-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
  });
  afterAll(async () => {
    await workbench?.stop();
    rmSync(models, { recursive: true, force: true });
  });

  test('steps without scores in the file are scored by the model on cpu, and the status bar says so', async () => {
    await workbench.openFile('unscored.jsonl');
    const status = workbench.statusItem('PROF Lens ·');
    await expect.poll(async () => (await status.innerText()).trim(), { timeout: 60_000 }).toMatch(/^PROF Lens · onnx qwen-prm \(cpu(; [a-z]+ unavailable)?\)$/);
    await workbench.page.mouse.move(5, 500);
    await status.hover();
    const tooltip = workbench.page.locator('.workbench-hover, .monaco-hover:not(.hidden)', { hasText: 'tiny-test-model' }).first();
    await tooltip.waitFor({ timeout: 15_000 });
    const tooltipText = await tooltip.innerText();
    expect(tooltipText).toContain('model tiny-test-model (not a PRM)');
    expect(tooltipText).toContain('execution provider cpu');
    await workbench.screenshot('model-01-status-bar');
    await workbench.page.mouse.move(5, 500);
    expect(filesUnder(join(workbench.server.root, 'ud')).some((f) => f.endsWith(join('score-cache', 'step-scores.v1.jsonl')))).toBe(true);
  });

  test('the hover on a step names the model scorer and its provider', async () => {
    const editor = workbench.activeEditor();
    await expect.poll(() => textPosition(editor, 'Each box holds'), { timeout: 15_000 }).not.toBeNull();
    const point = await textPosition(editor, 'Each box holds');
    const hover = await workbench.hoverAt({ x: (point?.x ?? 0) + 40, y: point?.y ?? 0 });
    expect(hover).toContain('step 1 of 3');
    expect(hover).toMatch(/Score \d\.\d\d from onnx:qwen-prm@cpu/);
    await workbench.screenshot('model-02-hover');
    await workbench.page.mouse.move(5, 500);
  });

  test('the scorer picker shows the model folder; a model that does not fit gives an error and the checker', async () => {
    await workbench.page.keyboard.press('Escape');
    await workbench.runCommand('PROF Lens: Choose Step Scorer');
    const rows = workbench.page.locator('.quick-input-list .monaco-list-row');
    await rows.first().waitFor();
    const onnxRow = rows.filter({ hasText: 'A process reward model exported to ONNX' });
    await expect.poll(() => onnxRow.innerText()).toContain(`model folder: ${join(models, 'tiny')}`);
    await workbench.screenshot('model-03-scorer-picker');
    await rows.filter({ hasText: 'Set the ONNX model folder' }).click();
    await workbench.acceptFileDialog('Folder with model.onnx', join(models, 'tiny-bad-inputs'));
    const toast = await workbench.settledToast('could not be loaded');
    const message = await toast.innerText();
    expect(message).toContain(`The ONNX model in ${join(models, 'tiny-bad-inputs')} could not be loaded`);
    expect(message).toContain('expected input_ids');
    const status = workbench.statusItem('PROF Lens ·');
    await expect.poll(async () => (await status.innerText()).trim(), { timeout: 30_000 }).toBe('PROF Lens · checker · model failed');
    await workbench.screenshot('model-04-bad-model');
  });

  test('choosing the working model again brings its scores back', async () => {
    await workbench.runCommand('Notifications: Clear All Notifications');
    await workbench.runCommand('PROF Lens: Choose Step Scorer');
    await workbench.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Set the ONNX model folder' }).click();
    await workbench.acceptFileDialog('Folder with model.onnx', join(models, 'tiny'));
    const status = workbench.statusItem('PROF Lens ·');
    await expect.poll(() => status.innerText(), { timeout: 60_000 }).toMatch(/PROF Lens · onnx qwen-prm \(cpu/);
    await workbench.screenshot('model-05-recovered');
  });
});
