/**
 * The Run Dashboard's Health section in a real VS Code: a generated run whose tool replies show
 * the policy its reward from a known step on. The reward-visible card fires with that onset; a
 * click on one of its points after the onset opens the Rollout Explorer over that step, filtered
 * to exactly the rollouts that show it.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Frame } from 'playwright-core';
import { panelFrame } from './panelHarness';
import { Workbench } from './workbench';
import { generatedRun, ONSET } from '../unit/core/health/generatedRun';

const run = generatedRun({ inject: 'reward-visible', prompts: 4 });
const files = Object.fromEntries(run.map((records, i) => [`runs/hacked/${i + 1}.jsonl`, records.map((r) => JSON.stringify(r)).join('\n') + '\n']));
/** The step clicked, and how many of its rollouts show their reward (counted from the records, not by the detector). */
const STEP = ONSET + 2;
const shown = run[STEP - 1]!.filter((r) => String(r['output']).includes('reward=')).length;

describe('the Run Dashboard\'s Health section', () => {
  let workbench: Workbench;
  let frame: Frame;

  beforeAll(async () => {
    workbench = await Workbench.start({ workspaceFiles: files });
  });
  afterAll(async () => {
    await workbench?.stop();
  });

  test('names the reward shown to the policy, with its onset, as a fired detector', async () => {
    // A step file open in the editor first: the extension is then active and its commands are in the palette.
    await workbench.openFile('30.jsonl');
    await workbench.runCommand('PROF Lens: Open Training Run…');
    await workbench.acceptFileDialog('Open Training Run', join(workbench.server.workspace, 'runs/hacked'), 'Open Training Run');
    frame = await panelFrame(workbench.page, /PROF training runs/, 60_000);
    const card = frame.locator('.health-card[data-detector="reward-visible"]');
    await expect.poll(() => card.getAttribute('class'), { timeout: 120_000 }).toContain('status-fired');
    const facts = await card.locator('.health-facts').innerText();
    const onset = Number(/onset step (\d+)/.exec(facts)?.[1]);
    expect(Math.abs(onset - ONSET)).toBeLessThanOrEqual(1);
    expect(await card.locator('.health-examples li').first().innerText()).toMatch(/^\d+\.jsonl:\d+ \(step \d+\) — \d+ repl/);
    // Quiet detectors stay quiet on the rest of the run.
    expect(await frame.locator('.health-card.status-fired').count()).toBeLessThanOrEqual(2);
    await card.scrollIntoViewIfNeeded();
    await workbench.screenshot('health-01-card');
  });

  test('a point after the onset opens the Explorer over that step, filtered to the rollouts shown their reward', async () => {
    await frame.locator(`.health-card[data-detector="reward-visible"] circle.health-point[data-step="${STEP}"]`).click();
    const explorer = await panelFrame(workbench.page, new RegExp(`Rollout Explorer · ${STEP}\\.jsonl`), 60_000);
    const title = explorer.locator('.query-title');
    await expect.poll(() => title.innerText(), { timeout: 60_000 }).toBe(`step ${STEP}: reward visible to the policy · ${shown}`);
    await expect.poll(() => explorer.locator('.grid-rows .grid-row.rollout').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await workbench.screenshot('health-02-explorer');
  });
});
