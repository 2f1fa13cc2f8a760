/**
 * Curation rules in a real VS Code: a rule picked in the group panel's what-if re-decides the
 * group (its decision column changes), a rule's parameters get controls that refuse a bad value
 * and re-decide on a good one; Compare Curation Rules shows every rule's figures on the file, fits
 * half the window, and a cell of its matrix opens the Rollout Explorer on exactly the rollouts the
 * two rules disagree on.
 *
 * The file (test/fixtures/rules/two-groups.jsonl), with m = 2: group A (lines 1–4) has two right
 * answers and two wrong, line 2's right answer with a step at 0.2; group B (lines 5–8) four right
 * answers with equal steps. PROF keeps 1, 4, 7, 8 (B's tie broken by file order); PRIME's band
 * keeps A whole (accuracy 0.5) and drops B (accuracy 1).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Frame } from 'playwright-core';
import { repoRoot } from './codeServer';
import { settledProblems } from './settledFit';
import { panelFrame } from './panelHarness';
import { Workbench } from './workbench';

const file = readFileSync(join(repoRoot, 'test', 'fixtures', 'rules', 'two-groups.jsonl'), 'utf8');

/** The group table's decision cells, in the order shown. */
function decisions(frame: Frame): Promise<string[]> {
  return frame.locator('tr.rollout td.decision .reason').allInnerTexts();
}

async function pick(frame: Frame, dropdown: string, option: string): Promise<void> {
  await frame.locator(dropdown).click();
  await frame.locator(`${dropdown} vscode-option`, { hasText: option }).click();
}

