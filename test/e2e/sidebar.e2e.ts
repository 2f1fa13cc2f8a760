/**
 * The PROF Lens sidebar and the Outline in a real VS Code on the bundled example: the tree of
 * groups and rollouts, the one-click filter to suspected false positives, a click that reveals the
 * rollout's line, the group panel from a rollout's context menu, and groups → rollouts in the Outline.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Locator } from 'playwright-core';
import { repoRoot } from './codeServer';
import { codeLensTexts } from './editorDom';
import { panelFrame } from './panelHarness';
import { Workbench } from './workbench';

const example = readFileSync(join(repoRoot, 'examples', 'gsm-rollouts.jsonl'), 'utf8');
const ties = readFileSync(join(repoRoot, 'test', 'fixtures', 'e2e', 'ties.jsonl'), 'utf8');

/** A group's name as the sidebar shows it: its question (from the file itself), on one line, clipped to 60 characters. */
function wholeQuestionOf(uid: string): string {
  const first = example.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as { uid: string; prompt: string }).find((r) => r.uid === uid);
  return (first?.prompt ?? '').replace(/\s+/g, ' ').trim();
}
function questionOf(uid: string): string {
  const flat = wholeQuestionOf(uid);
  return flat.length > 60 ? `${flat.slice(0, 59)}…` : flat;
}
const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('the PROF Lens sidebar', () => {
  let workbench: Workbench;

  /** The rows of the Rollouts tree, as a user reads them (label, then description). */
  const tree = (): Locator => workbench.page.locator('.pane', { has: workbench.page.locator('.pane-header', { hasText: 'Rollouts' }) }).first();
  const rowTexts = (): Promise<string[]> => tree().locator('.monaco-list-row').evaluateAll((rows) => rows.map((r) => [
    r.querySelector('.label-name')?.textContent ?? '', r.querySelector('.label-description')?.textContent ?? '',
  ].join(' ').trim()));
  const row = (text: string): Locator => tree().locator('.monaco-list-row', { hasText: text }).first();

  beforeAll(async () => {
    workbench = await Workbench.start({ workspaceFiles: { 'gsm-rollouts.jsonl': example, 'ties.jsonl': ties } });
  });
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') await workbench?.screenshot(`failure-sidebar-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
  });
  afterAll(async () => {
    await workbench?.stop();
  });

  test('lists the open rollout file, its groups with n, n+, n−, kept, and their rollouts', async () => {
    await workbench.openFile('gsm-rollouts.jsonl');
    await workbench.statusItem('PROF Lens ·').waitFor({ timeout: 60_000 });
    await expect.poll(async () => (await workbench.statusItem('PROF Lens ·').innerText()).trim(), { timeout: 60_000 }).toBe('PROF Lens · checker');
    await workbench.page.locator('.activitybar .action-item a[aria-label^="PROF Lens"]').first().click();
    await row('gsm-rollouts.jsonl').waitFor({ timeout: 30_000 });
    // Wide enough to read the descriptions in the screenshots.
    const side = await workbench.page.locator('.part.sidebar').boundingBox();
    if (side) {
      await workbench.page.mouse.move(side.x + side.width + 1, side.y + 300);
      await workbench.page.mouse.down();
      await workbench.page.mouse.move(side.x + side.width + 360, side.y + 300, { steps: 8 });
      await workbench.page.mouse.up();
    }
    await expect.poll(rowTexts, { timeout: 30_000 }).toContain('gsm-rollouts.jsonl 72 rollouts · 9 groups · ⚠ 9');
    expect(await rowTexts()).toContain(`${questionOf('gsm-01')} n 8 · n+ 5 · n− 3 · kept 4 · ⚠ 1`);
    await row(questionOf('gsm-01')).click();
    await expect.poll(rowTexts).toContain('line 3 ✓ dropped: correct, steps least trusted · weakest 0.05 (step 1) · ⚠ FP');
    expect(await rowTexts()).toContain('line 6 ✗ dropped: tied with a kept rollout; removed by file order · weakest 0.90 (step 1)');
    await workbench.screenshot('sidebar-01-tree');
  });

  test('one click filters to suspected false positives, and a click on a rollout reveals its line', async () => {
    await tree().hover();
    await workbench.page.locator('.action-label[aria-label="Show Only Suspected False Positives"]').first().click();
    await expect.poll(rowTexts).toContain('gsm-rollouts.jsonl 72 rollouts · 9 groups · ⚠ 9 · 9 shown');
    await expect.poll(async () => tree().locator('.pane-header').innerText()).toContain('suspected false positives');
    await row(questionOf('gsm-02')).click();
    await expect.poll(rowTexts).toContain('line 11 ✓ dropped: correct, steps least trusted · weakest 0.05 (step 1) · ⚠ FP');
    // Only the flagged rollout of each group is listed.
    expect((await rowTexts()).filter((t) => t.startsWith('line '))).toEqual([
      'line 3 ✓ dropped: correct, steps least trusted · weakest 0.05 (step 1) · ⚠ FP',
      'line 11 ✓ dropped: correct, steps least trusted · weakest 0.05 (step 1) · ⚠ FP',
    ]);
    await row('line 11').click();
    const selection = workbench.page.locator('.statusbar-item[id="status.editor.selection"]');
    await expect.poll(async () => (await selection.innerText()).trim(), { timeout: 15_000 }).toBe('Ln 11, Col 1');
    await workbench.screenshot('sidebar-02-filtered-revealed');
  });

  test('a rollout\'s context menu opens its group panel', async () => {
    await workbench.runContextMenu(row('line 11'), 'Show PROF Group');
    const frame = await panelFrame(workbench.page, /^PROF group · Omar bakes 6 trays/);
    await expect.poll(async () => frame.locator('tr.rollout').count(), { timeout: 30_000 }).toBe(8);
    // The tab is named by the question too, shortened; the id stays beside the heading.
    expect((await workbench.page.locator('.tab', { hasText: 'PROF group · ' }).first().innerText()).trim()).toContain('PROF group · Omar bakes 6 trays of cookies with 8…');
    expect(await frame.locator('.view-header .group-id').innerText()).toBe('gsm-02');
    await workbench.screenshot('sidebar-03-group-panel');
    // Closed by its own tab's close button, so the close cannot land on the file.
    await workbench.closeTabs('PROF group');
    expect(await workbench.page.locator('.tab[aria-label*="PROF group"]').count()).toBe(0);
  });

  test('a group\'s context menu opens the Rollout Explorer filtered to that group', async () => {
    // The activity bar's icon toggles the sidebar: click it only when the tree is hidden.
    if (!(await tree().isVisible())) await workbench.page.locator('.activitybar .action-item a[aria-label^="PROF Lens"]').first().click();
    await tree().hover();
    await workbench.page.locator('.action-label[aria-label="Show All Rollouts"]').first().click({ timeout: 5_000 }).catch(() => undefined);
    // The tree redraws unfiltered before a click on it can land where it aims.
    await expect.poll(rowTexts, { timeout: 15_000 }).toContain('gsm-rollouts.jsonl 72 rollouts · 9 groups · ⚠ 9');
    await expect.poll(rowTexts).toContain('line 9 ✓ kept · weakest 0.90 (step 1)');
    // Select the group first: the rollout an earlier test revealed must not be the menu's subject.
    const group = row(questionOf('gsm-02'));
    await group.click();
    await expect.poll(() => group.getAttribute('aria-selected'), { timeout: 15_000 }).toBe('true');
    await workbench.runContextMenu(group, 'Open Rollout Explorer');
    const frame = await panelFrame(workbench.page, /Rollout Explorer · gsm-rollouts\.jsonl/);
    // Named by its question (shortened); the whole question and the id are the title's tooltip.
    await expect.poll(() => frame.locator('.query-title').innerText(), { timeout: 30_000 }).toBe('group Omar bakes 6 trays of cookies with 8… · 8');
    expect(await frame.locator('.query-title').getAttribute('title')).toBe(`group gsm-02: ${wholeQuestionOf('gsm-02')} · 8`);
    expect(await workbench.page.locator('.tab', { hasText: 'Explorer · group' }).count()).toBe(1);
    expect(await frame.locator('.grid-rows .grid-row.rollout').count()).toBe(8);
    // The group column folds at this width: the first row's detail names the group by its question and id.
    await expect.poll(() => frame.locator('.row-detail').innerText()).toContain('group: Omar bakes 6 trays of cookies with 8 cookies on each tray… (gsm-02)');
    await workbench.screenshot('sidebar-04-group-explorer');
    await workbench.closeTabs('Rollout Explorer');
  });

  test('a file\'s context menu opens Compare Curation Rules on that file', async () => {
    if (!(await tree().isVisible())) await workbench.page.locator('.activitybar .action-item a[aria-label^="PROF Lens"]').first().click();
    const file = row('gsm-rollouts.jsonl');
    await file.click();
    await workbench.runContextMenu(file, 'Compare Curation Rules');
    const frame = await panelFrame(workbench.page, /Compare curation rules · gsm-rollouts\.jsonl/, 60_000);
    // What prof-lens rules prints for this file: PROF keeps 36 of 72, GRPO all of them.
    await expect.poll(() => frame.locator('.rule-card[data-rule="prof"] dd.fig-kept').innerText(), { timeout: 30_000 }).toBe('36 of 72');
    expect(await frame.locator('.rule-card[data-rule="grpo"] dd.fig-kept').innerText()).toBe('72 of 72');
    await workbench.closeTabs('Compare Rules');
  });

  test('the Outline lists groups, and a group lists its rollouts', async () => {
    await workbench.openFile('gsm-rollouts.jsonl');
    // The breadcrumbs below follow the cursor: put it in the first group.
    await workbench.goToLine(1);
    await workbench.runCommand('Explorer: Focus on Outline View');
    const outline = workbench.page.locator('.pane', { has: workbench.page.locator('.pane-header', { hasText: 'Outline' }) }).first();
    const outlineRows = (): Promise<string[]> => outline.locator('.monaco-list-row').evaluateAll((rows) => rows.map((r) => (r.textContent ?? '').replace(/\s+/g, ' ').trim()));
    // The Outline opens expanded; the pane is short, so only the first group's rows are rendered.
    await expect.poll(outlineRows, { timeout: 30_000 }).toEqual(expect.arrayContaining([
      expect.stringMatching(new RegExp(`${escaped(questionOf('gsm-01'))} ?n 8 · n\\+ 5 · n− 3 · kept 4`)),
      expect.stringMatching(/line 3 ?✓ dropped: correct, steps least trusted · weakest 0\.05 \(step 1\) · ⚠ FP/),
    ]));
    // The breadcrumbs name the group and the rollout under the cursor.
    await expect.poll(async () => (await workbench.page.locator('.editor-group-container.active .breadcrumbs-control').first().innerText()).replace(/\s+/g, ' ')).toContain(questionOf('gsm-01').slice(0, 40));
    await workbench.screenshot('sidebar-05-outline');
  });

  test('a file whose scores tie for most rollouts: lenses say tied, one notice offers a PRM or critic', async () => {
    await workbench.openFile('ties.jsonl');
    const toast = await workbench.settledToast('cannot tell 4 of 6 rollouts apart');
    expect(await toast.innerText()).toContain("The file's step scores cannot tell 4 of 6 rollouts apart");
    expect(await toast.innerText()).toContain('Choose a PRM or Critic');
    const lenses = async (): Promise<string[]> => (await codeLensTexts(workbench.activeEditor())).flatMap((text) => text.replace(/\u00a0/g, ' ').split(/\s+\|\s+/));
    await expect.poll(lenses, { timeout: 30_000 }).toContainEqual(expect.stringContaining('tied with 3 others'));
    expect((await lenses()).join('\n')).not.toMatch(/rank \d of 4 correct/);
    await workbench.screenshot('sidebar-06-ties-notice');
  });
});
