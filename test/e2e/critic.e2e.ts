/**
 * The critic scorer in a real VS Code, against a local stand-in for an OpenAI-compatible chat
 * server (127.0.0.1, started by this test; its judgement is a fixed rule, not a model): before any
 * rollout is sent a modal says how many, about how many tokens, to which hosts and model, and waits;
 * once agreed, a second endpoint that answers 503 is set aside while the first carries on (the
 * status bar says so), the flagged step's hover gives the critic's reason; the API key set through
 * the command reaches the servers and no settings file or log; declining scores with the checker.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startFakeChatServer, type FakeChatServer } from '../unit/scoring/scorers/critic/fakeChatServer';
import { filesUnder } from './codeServer';
import { textPosition } from './editorDom';
import { panelFrame } from './panelHarness';
import { Workbench } from './workbench';

const PROBLEM = 'A crate holds 12 apples. How many apples are in 3 crates?';
const rollouts = [
  { uid: 'q1', prompt: PROBLEM, response: 'Each crate holds 12 apples.\n\nThree crates hold 3 × 12 = 38 apples.\n\nThe answer is \\boxed{38}.', answer: '36' },
  { uid: 'q1', prompt: PROBLEM, response: 'Each crate holds 12 apples.\n\nThree crates hold 3 × 12 = 36 apples.\n\nThe answer is \\boxed{36}.', answer: '36' },
  { uid: 'q1', prompt: PROBLEM, response: 'Twelve and twelve is 24.\n\nAdding another 12 gives 24 + 12 = 36.\n\nThe answer is \\boxed{36}.', answer: '36' },
].map((r) => JSON.stringify(r)).join('\n') + '\n';
const KEY = 'sk-e2e-31f7c2d9a8b4';

/** 1-based column of some text in a raw line of the file. */
function columnOf(line: number, text: string): number {
  return (rollouts.split('\n')[line] ?? '').indexOf(text) + 1;
}

