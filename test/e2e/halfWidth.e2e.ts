/**
 * Every panel at the width it opens at by default: beside a file, in half of a 1,280-pixel window
 * (an editor group about 640 px wide). For the group panel, the file dashboard, the Rollout
 * Explorer, Compare and the Run Dashboard: no visible cell's content is wider than the cell, no
 * word is broken across lines, no table or row is wider than the view, no chart text leaves its
 * card. The group panel and the Explorer show the real verl dump. A screenshot per panel.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Frame } from 'playwright-core';
import { repoRoot } from './codeServer';
import { settledProblems } from './settledFit';
import { panelFrame } from './panelHarness';
import { runFiles } from './runFixture';
import { Workbench } from './workbench';

const fixtures = join(repoRoot, 'test', 'fixtures');
/** The real verl dump's first four prompts (16 rollouts each), in file order. */
const verl = (() => {
  const lines = readFileSync(join(fixtures, 'real', 'verl_gsm8k_multiturn_tool_step2.jsonl'), 'utf8').split('\n').filter(Boolean);
  const prompts = [...new Set(lines.map((l) => (JSON.parse(l) as { input: string }).input))].slice(0, 4);
  return lines.filter((l) => prompts.includes((JSON.parse(l) as { input: string }).input)).join('\n') + '\n';
})();
const rollouts = readFileSync(join(fixtures, 'e2e', 'rollouts.jsonl'), 'utf8');
const later = readFileSync(join(fixtures, 'e2e', 'later.jsonl'), 'utf8');

