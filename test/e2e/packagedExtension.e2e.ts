/**
 * The packaged extension as a user gets it: the linux-x64 VSIX that `npm run package` writes is
 * installed with `code-server --install-extension`, activates on the example rollout file, and its
 * Check Setup command reports the CPU provider and a smoke score of the tiny test model (built by
 * scripts/build-tiny-model.mjs; its scores test plumbing only). The walkthrough is opened too.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { repoRoot } from './codeServer';
import { attachedTexts, dottedRuns } from './editorDom';
import { panelFrame } from './panelHarness';
import { Workbench } from './workbench';

const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
const example = readFileSync(join(repoRoot, 'examples', 'gsm-rollouts.jsonl'), 'utf8');

/**
 * The VSIX to install: `$PROF_LENS_E2E_VSIX` when set (to try a given file), else one packed now
 * from the current dist/ by `npm run package`'s script (a few seconds).
 */
function linuxVsix(scratch: string): string {
  const given = process.env['PROF_LENS_E2E_VSIX'];
  if (given) return given;
  execFileSync(process.execPath, [join(repoRoot, 'scripts', 'package.mjs'), '--target', 'linux-x64', '--out', scratch, '--no-build'], { stdio: 'pipe' });
  return join(scratch, `prof-lens-linux-x64-${version}.vsix`);
}

/** Where a screenshot meant for the walkthrough's pages goes (copied to media/walkthrough/ by hand). */
function walkthroughShot(name: string): string {
  mkdirSync(join(repoRoot, 'test-output', 'e2e'), { recursive: true });
  return join(repoRoot, 'test-output', 'e2e', `walkthrough-${name}.png`);
}

/** The text of the Output view, maximised so the whole report is rendered. */
async function outputText(workbench: Workbench): Promise<string> {
  const lines = workbench.page.locator('.part.panel .monaco-editor .view-lines').first();
  await lines.waitFor({ timeout: 20_000 });
  return (await lines.innerText()).replace(/\u00a0/g, ' ');
}

