/**
 * A grouped line (one prompt, parallel `responses`, as evaluation harnesses write) in a real VS
 * Code: with the cursor in response k, Open Rollout View shows response k, named as every surface
 * names it, `line 1, response k of 4`.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Workbench } from './workbench';

const responses = [
  'First, 6 * 7 = 42.\n\nThe answer is 42.',
  'Six sevens: 6 * 7 = 42.\n\nThe answer is 42.',
  'Add 7 six times: 7 + 7 + 7 + 7 + 7 + 7 = 42.\n\nThe answer is 42.',
  'Fourth try, 6 * 7 = 40 + 2.\n\nThe answer is 42.',
];
const line = JSON.stringify({ uid: 'q', prompt: 'What is 6 * 7?', responses, answer: '42', score: [1, 1, 1, 1], step_scores: [[0.9, 0.9], [0.8, 0.9], [0.7, 0.8], [0.2, 0.9]] });

describe('a grouped line', () => {
  let workbench: Workbench;

  beforeAll(async () => {
    workbench = await Workbench.start({ workspaceFiles: { 'grouped.jsonl': `${line}\n` } });
  });
  afterAll(async () => {
    await workbench?.stop();
  });

  // Response 4 with the cursor between its two steps (on the blank line's escape), response 2 on a step.
  for (const [k, marker, isBetweenSteps] of [[4, 'Fourth try', true], [2, 'Six sevens', false]] as const) {
    test(`Open Rollout View with the cursor in response ${k} shows response ${k}`, async () => {
      await workbench.runCommand('View: Focus First Editor Group');
      await workbench.openFile('grouped.jsonl');
      await workbench.activeEditor().locator('.codelens-decoration a').first().waitFor({ timeout: 60_000 });
      // Columns of the raw line, 1-based: a few characters into the first step, or inside the `\n\n` after it.
      const at = line.indexOf(marker);
      await workbench.goToLine(1, isBetweenSteps ? line.indexOf('\\n\\n', at) + 3 : at + 4);
      await workbench.runCommand('PROF Lens: Open Rollout View');
      await workbench.page.locator(`.tab.active[aria-label*="rollout ${k} (line 1)"]`).waitFor({ timeout: 30_000 });
      await expect.poll(() => workbench.visibleEditorText(), { timeout: 20_000 }).toContain(`# Rollout ${k} · line 1, response ${k} of 4 · grouped.jsonl`);
      expect(await workbench.visibleEditorText()).toContain(marker);
      await workbench.screenshot(`grouped-line-rollout-view-${k}`);
      await workbench.closeTabs(`rollout ${k}`);
    });
  }
});