describe('every panel fits half of a 1,280-pixel window', () => {
  let workbench: Workbench;

  beforeAll(async () => {
    workbench = await Workbench.start({
      userSettings: { 'workbench.activityBar.location': 'hidden', 'workbench.secondarySideBar.defaultVisibility': 'hidden' },
      workspaceFiles: { 'verl_step2.jsonl': verl, 'rollouts.jsonl': rollouts, 'later.jsonl': later, ...runFiles('runs/baseline', [10, 20, 30, 40], { start: 0.4, slope: 0.01, meanSteps: 3, seed: 5 }) },
    });
    await workbench.page.setViewportSize({ width: 1280, height: 900 });
    await workbench.runCommand('View: Close Primary Side Bar');
    await workbench.page.locator('.part.sidebar').waitFor({ state: 'hidden' });
  });
  afterAll(async () => {
    await workbench?.stop();
  });

  /** The two editor groups share the window: the panel's is about 640 px wide. */
  async function expectHalfWidthGroups(): Promise<void> {
    const widths = await workbench.page.locator('.editor-group-container').evaluateAll((groups) => groups.map((g) => g.getBoundingClientRect().width));
    expect(widths).toHaveLength(2);
    for (const width of widths) expect(width).toBeGreaterThan(620), expect(width).toBeLessThan(660);
  }

  /** Checks the panel, with a screenshot of its top and, when it scrolls, of its end. */
  async function expectFits(frame: Frame, screenshot: string): Promise<void> {
    await expectHalfWidthGroups();
    // A notification toast would cover the panel in the screenshot.
    const toasts = workbench.page.locator('.notifications-toasts .notification-toast');
    if ((await toasts.count()) > 0) {
      await workbench.runCommand('Notifications: Clear All Notifications');
      await expect.poll(() => toasts.count()).toBe(0);
    }
    await workbench.screenshot(screenshot);
    expect(await settledProblems(frame)).toEqual([]);
    const scrolls = await frame.evaluate(() => {
      const page = document.scrollingElement ?? document.documentElement;
      const holder = document.querySelector<HTMLElement>('.compare-page') ?? page;
      if (holder.scrollHeight <= holder.clientHeight + 1) return false;
      holder.scrollTop = holder.scrollHeight;
      return true;
    });
    if (scrolls) {
      await workbench.screenshot(`${screenshot}-end`);
      expect(await settledProblems(frame)).toEqual([]);
    }
  }

  test('the group panel on the real verl dump', async () => {
    await workbench.openFile('verl_step2.jsonl');
    const lens = workbench.activeEditor().locator('.codelens-decoration a', { hasText: 'Show PROF Group' });
    await lens.first().waitFor({ timeout: 90_000 });
    await lens.first().click();
    const frame = await panelFrame(workbench.page, /PROF group/, 60_000);
    await expect.poll(() => frame.locator('tr.rollout').count(), { timeout: 30_000 }).toBe(16);
    await expectFits(frame, 'half-width-01-group');
    // A row's steps opened, as a reader does to see why it was dropped.
    await frame.locator('tr.rollout button.toggle').first().click();
    await frame.locator('tr.steps-row').first().waitFor();
    await expectFits(frame, 'half-width-02-group-steps');
  });

  test('the file dashboard', async () => {
    const group = await panelFrame(workbench.page, /PROF group/);
    await group.locator('#open-dashboard').click();
    const frame = await panelFrame(workbench.page, /PROF dashboard/);
    await expect.poll(() => frame.locator('.card').count(), { timeout: 30_000 }).toBeGreaterThan(2);
    await expectFits(frame, 'half-width-03-dashboard');
  });

  test('the Rollout Explorer on the real verl dump, and a search\'s matches', async () => {
    await workbench.runCommand('View: Focus First Editor Group');
    await workbench.runCommand('PROF Lens: Open Rollout Explorer');
    const frame = await panelFrame(workbench.page, /Rollout Explorer · verl_step2\.jsonl/, 60_000);
    await expect.poll(() => frame.locator('.query-title').innerText(), { timeout: 30_000 }).toBe('all rollouts · 64');
    await expect.poll(() => frame.locator('.grid-rows .grid-row.rollout').count()).toBeGreaterThan(10);
    await expectFits(frame, 'half-width-04-explorer');
    await frame.locator('input.search').fill('tool_call');
    await frame.locator('input.search').press('Enter');
    await expect.poll(() => frame.locator('.grid-rows mark').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await expectFits(frame, 'half-width-05-explorer-search');
  });

  test('Compare, its change column in view', async () => {
    await workbench.runCommand('View: Focus First Editor Group');
    await workbench.openFile('rollouts.jsonl');
    await workbench.activeEditor().locator('.codelens-decoration a').first().waitFor({ timeout: 60_000 });
    await workbench.runCommand('PROF Lens: Compare with…');
    // Another analysed file is open, so the command first asks which: a file from disk.
    await workbench.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Choose a file…' }).first().click();
    await workbench.acceptFileDialog('Compare rollouts.jsonl with', join(workbench.server.workspace, 'later.jsonl'), 'Compare');
    const frame = await panelFrame(workbench.page, /Compare · rollouts\.jsonl ↔ later\.jsonl/, 60_000);
    await expect.poll(() => frame.locator('tr.prompt').count(), { timeout: 30_000 }).toBe(2);
    await expectFits(frame, 'half-width-07-compare-prompts');
    await frame.locator('tr.prompt').first().click();
    await expect.poll(() => frame.locator('.side-b tbody tr').count(), { timeout: 20_000 }).toBe(6);
    await expectFits(frame, 'half-width-07-compare');
  });

  test('the Rollout Explorer\'s suspected false positives, their evidence in view', async () => {
    await workbench.runCommand('View: Focus First Editor Group');
    await expect.poll(() => workbench.page.locator('.tab.active', { hasText: 'rollouts.jsonl' }).count()).toBeGreaterThan(0);
    await workbench.runCommand('PROF Lens: Open Rollout Explorer');
    const frame = await panelFrame(workbench.page, /Rollout Explorer · rollouts\.jsonl/, 60_000);
    await expect.poll(() => frame.locator('.query-title').innerText(), { timeout: 30_000 }).toBe('all rollouts · 12');
    await frame.locator('select[name="suspected FP"]').selectOption('yes');
    await expect.poll(() => frame.locator('.query-title').innerText()).toBe('suspected FP · 4');
    const evidence = frame.locator('.grid-rows .grid-row.rollout .col-falsePositive');
    await expect.poll(() => evidence.allInnerTexts()).toHaveLength(4);
    expect((await evidence.allInnerTexts()).every((t) => t.startsWith('⚠'))).toBe(true);
    // The row under the cursor, in full, below the list: the evidence whole.
    await expect.poll(() => frame.locator('.row-detail').innerText()).toMatch(/suspected FP: ⚠ [\d.]+ — step \d+ of \d+ scores/);
    await expectFits(frame, 'half-width-06-explorer-false-positives');
  });

  test('Compare Curation Rules: its cards wrapped to the width, its matrix whole', async () => {
    await workbench.runCommand('View: Focus First Editor Group');
    await expect.poll(() => workbench.page.locator('.tab.active', { hasText: 'rollouts.jsonl' }).count()).toBeGreaterThan(0);
    await workbench.runCommand('PROF Lens: Compare Curation Rules');
    const frame = await panelFrame(workbench.page, /Compare curation rules · rollouts\.jsonl/, 60_000);
    await expect.poll(() => frame.locator('.rules-matrix tbody tr').count(), { timeout: 30_000 }).toBe(6);
    await expectFits(frame, 'half-width-09-compare-rules');
  });

  test('the Run Dashboard', async () => {
    await workbench.runCommand('View: Focus First Editor Group');
    await workbench.runCommand('PROF Lens: Open Training Run…');
    await workbench.acceptFileDialog('Open Training Run', join(workbench.server.workspace, 'runs', 'baseline'), 'Open Training Run');
    const frame = await panelFrame(workbench.page, /PROF training runs/, 60_000);
    await expect.poll(() => frame.locator('[data-chart="chart-accuracy"] circle.point-step.run-0').count(), { timeout: 60_000 }).toBe(4);
    await expectFits(frame, 'half-width-08-run');
  });
});
