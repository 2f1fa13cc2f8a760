/**
 * Runs found by the numbers in their paths, and the newer trainers' dumps, in a real VS Code: the
 * Run Dashboard opened on the folder above a hand-written GRPO loop's run (the run inside it read
 * and named, its metrics and summaries left out and named), the dashboard on a folder with no run
 * (it says what it looked for), and an AReaL trajectory file and a ROLL dump opened in the editor
 * with no options.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Frame } from 'playwright-core';
import { repoRoot } from './codeServer';
import { attachedTexts, codeLensTexts, textPosition } from './editorDom';
import { panelFrame } from './panelHarness';
import { Workbench } from './workbench';

const TRAINERS = join(repoRoot, 'test', 'fixtures', 'trainers');
const LOOP = join(TRAINERS, 'grpo-loop/runs');

/** Every file under a folder, keyed by its path under `prefix`. */
function filesUnder(folder: string, prefix: string): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  const visit = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) visit(path);
      else out[`${prefix}/${relative(folder, path)}`] = readFileSync(path);
    }
  };
  visit(folder);
  return out;
}

const areal = readFileSync(join(TRAINERS, 'areal/logs/root/gsm8k-grpo/trial0/rollout/1/0.jsonl'), 'utf8');
const roll = readFileSync(join(TRAINERS, 'roll/output/rollout_dump/rollout_dump_data.step_1.jsonl'), 'utf8');

/** The legend's lines, one per run, spaces normalised. */
async function legend(frame: Frame): Promise<string[]> {
  return (await frame.locator('.legend.runs li').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
}

describe('runs by their paths, and newer trainers\' dumps', () => {
  let workbench: Workbench;

  beforeAll(async () => {
    workbench = await Workbench.start({
      workspaceFiles: {
        ...filesUnder(LOOP, 'runs'),
        // Something beside the run, as a runs folder often has (and so the explorer shows the folder on its own).
        'runs/README.md': '# GRPO runs\n',
        'notes/metrics.jsonl': '{"step": 1, "loss": 0.5}\n',
        'areal/0.jsonl': areal,
        'roll/rollout_dump_data.step_1.jsonl': roll,
      },
    });
  });
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') await workbench?.screenshot(`failure-run-layouts-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
    await workbench?.closeMenus();
  });
  afterAll(async () => {
    await workbench?.stop();
  });

  /** Right-click a folder in the explorer and open it as a training run. */
  async function openRun(parent: string | null, name: string): Promise<Frame> {
    const page = workbench.page;
    if (parent !== null) await page.locator('.explorer-item', { hasText: parent }).first().click();
    const folder = page.locator('.explorer-item', { hasText: new RegExp(`^${name}$`) }).first();
    await folder.waitFor();
    await workbench.runContextMenu(folder, 'Open Training Run…');
    return panelFrame(page, /PROF training runs/, 60_000);
  }

  test('the folder above a loop\'s run opens the run inside it, and says which and what it left out', async () => {
    const frame = await openRun(null, 'runs');
    await expect.poll(() => frame.locator('[data-chart="chart-accuracy"] circle.point-step.run-0').count(), { timeout: 60_000 }).toBe(3);
    expect(await legend(frame)).toEqual([
      'runs · 3 steps in 3 files · read as the run in qwen2.5-math-1.5b-r1zero/; left out 5 files that hold no rollouts: config.json, eval_summary_step_000100.json, eval_summary_step_000200.json, eval_summary_step_000300.json, metrics.jsonl explore all rollouts remove',
    ]);
    expect(await frame.locator('.problems').isHidden()).toBe(true);
    await workbench.screenshot('run-layouts-01-parent-folder');
    await frame.locator('.legend.runs li button', { hasText: 'remove' }).click();
    await expect.poll(() => legend(frame)).toEqual([]);
  });

  test('a folder with no run says what it looked for, instead of an empty dashboard', async () => {
    const frame = await openRun(null, 'notes');
    await expect.poll(() => frame.locator('.problems li').allInnerTexts(), { timeout: 60_000 }).toEqual([
      expect.stringMatching(/^notes · notes: holds no step files: looked for .*grpo_step_000100\/.*; left out 1 file that holds no rollouts: metrics\.jsonl$/),
    ]);
    expect(await legend(frame)).toEqual(['notes · 0 steps in 0 files remove']);
    await workbench.screenshot('run-layouts-02-no-run');
  });

  test('an AReaL trajectory file opens with no options: one group of four, read as AReaL trajectories', async () => {
    await workbench.page.locator('.explorer-item', { hasText: /^areal$/ }).first().click();
    await workbench.openFile('0.jsonl');
    const editor = workbench.activeEditor();
    await expect.poll(async () => (await attachedTexts(editor)).length, { timeout: 60_000 }).toBe(4);
    const lenses = async (): Promise<string[]> => (await codeLensTexts(editor)).flatMap((t) => t.replace(/\u00a0/g, ' ').split(/\s+\|\s+/));
    await expect.poll(async () => (await lenses()).some((l) => l.includes('group of 4')), { timeout: 20_000 }).toBe(true);
    const first = areal.split('\n')[0]!;
    const at = first.indexOf('"completion": "') + '"completion": "'.length;
    const words = first.slice(at, at + 12);
    await workbench.goToLine(1, at + 40);
    await expect.poll(() => textPosition(editor, words), { timeout: 10_000 }).not.toBeNull();
    const point = await textPosition(editor, words);
    const hover = await workbench.hoverAt({ x: (point?.x ?? 0) + 20, y: point?.y ?? 0 });
    expect(hover).toContain('Read as: AReaL trajectories; question read from a chat transcript (ChatML, with its special tokens)');
    await workbench.screenshot('run-layouts-03-areal');
  });

  test('a ROLL dump (one object of columns) opens with no options: its groups in the editor', async () => {
    await workbench.page.locator('.explorer-item', { hasText: /^roll$/ }).first().click();
    await workbench.openFile('rollout_dump_data.step_1.jsonl');
    const editor = workbench.activeEditor();
    const lenses = async (): Promise<string[]> => (await codeLensTexts(editor)).flatMap((t) => t.replace(/\u00a0/g, ' ').split(/\s+\|\s+/));
    await expect.poll(async () => (await lenses()).join(' | '), { timeout: 60_000 }).toMatch(/Show PROF Group/);
    await workbench.screenshot('run-layouts-04-roll');
  });
});
