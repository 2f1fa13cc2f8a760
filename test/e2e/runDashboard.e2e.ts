/**
 * The Run Dashboard in a real VS Code: a verl-style run folder opened from the explorer's context
 * menu, its charts over the steps, a step file written while the dashboard is open (the chart gains
 * a point, live), a second run overlaid through "Add run…", a step read by pointing and with the
 * keyboard, and a click on a point that opens the step's file with the editor's PROF features.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Frame } from 'playwright-core';
import { panelFrame } from './panelHarness';
import { runFiles, stepFile } from './runFixture';
import { Workbench } from './workbench';

const STEPS = [10, 20, 30, 40, 50, 60];
const baseline = runFiles('runs/baseline', STEPS, { start: 0.3, slope: 0.002, meanSteps: 4, seed: 1 });
const candidate = runFiles('runs/candidate', [...STEPS, 70, 80], { start: 0.25, slope: 0.008, meanSteps: 3, seed: 2 });

/** The legend's lines, one per run, spaces normalised. */
async function legend(frame: Frame): Promise<string[]> {
  return (await frame.locator('.legend.runs li').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
}

/** Points of one run in one chart. */
function points(frame: Frame, chart: string, run: number): Promise<number> {
  return frame.locator(`[data-chart="chart-${chart}"] circle.point-step.run-${run}`).count();
}

describe('the Run Dashboard', () => {
  let workbench: Workbench;
  let frame: Frame;

  beforeAll(async () => {
    workbench = await Workbench.start({ workspaceFiles: { ...baseline, ...candidate } });
  });
  afterAll(async () => {
    await workbench?.stop();
  });

  test('the explorer opens a run folder: one point per step, the legend, the penalty zone', async () => {
    const page = workbench.page;
    await page.locator('.explorer-item', { hasText: 'runs' }).first().click();
    const folder = page.locator('.explorer-item', { hasText: 'baseline' }).first();
    await folder.waitFor();
    await workbench.runContextMenu(folder, 'Open Training Run…');
    frame = await panelFrame(page, /PROF training runs/, 60_000).catch(async (error: unknown) => {
      await workbench.screenshot('run-00-no-panel');
      throw error;
    });
    await expect.poll(() => points(frame, 'accuracy', 0), { timeout: 60_000 }).toBe(STEPS.length);
    expect(await legend(frame)).toEqual(['baseline · 6 steps in 6 files explore all rollouts remove']);
    expect(await frame.locator('[data-chart="chart-steps"] .zone-text').allTextContents()).toEqual(['penalty zone: H ≤ 1', 'penalty zone: H ≥ 30']);
    expect(await frame.locator('[data-chart^="decisions-"] rect.stack').count()).toBeGreaterThan(STEPS.length);
    await workbench.screenshot('run-01-one-run');
  });

  test('a step file written while the dashboard is open adds a point without reopening anything', async () => {
    writeFileSync(join(workbench.server.workspace, 'runs/baseline/70.jsonl'), stepFile({ step: 70, accuracy: 0.9, meanSteps: 8, seed: 1 }));
    await expect.poll(() => points(frame, 'accuracy', 0), { timeout: 30_000 }).toBe(STEPS.length + 1);
    expect(await legend(frame)).toEqual(['baseline · 7 steps in 7 files explore all rollouts remove']);
    await workbench.screenshot('run-02-live-point');
  });

  test('"Add run…" overlays a second run with its own colour', async () => {
    await frame.locator('#add-run').click();
    await workbench.acceptFileDialog('Add Training Run', join(workbench.server.workspace, 'runs/candidate'), 'Open Training Run');
    await expect.poll(() => points(frame, 'accuracy', 1), { timeout: 60_000 }).toBe(8);
    expect(await legend(frame)).toEqual(['baseline · 7 steps in 7 files explore all rollouts remove', 'candidate · 8 steps in 8 files explore all rollouts remove']);
    expect(await frame.locator('[data-chart^="decisions-"]').count()).toBe(2);
    await workbench.screenshot('run-03-two-runs');
    await frame.locator('[data-chart^="decisions-"]').first().scrollIntoViewIfNeeded();
    await workbench.screenshot('run-03b-two-runs-decisions');
    await frame.locator('h1').scrollIntoViewIfNeeded();
  });

  test('pointing at a step shows both runs\' figures; the keyboard moves along the steps', async () => {
    const chart = frame.locator('[data-chart="chart-accuracy"]');
    await chart.locator('circle.point-step.run-1').nth(2).hover();
    await expect.poll(() => chart.locator('.readout').innerText()).toMatch(/^Step 30 — baseline: \d+\.\d% · candidate: \d+\.\d%$/);
    expect(await frame.locator('.step-details th').first().innerText()).toBe('Step 30');
    await chart.focus();
    await workbench.page.keyboard.press('ArrowRight');
    await expect.poll(() => chart.locator('.readout').innerText()).toMatch(/^Step 40 — /);
    await workbench.page.keyboard.press('End');
    await expect.poll(() => chart.locator('.readout').innerText()).toMatch(/^Step 80 — candidate: /);
    await workbench.screenshot('run-04-cursor');
  });

  test('clicking a point opens that step file with PROF Lens on it', async () => {
    await frame.locator('[data-chart="chart-accuracy"] circle.point-step.run-1').nth(3).click();
    await workbench.page.locator('.tab.active[aria-label*="40.jsonl"]').waitFor({ timeout: 30_000 });
    const lens = workbench.activeEditor().locator('.codelens-decoration a', { hasText: 'Show PROF Group' });
    await lens.first().waitFor({ timeout: 60_000 });
    await workbench.screenshot('run-05-step-file');
  });

  test('after a window reload the dashboard comes back with both runs (read from the cache)', async () => {
    await workbench.runCommand('Developer: Reload Window');
    await workbench.page.waitForTimeout(1_000);
    await workbench.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await workbench.page.locator('.tab', { hasText: 'PROF runs' }).first().click();
    frame = await panelFrame(workbench.page, /PROF training runs/, 60_000);
    await expect.poll(() => legend(frame), { timeout: 60_000 }).toEqual(['baseline · 7 steps in 7 files explore all rollouts remove', 'candidate · 8 steps in 8 files explore all rollouts remove']);
    expect(await points(frame, 'accuracy', 1)).toBe(8);
  });

  test('the dashboard follows the colour theme: the lines are the theme\'s chart colours', async () => {
    const theme = (label: string): Promise<void> => workbench.chooseTheme(label);
    const colours = (): Promise<{ stroke: string; chartBlue: string; stack: string; green: string }> => frame.evaluate(() => {
      const probe = document.createElement('span');
      document.body.appendChild(probe);
      const resolve = (value: string): string => {
        probe.style.color = value;
        return getComputedStyle(probe).color;
      };
      const css = getComputedStyle(document.body);
      const result = {
        stroke: getComputedStyle(document.querySelector('[data-chart="chart-accuracy"] path.series.run-0')!).stroke,
        chartBlue: resolve(css.getPropertyValue('--vscode-charts-blue').trim()),
        stack: getComputedStyle(document.querySelector('rect.stack.reason-kept')!).fill,
        green: resolve(css.getPropertyValue('--vscode-charts-green').trim()),
      };
      probe.remove();
      return result;
    });
    try {
      await theme('Dark High Contrast');
      await expect.poll(() => frame.evaluate(() => document.body.className), { timeout: 10_000 }).toContain('vscode-high-contrast');
      const dark = await colours();
      expect(dark.stroke).toBe(dark.chartBlue);
      expect(dark.stack).toBe(dark.green);
      await workbench.screenshot('run-06-high-contrast');
      await theme('Light Modern');
      await expect.poll(() => frame.evaluate(() => document.body.className), { timeout: 10_000 }).toContain('vscode-light');
      const light = await colours();
      expect(light.stroke).toBe(light.chartBlue);
      expect(light.stroke).not.toBe(dark.stroke);
    } finally {
      await theme('Light Modern');
    }
  });

  test('removing a run takes its lines and its decisions chart away', async () => {
    await frame.locator('.legend.runs li', { hasText: 'baseline' }).locator('button', { hasText: 'remove' }).click();
    await expect.poll(() => legend(frame)).toEqual(['candidate · 8 steps in 8 files explore all rollouts remove']);
    expect(await frame.locator('[data-chart^="decisions-"]').count()).toBe(1);
    // The remaining run takes the first colour.
    expect(await points(frame, 'accuracy', 0)).toBe(8);
  });

  test('the sidebar lists the open run and its steps; a step opens its file', async () => {
    const page = workbench.page;
    await page.locator('.activitybar .action-item a[aria-label^="PROF Lens"]').first().click();
    const tree = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Rollouts' }) }).first();
    const rowTexts = (): Promise<string[]> => tree.locator('.monaco-list-row').evaluateAll((rows) => rows.map((r) => [
      r.querySelector('.label-name')?.textContent ?? '', r.querySelector('.label-description')?.textContent ?? '',
    ].join(' ').trim()));
    const run = tree.locator('.monaco-list-row', { hasText: 'candidate' }).first();
    await run.waitFor({ timeout: 30_000 });
    expect((await rowTexts()).find((t) => t.startsWith('candidate'))).toMatch(/^candidate 8 steps · accuracy \d+\.\d% → \d+\.\d%( · ⚠ \d+)?$/);
    // The removed run is gone from the sidebar too.
    expect((await rowTexts()).some((t) => t.startsWith('baseline'))).toBe(false);
    // The tree redraws as the open file's groups arrive: a click can land on a row that moved. Expand
    // the run until the tree says it is expanded (a click on an expanded row would fold it again).
    await expect.poll(async () => {
      if ((await run.getAttribute('aria-expanded')) !== 'true') await run.click({ timeout: 5_000 }).catch(() => undefined);
      return run.getAttribute('aria-expanded');
    }, { timeout: 30_000, interval: 1_000 }).toBe('true');
    await expect.poll(rowTexts).toContainEqual(expect.stringMatching(/^step 20 [\d,]+ rollouts · accuracy \d+\.\d%/));
    expect((await rowTexts()).filter((t) => t.startsWith('step '))).toHaveLength(8);
    await workbench.screenshot('run-07-sidebar');
    await tree.locator('.monaco-list-row', { hasText: 'step 20' }).first().click();
    await page.locator('.tab.active[aria-label*="20.jsonl"]').waitFor({ timeout: 30_000 });
  });
});
