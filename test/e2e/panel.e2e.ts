/**
 * The PROF group panel and the file dashboard in a real VS Code: opened from a CodeLens, the
 * decisions and penalty badges a user reads, a what-if change of m, a row that leads back to its
 * rollout, the dashboard, and hostile rollout text that must stay text.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Frame } from 'playwright-core';
import { runCli } from '../../src/cli/main';
import { repoRoot } from './codeServer';
import { linePosition } from './editorDom';
import { panelFrame, startPanelWorkbench } from './panelHarness';
import type { Workbench } from './workbench';

const fixture = readFileSync(join(repoRoot, 'test', 'fixtures', 'e2e', 'rollouts.jsonl'), 'utf8');
const hostile = readFileSync(join(repoRoot, 'test', 'fixtures', 'panel', 'hostile.jsonl'), 'utf8');
const ties = readFileSync(join(repoRoot, 'test', 'fixtures', 'e2e', 'ties.jsonl'), 'utf8');
/** The fixture's groups g1 and g2, as the panel's heading names them: by their question. */
const FIRST_GROUP = /PROF group · Maya has 48 apples/;
const SECOND_GROUP = /PROF group · A train travels 60 km/;

/** Text of the group table's rows, one string per rollout, in the order shown. */
async function rowTexts(frame: Frame): Promise<string[]> {
  return frame.locator('tr.rollout').allInnerTexts();
}

async function counts(frame: Frame): Promise<Record<string, string>> {
  const items = await frame.locator('.counts .count').allInnerTexts();
  return Object.fromEntries(items.map((t) => t.split('\n').map((s) => s.trim()).filter(Boolean) as [string, string]));
}

async function clickFirstLens(workbench: Workbench): Promise<void> {
  const lens = workbench.activeEditor().locator('.codelens-decoration a', { hasText: 'Show PROF Group' });
  await lens.first().waitFor({ timeout: 60_000 });
  await lens.first().click();
}

/** Accepts the save dialog with its proposed file name. */
async function saveThrough(workbench: Workbench, open: () => Promise<void>, name: string): Promise<void> {
  await open();
  const input = workbench.page.locator('.quick-input-widget input');
  await input.waitFor();
  await expect.poll(() => input.inputValue()).toContain(name);
  await workbench.page.keyboard.press('Enter');
}

/** What `prof-lens filter` writes for the fixture. */
async function filterWithCli(options: string[]): Promise<{ kept: Buffer; decisions: Buffer }> {
  const dir = mkdtempSync(join(tmpdir(), 'prof-lens-panel-'));
  const input = join(dir, 'rollouts.jsonl');
  writeFileSync(input, fixture);
  const quiet = (): void => undefined;
  await runCli(['filter', input, '-o', join(dir, 'kept.jsonl'), '--decisions', join(dir, 'decisions.jsonl'), '--cache-dir', join(dir, 'cache'), ...options], { stdout: quiet, stderr: quiet, isStderrTty: false, cwd: dir });
  return { kept: readFileSync(join(dir, 'kept.jsonl')), decisions: readFileSync(join(dir, 'decisions.jsonl')) };
}