describe('curation rules: the what-if and Compare Curation Rules', () => {
  let workbench: Workbench;

  beforeAll(async () => {
    workbench = await Workbench.start({
      userSettings: { 'profLens.prof.m': 2, 'workbench.activityBar.location': 'hidden', 'workbench.secondarySideBar.defaultVisibility': 'hidden' },
      workspaceFiles: { 'two-groups.jsonl': file },
    });
    await workbench.page.setViewportSize({ width: 1280, height: 900 });
    await workbench.runCommand('View: Close Primary Side Bar');
    await workbench.page.locator('.part.sidebar').waitFor({ state: 'hidden' });
  });
  afterAll(async () => {
    await workbench?.stop();
  });

  test('picking a rule in the what-if changes the decision column; its parameters are validated and re-decide the group', async () => {
    await workbench.openFile('two-groups.jsonl');
    await workbench.activeEditor().locator('.codelens-decoration a').first().waitFor({ timeout: 60_000 });
    await workbench.goToLine(1);
    await workbench.runCommand('PROF Lens: Show PROF Group');
    const frame = await panelFrame(workbench.page, /PROF group/);
    await expect.poll(() => frame.locator('tr.rollout').count(), { timeout: 20_000 }).toBe(4);
    const analysed = await decisions(frame);
    // PRIME keeps group A whole: the two rollouts PROF dropped are now kept.
    await pick(frame, '#whatif-rule', 'PRIME accuracy band');
    await expect.poll(() => frame.locator('tr.rollout.changed .badge.changed').allInnerTexts(), { timeout: 10_000 }).toEqual(['now kept', 'now kept']);
    expect(await decisions(frame)).not.toEqual(analysed);
    // Its band's bounds appear; a lower bound above the group's accuracy drops the group.
    const lower = frame.locator('#whatif-param-accuracy_lower_bound');
    await expect.poll(() => lower.isVisible()).toBe(true);
    await lower.locator('input').fill('1.5');
    await expect.poll(() => lower.getAttribute('aria-invalid')).not.toBeNull();
    expect(await frame.locator('tr.rollout.changed').count()).toBe(2);
    await lower.locator('input').fill('0.6');
    await expect.poll(() => lower.getAttribute('aria-invalid')).toBeNull();
    await expect.poll(() => frame.locator('tr.rollout.changed .badge.changed').allInnerTexts()).toEqual(['now dropped', 'now dropped']);
    // GFPO starts from its own defaults; num_remains_in_group = 1 keeps one rollout of the group.
    await pick(frame, '#whatif-rule', 'GFPO');
    const remains = frame.locator('#whatif-param-num_remains_in_group');
    await expect.poll(() => remains.isVisible()).toBe(true);
    expect(await lower.count()).toBe(0);
    await remains.locator('input').fill('1');
    await expect.poll(() => frame.locator('tr.rollout td.decision.kept').count()).toBe(1);
    await workbench.screenshot('rules-01-what-if-params');
    await frame.locator('#whatif-reset').click();
    await expect.poll(() => frame.locator('tr.rollout.changed').count()).toBe(0);
    // The file dashboard links to Compare Rules, and its header still fits half the window.
    await frame.locator('#open-dashboard').click();
    const dashboard = await panelFrame(workbench.page, /PROF dashboard/);
    await dashboard.locator('button.compare-rules').waitFor();
    await workbench.screenshot('rules-00-dashboard-link');
    expect(await settledProblems(dashboard)).toEqual([]);
    await dashboard.locator('button.compare-rules').click();
    await panelFrame(workbench.page, /Compare curation rules · two-groups\.jsonl/, 60_000);
    await workbench.closeTabs('Compare Rules');
    await workbench.closeTabs('PROF dashboard');
    await workbench.closeTabs('PROF group');
  });

  test('Compare Curation Rules shows every rule\'s figures, fits half the window, and a cell opens the rollouts two rules disagree on', async () => {
    await workbench.openFile('two-groups.jsonl');
    await workbench.runCommand('PROF Lens: Compare Curation Rules');
    const frame = await panelFrame(workbench.page, /Compare curation rules · two-groups\.jsonl/, 60_000);
    const kept = (rule: string) => frame.locator(`.rule-card[data-rule="${rule}"] dd.fig-kept`).innerText();
    await expect.poll(() => kept('prof'), { timeout: 20_000 }).toBe('4 of 8');
    expect(await kept('grpo')).toBe('8 of 8');
    expect(await kept('prime')).toBe('4 of 8');
    expect(await kept('fapo')).toBe('7 of 8');
    expect(await frame.locator('.rule-card[data-rule="prof"] .rule-note').allInnerTexts()).toEqual(['tie broken by file order in 1 group']);
    expect(await frame.locator('.rule-card[data-rule="grpo"] .rule-note').count()).toBe(0);
    expect(await frame.locator('.totals').innerText()).toMatch(/^8 rollouts in 2 groups · 1 suspected false positive \(/);
    // Half the window: two editor groups of about 640 px, nothing cut or pushed off the panel.
    const widths = await workbench.page.locator('.editor-group-container').evaluateAll((groups) => groups.map((g) => g.getBoundingClientRect().width));
    expect(widths).toHaveLength(2);
    for (const width of widths) expect(width).toBeGreaterThan(620), expect(width).toBeLessThan(660);
    await workbench.screenshot('rules-02-compare-half');
    expect(await settledProblems(frame)).toEqual([]);
    await frame.evaluate(() => document.querySelector('.rules-matrix')?.scrollIntoView());
    await workbench.screenshot('rules-03-compare-half-matrix');
    expect(await settledProblems(frame)).toEqual([]);
    // The whole window: the view's group maximized.
    await workbench.page.locator('.tab', { hasText: 'Compare Rules' }).click();
    await workbench.runCommand('View: Toggle Maximize Editor Group');
    await expect.poll(() => frame.evaluate(() => document.documentElement.clientWidth)).toBeGreaterThan(1200);
    await frame.evaluate(() => window.scrollTo(0, 0));
    await workbench.screenshot('rules-04-compare-full');
    expect(await settledProblems(frame)).toEqual([]);
    await workbench.runCommand('View: Toggle Maximize Editor Group');
    await expect.poll(() => frame.evaluate(() => document.documentElement.clientWidth)).toBeLessThan(660);

    // PROF keeps 1, 4, 7, 8; PRIME 1–4: they disagree on 2, 3, 7 and 8.
    const cell = frame.locator('button.disagree[data-a="prof"][data-b="prime"]');
    expect(await cell.innerText()).toBe('4 differ');
    expect(await frame.locator('button.disagree[data-a="prime"][data-b="roc"]').count()).toBe(1);
    await cell.click();
    const explorer = await panelFrame(workbench.page, /Rollout Explorer · two-groups\.jsonl/, 30_000);
    await expect.poll(() => explorer.locator('.query-title').innerText(), { timeout: 20_000 }).toBe('prof ≠ prime (kept by one, dropped by the other) · 4');
    const lines = async (): Promise<(string | undefined)[]> => (await explorer.locator('.grid-rows .grid-row.rollout').allInnerTexts()).map((t) => /line (\d+)/.exec(t)?.[1]);
    await expect.poll(lines).toEqual(['2', '3', '7', '8']);
    await workbench.screenshot('rules-05-explorer-disagreement');
    // Another condition narrows the disagreement; clearing the filters lets it go.
    await explorer.locator('select[name="outcome"]').selectOption('correct');
    await expect.poll(() => explorer.locator('.query-title').innerText()).toBe('correct · prof ≠ prime (kept by one, dropped by the other) · 3');
    await expect.poll(lines).toEqual(['2', '7', '8']);
    await explorer.locator('button', { hasText: 'Clear filters' }).click();
    await expect.poll(() => explorer.locator('.query-title').innerText()).toBe('all rollouts · 8');
  });
});
