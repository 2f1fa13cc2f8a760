/**
 * Trainers' dumps in a real VS Code, opened with no options: a TRL completions parquet (no text
 * document: its file dashboard opens in the editor, read from disk by the analysis worker), its
 * group with the question read out of the chat transcript and the system prompt folded, its
 * Rollout View; then a verl v1 step file, grouped by the prompt part of its uids, whose hover says
 * how it was read.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Frame } from 'playwright-core';
import { repoRoot } from './codeServer';
import { attachedTexts, codeLensTexts, textPosition } from './editorDom';
import { panelFrame } from './panelHarness';
import { Workbench } from './workbench';

const TRAINERS = join(repoRoot, 'test', 'fixtures', 'trainers');
const parquet = readFileSync(join(TRAINERS, 'trl/grpo-qwen2.5-gsm8k/completions/completions_00001.parquet'));
const verlV1 = readFileSync(join(TRAINERS, 'verl-v1/rollout_data/1.jsonl'), 'utf8');
const JANET = 'Janet’s ducks lay 16 eggs per day.';

async function counts(frame: Frame): Promise<Record<string, string>> {
  const items = await frame.locator('.counts .count').allInnerTexts();
  return Object.fromEntries(items.map((t) => t.split('\n').map((s) => s.trim()).filter(Boolean) as [string, string]));
}

describe('trainer dumps in the editor', () => {
  let workbench: Workbench;

  beforeAll(async () => {
    workbench = await Workbench.start({
      workspaceFiles: { 'completions/completions_00001.parquet': parquet, 'rollout_data/1.jsonl': verlV1 },
      // Groups of four with m = 2: PROF keeps two of each, so the decisions differ.
      userSettings: { 'profLens.prof.m': 2 },
    });
  });
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') await workbench?.screenshot(`failure-trainers-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
  });
  afterAll(async () => {
    await workbench?.stop();
  });

  test('a TRL completions parquet opens as its file dashboard, read as TRL completions', async () => {
    await workbench.openFile('completions_00001.parquet', 60_000);
    const frame = await panelFrame(workbench.page, /PROF dashboard/, 90_000);
    await expect.poll(() => counts(frame).then((c) => c['rollouts']), { timeout: 60_000 }).toBe('12');
    expect(await counts(frame)).toMatchObject({ rollouts: '12', groups: '3', kept: '6', correct: '5' });
    expect(await frame.locator('.read-as').allInnerTexts()).toEqual(['Read as: TRL completions; question read from a chat transcript (ChatML, special tokens stripped)']);
    expect(await frame.locator('table.group-list tbody tr').count()).toBe(3);
    await workbench.screenshot('trainers-01-parquet-dashboard');
  });

  test('its group shows the clean question, the system prompt folded, and PROF\'s decisions', async () => {
    const dashboard = await panelFrame(workbench.page, /PROF dashboard/);
    await dashboard.locator('table.group-list button.link').first().click();
    const group = await panelFrame(workbench.page, /PROF group/, 60_000);
    await expect.poll(() => group.locator('.prompt-text').innerText(), { timeout: 30_000 }).toContain(JANET);
    const question = await group.locator('.prompt-text').innerText();
    expect(question).not.toMatch(/^system|^user|assistant$/m);
    expect(await group.locator('section.prompt h2').innerText()).toBe('Question');
    const system = group.locator('details.prompt-turn');
    expect(await system.locator('summary').innerText()).toMatch(/^System prompt \(\d+ characters\)$/);
    expect(await system.getAttribute('open')).toBeNull();
    expect(await group.locator('tr.rollout').count()).toBe(4);
    await workbench.screenshot('trainers-02-parquet-group');
    await system.locator('summary').click();
    await expect.poll(() => system.innerText()).toContain('You are Qwen, created by Alibaba Cloud.');
    await workbench.screenshot('trainers-03-system-unfolded');
  });

  test('a row of the group opens the Rollout View: the question, then the steps', async () => {
    const group = await panelFrame(workbench.page, /PROF group/);
    await group.locator('tr.rollout').first().click();
    const tab = workbench.page.locator('.tab.active[aria-label*="rollout"]');
    await tab.waitFor({ timeout: 30_000 });
    // The view opens in the group beside the panel, and the focus may stay with the panel: read the
    // editor of the group that holds the view's tab, not whichever group is focused.
    const view = workbench.page.locator('.editor-group-container', { has: tab }).locator('.monaco-editor .view-lines').first();
    const viewText = async (): Promise<string> => (await view.innerText()).replace(/\u00a0/g, ' ');
    await expect.poll(viewText, { timeout: 20_000 }).toContain('## Question');
    // The Rollout View wraps long lines: the checks read the text with the wraps joined.
    const text = (await viewText()).replace(/\n/g, '');
    expect(text).toContain('- Read as: TRL completions; question read from a chat transcript (ChatML, special tokens stripped)');
    expect(text).toMatch(/- Rewards in the file: accuracy_reward \d \(the outcome\) · format_reward \d · advantage/);
    expect(text).toContain('## System prompt (folded');
    expect(text).toContain(JANET);
    await workbench.screenshot('trainers-04-parquet-rollout-view');
  });

  test('a verl v1 step file: grouped by the prompt part of its uids, the hover says how it was read', async () => {
    await workbench.openFile('1.jsonl');
    const editor = workbench.activeEditor();
    await expect.poll(async () => (await attachedTexts(editor)).length, { timeout: 60_000 }).toBe(12);
    const lenses = async (): Promise<string[]> => (await codeLensTexts(editor)).flatMap((t) => t.replace(/\u00a0/g, ' ').split(/\s+\|\s+/));
    await expect.poll(async () => (await lenses()).filter((l) => l.includes('group of 4')).length, { timeout: 20_000 }).toBeGreaterThan(0);
    expect((await lenses()).some((l) => l.includes('group of 1'))).toBe(false);
    await workbench.screenshot('trainers-05-verl-v1');
    // The first words of line 1's response, where its first step is.
    const first = verlV1.split('\n')[0]!;
    const outputAt = first.indexOf('"output": "') + '"output": "'.length;
    const words = first.slice(outputAt, outputAt + 12);
    await workbench.goToLine(1, outputAt + 40);
    await expect.poll(() => textPosition(editor, words), { timeout: 10_000 }).not.toBeNull();
    const point = await textPosition(editor, words);
    const hover = await workbench.hoverAt({ x: (point?.x ?? 0) + 20, y: point?.y ?? 0 });
    expect(hover).toContain('Read as: verl v1 rollout dump; question read from a chat transcript (ChatML, special tokens stripped)');
    expect(hover).toMatch(/Outcome: [✓✗] (correct|incorrect) · extracted \d+ vs gold \d+/);
    await workbench.screenshot('trainers-06-verl-v1-hover');
  });
});