describe('the linux-x64 VSIX installed into VS Code', () => {
  let workbench: Workbench;
  let scratch: string;
  let tinyModel: string;

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'prof-lens-e2e-vsix-'));
    execFileSync(process.execPath, [join(repoRoot, 'scripts', 'build-tiny-model.mjs'), scratch, '--only', 'tiny']);
    tinyModel = join(scratch, 'tiny');
    workbench = await Workbench.start({
      vsix: linuxVsix(scratch),
      workspaceFiles: { 'gsm-rollouts.jsonl': example },
      // The checker scores the file (its scores mean something); Check Setup still checks the model.
      userSettings: { 'profLens.scoring.scorer': 'checker', 'profLens.scoring.modelPath': tinyModel },
    });
  });
  afterAll(async () => {
    await workbench?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  test('activates on the example file: every rollout line gets its summary', async () => {
    expect(existsSync(join(workbench.server.root, 'ext', `prof-lens.prof-lens-${version}`, 'package.json'))).toBe(true);
    await workbench.openFile('gsm-rollouts.jsonl');
    await workbench.statusItem('PROF Lens ·').waitFor({ timeout: 60_000 });
    const editor = workbench.activeEditor();
    await expect.poll(async () => (await attachedTexts(editor)).length, { timeout: 30_000 }).toBeGreaterThan(10);
    const summaries = await attachedTexts(editor);
    expect(summaries[0]).toMatch(/^[✓✗] \S+ vs \S+ · weakest \d\.\d\d \(step \d+\) · /);
    expect(summaries.some((s) => s.includes('dropped: correct, steps least trusted'))).toBe(true);
    await workbench.screenshot('vsix-01-activated');
    await workbench.page.keyboard.press('Alt+Z');
    await workbench.page.waitForTimeout(500);
    await editor.screenshot({ path: walkthroughShot('open-example') });
    await workbench.page.keyboard.press('Alt+Z');
  });

  test('a low-score step has a hover, and the group panel opens from the packaged webview', async () => {
    // Line 3: a correct answer reached through 4 × 12 = 58, the example's first flawed step.
    await workbench.goToLine(3, (example.split('\n')[2]?.indexOf('4 \\\\times 12 = 58') ?? 0) + 60);
    const run = (await dottedRuns(workbench.activeEditor())).find((r) => r.text.includes('12 = 58'));
    expect(run).toBeDefined();
    const hover = await workbench.hoverAt({ x: (run?.x ?? 0) + 20, y: run?.y ?? 0 });
    expect(hover).toContain('step 1 of 3');
    expect(hover).toContain('4 \\times 12 = 58 is false (48)');
    await workbench.page.mouse.move(5, 500);
    // For the walkthrough: an incorrect rollout's slip (line 5), whose hover has no Problems entry above it.
    await workbench.goToLine(5, (example.split('\n')[4]?.indexOf('17 = 33') ?? 0) + 40);
    const slip = (await dottedRuns(workbench.activeEditor())).find((r) => r.text.includes('17 = 33'));
    expect(await workbench.hoverAt({ x: (slip?.x ?? 0) + 20, y: slip?.y ?? 0 })).toContain('step 2 of 3');
    await workbench.page.locator('.monaco-hover:not(.hidden)').first().screenshot({ path: walkthroughShot('hover') });
    await workbench.page.mouse.move(5, 500);
    await workbench.runCommand('PROF Lens: Show PROF Group');
    const frame = await panelFrame(workbench.page, /PROF group/);
    await frame.locator('button.toggle').first().click();
    await frame.locator('.katex').first().waitFor({ timeout: 15_000 });
    // KaTeX's stylesheet and woff2 fonts come from the VSIX's pruned node_modules/katex.
    const loadedKatexFonts = (): Promise<number> => frame.evaluate(async () => {
      await document.fonts.ready;
      return [...document.fonts].filter((f) => f.family.includes('KaTeX') && f.status === 'loaded').length;
    });
    await expect.poll(loadedKatexFonts, { timeout: 15_000 }).toBeGreaterThan(0);
    await workbench.screenshot('vsix-02-group-panel');
    // The panel opens beside the file; its webview is overlaid on the second editor group.
    await workbench.page.locator('.editor-group-container').nth(1).screenshot({ path: walkthroughShot('group-panel') });
    await workbench.runCommand('PROF Lens: Choose Step Scorer');
    await workbench.page.locator('.quick-input-list .monaco-list-row', { hasText: 'A process reward model exported to ONNX' }).waitFor();
    await workbench.page.locator('.quick-input-widget').screenshot({ path: walkthroughShot('scorer-picker') });
    await workbench.page.keyboard.press('Escape');
  });

  test('Check Setup reports the CPU provider and the tiny model\'s smoke score', async () => {
    await workbench.runCommand('View: Close All Editor Groups');
    await workbench.runCommand('PROF Lens: Check Setup');
    const toast = workbench.page.locator('.notifications-toasts .notification-toast', { hasText: 'PROF Lens setup check' }).first();
    await toast.waitFor({ timeout: 60_000 });
    await workbench.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: workbench.server.url });
    await toast.locator('.monaco-button', { hasText: 'Copy report' }).click();
    // The extension host asks the browser to write the clipboard: it lands a moment later.
    const clipboard = (): Promise<string> => workbench.page.evaluate(() => navigator.clipboard.readText());
    await expect.poll(clipboard, { timeout: 10_000 }).toMatch(/^PROF Lens setup check: /);
    expect(await clipboard()).toContain('Active execution provider: cpu');
    await workbench.runCommand('View: Toggle Maximized Panel');
    await expect.poll(() => outputText(workbench), { timeout: 30_000 }).toContain('Active execution provider: cpu');
    const text = await outputText(workbench);
    expect(text).toMatch(/onnxruntime-node\s+1\.30\.0 from \S+prof-lens\.prof-lens-[\d.]+\/node_modules\/onnxruntime-node\/bin\/napi-v6\/linux\/x64/);
    expect(text).toContain('profile qwen-prm, model tiny-test-model (not a PRM)');
    expect(text).toMatch(/session\s+opened on cpu in \d+ ms/);
    const smoke = /smoke score\s+3 steps scored in \d+ ms: (\d\.\d{3}, \d\.\d{3}, \d\.\d{3})/.exec(text);
    expect(smoke).not.toBeNull();
    // The same check on the command line, with the same model and rollout, gives the same scores.
    const cli = spawnDoctor(tinyModel);
    expect(cli).toContain(`: ${smoke?.[1]}`);
    await workbench.screenshot('vsix-03-check-setup');
    await workbench.page.locator('.part.panel').screenshot({ path: walkthroughShot('check-setup') });
    await workbench.runCommand('View: Toggle Maximized Panel');
    await workbench.runCommand('PROF Lens: GPU Set-up Guide');
    await workbench.page.locator('.tab', { hasText: 'Preview gpu.md' }).first().waitFor({ timeout: 20_000 });
    await expect.poll(() => frameTexts(workbench), { timeout: 20_000 }).toContain('Running the ONNX scorer on a GPU');
    await workbench.screenshot('vsix-03b-gpu-guide');
  });

  test('the walkthrough lists its steps and opens the example the VSIX ships', async () => {
    await workbench.runCommand('Welcome: Open Walkthrough...');
    await workbench.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Get started with PROF Lens' }).first().click();
    const page = workbench.page.locator('.gettingStartedContainer');
    await expect.poll(() => page.innerText(), { timeout: 20_000 }).toContain('Open the example rollouts');
    const steps = await page.innerText();
    for (const title of ['Read the marks and hovers', 'See a group and the whole file', 'Choose who scores the steps', 'Check your set-up', 'Filter a file for training']) {
      expect(steps).toContain(title);
    }
    await workbench.screenshot('vsix-04-walkthrough');
    await page.locator('.getting-started-step', { hasText: 'Read the marks and hovers' }).first().click();
    await workbench.page.waitForTimeout(1_500);
    await workbench.screenshot('vsix-04b-walkthrough-step');
    await page.locator('.getting-started-step', { hasText: 'Open the example rollouts' }).first().click();
    await page.locator('.monaco-button', { hasText: 'Open the example' }).first().click();
    await workbench.page.locator('.tab', { hasText: 'gsm-rollouts.jsonl' }).first().waitFor({ timeout: 20_000 });
    await expect.poll(async () => (await attachedTexts(workbench.activeEditor())).length, { timeout: 30_000 }).toBeGreaterThan(10);
    await workbench.screenshot('vsix-05-walkthrough-example');
  });
});

/** The text of every frame on the page (webviews are nested frames), joined. */
async function frameTexts(workbench: Workbench): Promise<string> {
  const texts = await Promise.all(workbench.page.frames().map((f) => f.evaluate(() => document.body?.innerText ?? '').catch(() => '')));
  return texts.join('\n');
}

function spawnDoctor(modelDir: string): string {
  return execFileSync(process.execPath, [join(repoRoot, 'dist', 'cli.js'), 'doctor', '--model', modelDir], { encoding: 'utf8' });
}
