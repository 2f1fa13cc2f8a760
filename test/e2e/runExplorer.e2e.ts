/**
 * The Rollout Explorer over a whole training run in a real VS Code: opened from the Run
 * Dashboard's legend and from "Open Rollout Explorer over Run…", every step file's rollouts in one
 * table with a step column; one query across steps (every rollout shown its reward from a step on,
 * counted from the records); a row opening its own step file at its line; half a window wide.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Frame } from 'playwright-core';
import { panelFrame } from './panelHarness';
import { fitProblems } from './fitCheck';
import { Workbench } from './workbench';
import { generatedRun, ONSET, STEPS } from '../unit/core/health/generatedRun';

const run = generatedRun({ inject: 'reward-visible', prompts: 4 });
const files = Object.fromEntries(run.map((records, i) => [`runs/hacked/${i + 1}.jsonl`, records.map((r) => JSON.stringify(r)).join('\n') + '\n']));
const total = run.reduce((n, records) => n + records.length, 0);
const FROM = ONSET + 2;
/** Counted from the records: the generator writes the reward into a tool reply. */
const isShown = (r: Record<string, unknown>): boolean => String(r['output']).includes('reward=');
const shown = run.slice(FROM - 1).flat().filter(isShown).length;
/** The first such rollout in run order: step FROM's file, at this line. */
const firstLine = run[FROM - 1]!.findIndex(isShown) + 1;

describe('the Rollout Explorer over a run', () => {
  let workbench: Workbench;
  let explorer: Frame;

  beforeAll(async () => {
    workbench = await Workbench.start({ workspaceFiles: files });
    await workbench.page.setViewportSize({ width: 1280, height: 900 });
  });
  afterAll(async () => {
    await workbench?.stop();
  });

  async function crossStepQuery(frame: Frame): Promise<void> {
    await frame.locator('select[name="health detector"]').selectOption('reward-visible');
    await frame.locator('input[name="step at least"]').fill(String(FROM));
    await frame.locator('input[name="step at least"]').press('Enter');
    await frame.locator('input[name="step at least"]').dispatchEvent('change');
    await expect.poll(() => frame.locator('.query-title').innerText(), { timeout: 60_000 }).toBe(`step ≥ ${FROM} · reward visible to the policy · ${shown}`);
  }

  test('opens from the Run Dashboard with every step\'s rollouts and a step column', async () => {
    await workbench.openFile('30.jsonl');
    await workbench.runCommand('PROF Lens: Open Training Run…');
    await workbench.acceptFileDialog('Open Training Run', join(workbench.server.workspace, 'runs/hacked'), 'Open Training Run');
    const dashboard = await panelFrame(workbench.page, /PROF training runs/, 60_000);
    await dashboard.locator('button.explore-run').click();
    explorer = await panelFrame(workbench.page, /Rollout Explorer · hacked \(run\)/, 60_000);
    await expect.poll(() => explorer.locator('.status').innerText(), { timeout: 120_000 }).toMatch(new RegExp(`^${total.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} rollouts · ${STEPS} step files`));
    expect(await explorer.locator('.query-title').innerText()).toBe(`all rollouts · ${total.toLocaleString('en-US')}`);
    const first = explorer.locator('.grid-rows .grid-row.rollout').first();
    await expect.poll(() => first.locator('.col-step').innerText()).toBe('1');
    expect(await first.locator('.col-line').innerText()).toBe('1.jsonl:1');
    await workbench.screenshot('run-explorer-01-dashboard');
  });

  test('answers one query across steps, and a row opens its step file at its line', async () => {
    await crossStepQuery(explorer);
    const first = explorer.locator('.grid-rows .grid-row.rollout').first();
    await expect.poll(() => first.locator('.col-line').innerText()).toBe(`${FROM}.jsonl:${firstLine}`);
    await workbench.screenshot('run-explorer-02-query');
    await first.locator('.col-line').click();
    await expect.poll(() => workbench.page.locator('.tab.active .label-name').first().innerText(), { timeout: 30_000 }).toBe(`${FROM}.jsonl`);
    await expect.poll(() => workbench.statusItem('Ln ').innerText(), { timeout: 15_000 }).toMatch(new RegExp(`Ln ${firstLine},`));
    await workbench.screenshot('run-explorer-03-opened');
  });

  test('opens from "Open Rollout Explorer over Run…", beside a file, half the window wide', async () => {
    await workbench.runCommand('View: Close All Editors');
    await workbench.openFile('1.jsonl');
    await workbench.runCommand('PROF Lens: Open Rollout Explorer over Run…');
    await workbench.acceptFileDialog('Open Rollout Explorer over Run', join(workbench.server.workspace, 'runs/hacked'), 'Open Training Run');
    const frame = await panelFrame(workbench.page, /Rollout Explorer · hacked \(run\)/, 60_000);
    await expect.poll(() => frame.locator('.status').innerText(), { timeout: 120_000 }).toContain(`· ${STEPS} step files`);
    await crossStepQuery(frame);
    const widths = await workbench.page.locator('.editor-group-container').evaluateAll((groups) => groups.map((g) => g.getBoundingClientRect().width));
    expect(widths).toHaveLength(2);
    expect(await frame.evaluate(fitProblems)).toEqual([]);
    await workbench.screenshot('run-explorer-04-half-width');
  });
});