describe('the PROF group panel and dashboard', () => {
  let workbench: Workbench;
  const dialogs: string[] = [];

  beforeAll(async () => {
    workbench = await startPanelWorkbench({ workspaceFiles: { 'rollouts.jsonl': fixture, 'hostile.jsonl': hostile, 'ties.jsonl': ties } });
    workbench.page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
  });
  afterAll(async () => {
    await workbench?.stop();
  });

  test('a CodeLens opens the group: counts, decisions in words, the suspected false positive', async () => {
    await workbench.openFile('rollouts.jsonl');
    await clickFirstLens(workbench);
    const frame = await panelFrame(workbench.page, FIRST_GROUP);
    await expect.poll(() => rowTexts(frame), { timeout: 20_000 }).toHaveLength(6);
    expect(await counts(frame)).toMatchObject({ n: '6', 'n+': '4', 'n−': '2', m: '4', 'k+': '2', 'k−': '2' });
    const rows = await rowTexts(frame);
    expect(rows.filter((r) => r.includes('dropped: correct, steps least trusted'))).toHaveLength(2);
    expect(rows.filter((r) => r.includes('dropped: incorrect'))).toHaveLength(0);
    expect(rows.find((r) => r.includes('0.12'))).toContain('⚠ false positive?');
    expect(await frame.locator('tr.rollout', { hasText: '0.12' }).locator('.badge.suspect').getAttribute('title')).toMatch(/^suspected false positive \(PROF drops it, a step below the threshold.*\): step 2 of 3 scores 0\.12, below 0\.5$/);
    expect(await frame.locator('.prompt-text').innerText()).toContain('Maya has 48 apples');
    // Named by its question: shortened in the tab, whole in the heading's tooltip, the id beside it.
    const question = 'Maya has 48 apples. She gives half of them to Tom and then eats 4. How many apples does she have left?';
    const tab = workbench.page.locator('.tab', { hasText: 'PROF group · ' }).first();
    expect((await tab.innerText()).trim()).toContain('PROF group · Maya has 48 apples. She gives half of…');
    expect(await frame.locator('h1.group-title').getAttribute('title')).toBe(`${question} (group g1)`);
    expect(await frame.locator('.view-header .group-id').innerText()).toBe('g1');
    await workbench.screenshot('panel-01-group');
  });

  test('moving the cursor to another group makes the panel follow: the penalty badge there', async () => {
    await workbench.page.locator('.tab', { hasText: 'rollouts.jsonl' }).first().click();
    await workbench.goToLine(13);
    const frame = await panelFrame(workbench.page, SECOND_GROUP);
    await expect.poll(() => rowTexts(frame), { timeout: 20_000 }).toHaveLength(6);
    expect(await counts(frame)).toMatchObject({ n: '6', 'n+': '5', 'n−': '1', m: '4', 'k+': '3', 'k−': '1' });
    const penalised = (await rowTexts(frame)).filter((r) => r.includes('H≤1'));
    expect(penalised).toHaveLength(1);
    expect(penalised[0]).toContain('dropped: step-count penalty');
    expect(await frame.locator('.badge.penalty').getAttribute('title')).toBe('step-count penalty −λ: H = 1 ≤ 1');
    await workbench.screenshot('panel-02-group-penalty');
  });

  // The palette lists the command once package.json declares it (the test entry cannot add it).
  test('the command opens the group of the rollout under the cursor', async () => {
    await workbench.page.locator('.tab', { hasText: 'rollouts.jsonl' }).first().click();
    await workbench.goToLine(2);
    await workbench.runCommand('PROF Lens: Show PROF Group');
    const frame = await panelFrame(workbench.page, FIRST_GROUP);
    await expect.poll(() => rowTexts(frame), { timeout: 20_000 }).toHaveLength(6);
    await workbench.goToLine(13);
    await panelFrame(workbench.page, SECOND_GROUP);
  });

  test('changing m re-decides the group at once and marks the rows that changed', async () => {
    const frame = await panelFrame(workbench.page, SECOND_GROUP);
    await frame.locator('#whatif-count input').fill('6');
    await expect.poll(() => frame.locator('tr.rollout.changed').count(), { timeout: 10_000 }).toBe(2);
    expect(await counts(frame)).toMatchObject({ m: '6', 'k+': '5', 'k−': '1' });
    expect(await frame.locator('.change-summary').innerText()).toContain('2 decisions changed');
    expect(await frame.locator('tr.rollout.changed .badge.changed').allInnerTexts()).toEqual(['now kept', 'now kept']);
    await workbench.screenshot('panel-03-what-if');
    await frame.locator('#whatif-reset').click();
    await expect.poll(() => frame.locator('tr.rollout.changed').count()).toBe(0);
  });

  test('picking a curation rule in the what-if re-decides the group by it: GRPO keeps the whole group', async () => {
    await workbench.openFile('rollouts.jsonl');
    await workbench.goToLine(13);
    await workbench.runCommand('PROF Lens: Show PROF Group');
    const frame = await panelFrame(workbench.page, SECOND_GROUP);
    await expect.poll(() => rowTexts(frame), { timeout: 20_000 }).toHaveLength(6);
    await frame.locator('#whatif-rule').click();
    await frame.locator('#whatif-rule vscode-option', { hasText: 'GRPO (keep all)' }).click();
    await expect.poll(() => frame.locator('tr.rollout.changed').count(), { timeout: 10_000 }).toBe(2);
    expect(await frame.locator('tr.rollout.changed .badge.changed').allInnerTexts()).toEqual(['now kept', 'now kept']);
    await workbench.screenshot('panel-03b-what-if-rule');
    await frame.locator('#whatif-reset').click();
    await expect.poll(() => frame.locator('tr.rollout.changed').count()).toBe(0);
    expect(await frame.locator('#whatif-rule').evaluate((e) => (e as HTMLElement & { value: string }).value)).toBe('prof');
  });

  test('the what-if survives the panel being hidden and shown again (the webview is rebuilt)', async () => {
    let frame = await panelFrame(workbench.page, SECOND_GROUP);
    await frame.locator('#whatif-count input').fill('5');
    await expect.poll(() => frame.locator('tr.rollout.changed').count()).toBe(1);
    await frame.locator('#open-dashboard').click();
    await panelFrame(workbench.page, /PROF dashboard/);
    await workbench.page.locator('.tab', { hasText: 'PROF group · A train travels' }).click();
    frame = await panelFrame(workbench.page, SECOND_GROUP);
    await expect.poll(() => frame.locator('#whatif-count input').inputValue()).toBe('5');
    expect(await frame.locator('tr.rollout.changed').count()).toBe(1);
    await frame.locator('#whatif-reset').click();
    await expect.poll(() => frame.locator('tr.rollout.changed').count()).toBe(0);
  });

  test('clicking a row puts the cursor on that rollout in the editor', async () => {
    const frame = await panelFrame(workbench.page, SECOND_GROUP);
    await frame.locator('tr.rollout', { hasText: 'H≤1' }).click();
    const position = workbench.page.locator('.statusbar-item[id="status.editor.selection"]');
    await expect.poll(() => position.innerText(), { timeout: 10_000 }).toMatch(/^Ln 13, Col/);
    await workbench.screenshot('panel-04-reveal');
  });

  test('the rows are reachable by keyboard: arrows move between rollouts, Enter reveals one', async () => {
    const frame = await panelFrame(workbench.page, SECOND_GROUP);
    await frame.locator('tr.rollout').first().focus();
    await workbench.page.keyboard.press('ArrowDown');
    await workbench.page.keyboard.press('ArrowDown');
    const focused = await frame.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
    // Its mean step score (0.65) is below every rollout of the upper half of its correct group.
    expect(focused).toMatch(/^line 12: correct, kept \(suspected false positive\)$/);
    await workbench.page.keyboard.press('Space');
    await expect.poll(() => frame.locator('tr.steps-row').count()).toBe(1);
    expect(await frame.locator('tr.steps-row').innerText()).toContain('Step 1 · score 0.60');
    await workbench.page.keyboard.press('Enter');
    const position = workbench.page.locator('.statusbar-item[id="status.editor.selection"]');
    await expect.poll(() => position.innerText(), { timeout: 10_000 }).toMatch(/^Ln 12, Col/);
  });

  test('the dashboard shows totals, suspected false positives, AUROC and the charts', async () => {
    const group = await panelFrame(workbench.page, /PROF group/);
    await group.locator('#open-dashboard').click();
    const frame = await panelFrame(workbench.page, /PROF dashboard/);
    const text = await frame.locator('#app').innerText();
    expect(text).toContain('AUROC');
    expect(text).toContain('Suspected false positives');
    expect(await frame.locator('.fp-list tbody tr').count()).toBeGreaterThan(0);
    expect(await frame.locator('svg.chart').count()).toBeGreaterThanOrEqual(4);
    expect(await frame.locator('svg.chart .zone').count()).toBeGreaterThan(0);
    await workbench.screenshot('panel-05-dashboard');
    await frame.locator('svg.chart .zone').first().scrollIntoViewIfNeeded();
    await workbench.screenshot('panel-05b-dashboard-charts');
    // Each suspect's group is named by its question, its id beside it.
    const suspectGroup = frame.locator('.fp-list td.named-group', { hasText: 'Maya has 48 apples' }).first();
    expect((await suspectGroup.innerText()).replace(/\s+/g, ' ')).toBe('Maya has 48 apples. She gives half of them to… g1');
    expect(await suspectGroup.locator('button.link').getAttribute('title')).toBe('Maya has 48 apples. She gives half of them to Tom and then eats 4. How many apples does she have left? (group g1)');
    await suspectGroup.locator('button.link').click();
    await panelFrame(workbench.page, FIRST_GROUP);
    await workbench.page.locator('.tab', { hasText: 'PROF dashboard' }).first().click();
    await panelFrame(workbench.page, /PROF dashboard/);
  });

  test('export from the panels writes what prof-lens filter writes', async () => {
    const dashboard = await panelFrame(workbench.page, /PROF dashboard/);
    await saveThrough(workbench, () => dashboard.locator('#export-kept').click(), 'rollouts.kept.jsonl');
    await expect.poll(() => dashboard.locator('.export-status').innerText(), { timeout: 15_000 }).toMatch(/^Saved 8 lines to .*rollouts\.kept\.jsonl$/);
    await workbench.page.locator('.tab', { hasText: 'PROF group' }).first().click();
    const group = await panelFrame(workbench.page, /PROF group/);
    await group.locator('#whatif-count input').fill('6');
    await saveThrough(workbench, () => group.locator('#export-decisions').click(), 'rollouts.decisions.jsonl');
    await expect.poll(() => group.locator('.export-status').innerText(), { timeout: 15_000 }).toMatch(/^Saved 12 lines/);
    await group.locator('#whatif-reset').click();
    const expected = await filterWithCli(['--m', '6']);
    expect(readFileSync(join(workbench.server.workspace, 'rollouts.kept.jsonl'))).toEqual((await filterWithCli([])).kept);
    expect(readFileSync(join(workbench.server.workspace, 'rollouts.decisions.jsonl'), 'utf8')).toBe(expected.decisions.toString('utf8'));
  });

  test('hostile prompt, response and answer text is shown as text and nothing runs', async () => {
    await workbench.openFile('hostile.jsonl');
    await clickFirstLens(workbench);
    const frame = await panelFrame(workbench.page, /PROF group · <script>window/);
    await expect.poll(() => rowTexts(frame), { timeout: 20_000 }).toHaveLength(2);
    for (const toggle of await frame.locator('button.toggle').all()) await toggle.click();
    const text = await frame.locator('#app').innerText();
    expect(text).toContain('<script>window.__profLensPwned=1</script>');
    expect(text).toContain('<img src=x onerror="window.__profLensPwned=2">');
    expect(text).toContain('<script>window.__profLensPwned=6</script>');
    expect(await frame.locator('.katex').count()).toBeGreaterThan(0);
    expect(await frame.locator('#app img, #app script, #app iframe, #app a[href]').count()).toBe(0);
    await workbench.page.waitForTimeout(1_000);
    expect(await frame.evaluate(() => (window as unknown as Record<string, unknown>)['__profLensPwned'] ?? null)).toBeNull();
    expect(dialogs).toEqual([]);
    await workbench.screenshot('panel-06-hostile');
  });

  test('a tied group: its dropped rows say tied, the counts count them, and so does the hover', async () => {
    await workbench.openFile('ties.jsonl');
    await clickFirstLens(workbench);
    const frame = await panelFrame(workbench.page, /PROF group · Tom has 3 boxes/);
    await expect.poll(() => rowTexts(frame), { timeout: 20_000 }).toHaveLength(6);
    const rows = await rowTexts(frame);
    expect(rows.filter((r) => r.includes('dropped: tied with a kept rollout; removed by file order'))).toHaveLength(2);
    // A tie is not a judgment: nothing here is a suspected false positive.
    expect(rows.filter((r) => r.includes('false positive'))).toEqual([]);
    expect(await counts(frame)).toMatchObject({ n: '6', 'n+': '4', 'k+': '2', tied: '2' });
    expect(await frame.locator('td.decision.tied').count()).toBe(2);
    await workbench.screenshot('panel-10-tied-group');
    await workbench.page.locator('.tab', { hasText: 'ties.jsonl' }).first().click();
    const editor = workbench.activeEditor();
    await workbench.goToLine(1, 1);
    // The first rollout of the file was dropped by the tie; hover the start of its line (the rollout as a whole).
    await expect.poll(() => linePosition(editor, '{"uid": "t1"'), { timeout: 15_000 }).not.toBeNull();
    const point = await linePosition(editor, '{"uid": "t1"');
    const hover = await workbench.hoverAt({ x: (point?.x ?? 0) + 30, y: point?.y ?? 0 });
    expect(hover).toContain('rollout 1');
    expect(hover).toContain('dropped: tied with a kept rollout; removed by file order');
    expect(hover).not.toContain('Suspected false positive');
    await workbench.screenshot('panel-11-tied-hover');
    await workbench.page.mouse.move(5, 500);
  });

  test('the panels follow the colour theme: light and high contrast', async () => {
    const theme = (label: string): Promise<void> => workbench.chooseTheme(label);
    try {
      await workbench.page.locator('.tab', { hasText: 'PROF dashboard' }).first().click();
      const dashboard = await panelFrame(workbench.page, /PROF dashboard/);
      await theme('Light Modern');
      await expect.poll(() => dashboard.evaluate(() => document.body.className), { timeout: 10_000 }).toContain('vscode-light');
      await workbench.screenshot('panel-08-dashboard-light');
      await workbench.page.locator('.tab', { hasText: 'PROF group' }).first().click();
      const group = await panelFrame(workbench.page, /PROF group/);
      await theme('Dark High Contrast');
      await expect.poll(() => group.evaluate(() => document.body.className), { timeout: 10_000 }).toContain('vscode-high-contrast');
      await workbench.screenshot('panel-09-group-high-contrast');
    } finally {
      await theme('Dark Modern');
    }
  });

  test('after a window reload the panels come back, the group view with its what-if', async () => {
    await workbench.page.locator('.tab', { hasText: 'rollouts.jsonl' }).first().click();
    await workbench.goToLine(7);
    let frame = await panelFrame(workbench.page, SECOND_GROUP);
    await frame.locator('#whatif-count input').fill('6');
    await expect.poll(() => frame.locator('tr.rollout.changed').count()).toBe(2);
    await workbench.runCommand('Developer: Reload Window');
    await workbench.page.waitForTimeout(1_000);
    await workbench.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await workbench.page.locator('.tab', { hasText: 'PROF group' }).first().click();
    frame = await panelFrame(workbench.page, SECOND_GROUP, 60_000);
    await expect.poll(() => frame.locator('tr.rollout.changed').count(), { timeout: 30_000 }).toBe(2);
    expect(await frame.locator('#whatif-count input').inputValue()).toBe('6');
    await workbench.screenshot('panel-07-restored');
  });
});