describe('a rollout file judged by a critic', () => {
  let workbench: Workbench;
  let critic: FakeChatServer;
  /** A second server of the same model that answers every judgement with 503. */
  let failing: FakeChatServer;
  /** Chat requests that carried a rollout of the file (the fixed probe is about pencils, not apples). */
  const judged = (server: FakeChatServer): number => server.chats().filter((r) => JSON.stringify(r.body).includes('apples')).length;
  const rolloutRequests = (): number => judged(critic) + judged(failing);

  beforeAll(async () => {
    critic = await startFakeChatServer({ style: 'think' });
    failing = await startFakeChatServer({ onChat: () => ({ status: 503, body: { error: { message: 'replica overloaded' } } }) });
    workbench = await Workbench.start({
      workspaceFiles: { 'judged.jsonl': rollouts },
      userSettings: { 'profLens.scoring.scorer': 'critic', 'profLens.scoring.criticEndpointUrl': [failing.url, critic.url] },
    });
  });
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') await workbench?.screenshot(`failure-critic-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
  });
  afterAll(async () => {
    await workbench?.stop();
    await critic?.close();
    await failing?.close();
  });

  test('before anything is sent, a modal says how many rollouts, about how many tokens, and to which host', async () => {
    await workbench.openFile('judged.jsonl');
    const dialog = workbench.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 60_000 });
    const hosts = `${new URL(failing.url).host}, ${new URL(critic.url).host}`;
    const text = await dialog.innerText();
    expect(text).toContain(`PROF Lens: send 3 rollouts to the critic at ${hosts}?`);
    expect(text).toMatch(/About \d[\d,]* tokens of problems and solutions go to .* \(model fake-critic-7b\)/);
    expect(text).toContain('Nothing from this file is sent until you agree.');
    // Only the model list and the fixed probe so far: no rollout of the file has left.
    expect(rolloutRequests()).toBe(0);
    await workbench.screenshot('critic-01-consent');
    await dialog.locator('.monaco-button', { hasText: /^Send$/ }).click();
    const status = workbench.statusItem('PROF Lens ·');
    await expect.poll(async () => (await status.innerText()).trim(), { timeout: 60_000 }).toBe('PROF Lens · critic (fake-critic-7b)');
    expect(judged(critic)).toBe(3);
  });

  test("the status bar's tooltip gives each endpoint's state: one set aside after its 503s, one ready", async () => {
    const status = workbench.statusItem('PROF Lens ·');
    await workbench.page.mouse.move(5, 500);
    await status.hover();
    const tooltip = workbench.page.locator('.workbench-hover, .monaco-hover:not(.hidden)', { hasText: 'Endpoints' }).first();
    await tooltip.waitFor({ timeout: 15_000 });
    const text = await tooltip.innerText();
    expect(text).toContain('Endpoints (1/2 endpoints ready)');
    expect(text).toMatch(new RegExp(`${failing.url.replace(/\./g, '\\.')} — set aside, .*HTTP 503 .*replica overloaded`));
    expect(text).toMatch(new RegExp(`${critic.url.replace(/\./g, '\\.')} — ready · \\d+ done`));
    await workbench.screenshot('critic-02-endpoints');
    await workbench.page.mouse.move(5, 500);
  });

  test("the flagged step's hover gives the critic's reason, and the steps after it are not judged", async () => {
    const editor = workbench.activeEditor();
    // The step sits far to the right on a long line: put the cursor there so the editor scrolls to it.
    await workbench.goToLine(1, columnOf(0, 'The answer is') + 30);
    await expect.poll(() => textPosition(editor, 'Three crates hold 3 × 12 = 38'), { timeout: 15_000 }).not.toBeNull();
    const point = await textPosition(editor, 'Three crates hold 3 × 12 = 38');
    const hover = await workbench.hoverAt({ x: (point?.x ?? 0) + 60, y: point?.y ?? 0 });
    expect(hover).toContain('step 2 of 3');
    expect(hover).toMatch(/Score 0\.00 from critic:prof-lens-critic-v1@fake-critic-7b/);
    expect(hover).toContain('Note: flagged by the critic: 3 × 12 is 36, not 38.');
    await workbench.screenshot('critic-02b-hover');
    await workbench.page.mouse.move(5, 500);
    const after = await textPosition(editor, 'The answer is');
    const afterHover = await workbench.hoverAt({ x: (after?.x ?? 0) + 40, y: after?.y ?? 0 });
    expect(afterHover).toContain('Note: not judged: after the first error');
    await workbench.page.mouse.move(5, 500);
  });

  test("the group panel shows the critic's reason on the flagged step", async () => {
    await workbench.page.keyboard.press('Escape');
    const lens = workbench.activeEditor().locator('.codelens-decoration a', { hasText: 'Show PROF Group' });
    await lens.first().waitFor({ timeout: 30_000 });
    await lens.first().click();
    const frame = await panelFrame(workbench.page, /PROF group/);
    const row = frame.locator('tr.rollout[aria-label^="line 1:"]').first();
    await row.waitFor({ timeout: 20_000 });
    await row.locator('button.toggle').click();
    await expect.poll(() => frame.locator('tr.steps-row').count()).toBe(1);
    const steps = await frame.locator('tr.steps-row').innerText();
    expect(steps).toContain('Step 2 · score 0.00 — low · flagged by the critic: 3 × 12 is 36, not 38.');
    expect(steps).toContain('Step 3 · score — · not judged: after the first error');
    await workbench.screenshot('critic-03-panel');
    // Back to the file, which the next commands act on.
    // Closed by its own tab's close button, so the close cannot land on the file.
    await workbench.closeTabs('PROF group');
    await workbench.openFile('judged.jsonl');
  });

  test('an API key set with the command reaches the server, and no settings file or log', async () => {
    await workbench.page.keyboard.press('Escape');
    await workbench.runCommand('PROF Lens: Set Endpoint API Key…');
    const input = workbench.page.locator('.quick-input-widget input[type="password"]');
    await input.waitFor();
    await input.fill(KEY);
    await workbench.page.keyboard.press('Enter');
    await workbench.settledToast("the API key is stored in VS Code's secret storage", 20_000);
    await workbench.screenshot('critic-04-key-stored');
    const before = rolloutRequests();
    await workbench.runCommand('PROF Lens: Re-score File');
    // A new key opens the model again: its model list and probe carry the key. The file's rollouts are
    // all in the score cache, so nothing of the file is sent and no question is asked.
    await expect.poll(() => [...critic.requests, ...failing.requests].some((r) => r.headers.authorization === `Bearer ${KEY}`), { timeout: 30_000 }).toBe(true);
    const status = workbench.statusItem('PROF Lens ·');
    await expect.poll(async () => (await status.innerText()).trim(), { timeout: 60_000 }).toBe('PROF Lens · critic (fake-critic-7b)');
    expect(rolloutRequests()).toBe(before);
    expect(await workbench.page.locator('.monaco-dialog-box').count()).toBe(0);
    const root = workbench.server.root;
    const settingsFiles = [join(root, 'ud', 'User', 'settings.json'), ...filesUnder(join(workbench.server.workspace, '.vscode'))];
    const logs = filesUnder(join(root, 'ud', 'logs'));
    expect(logs.length).toBeGreaterThan(0);
    for (const file of [...settingsFiles, ...logs]) {
      if (existsSync(file)) expect(readFileSync(file, 'utf8'), file).not.toContain(KEY);
    }
    expect(workbench.server.log()).not.toContain(KEY);
  });

  test('an edited rollout is asked about alone; declining sends nothing, the checker scores and the status bar says why', async () => {
    // Editing one rollout makes it new to the cache: only that one would be sent.
    await workbench.goToLine(3, columnOf(2, 'is 24.') + 5);
    await workbench.page.keyboard.press('Backspace');
    await workbench.page.keyboard.type('5');
    const dialog = workbench.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 60_000 });
    expect(await dialog.innerText()).toContain('PROF Lens: send 1 rollout to the critic at ');
    const before = rolloutRequests();
    await dialog.locator('.monaco-button', { hasText: /^Cancel$/ }).click();
    const status = workbench.statusItem('PROF Lens ·');
    await expect.poll(async () => (await status.innerText()).trim(), { timeout: 60_000 }).toBe('PROF Lens · checker · critic not used');
    expect(rolloutRequests()).toBe(before);
    await workbench.page.mouse.move(5, 500);
    await status.hover();
    const tooltip = workbench.page.locator('.workbench-hover, .monaco-hover:not(.hidden)', { hasText: 'You did not agree' }).first();
    await tooltip.waitFor({ timeout: 15_000 });
    expect(await tooltip.innerText()).toMatch(/You did not agree to send 1 rollout to the critic at 127\.0\.0\.1:\d+/);
    await workbench.screenshot('critic-05-declined');
  });
});
