/**
 * PROF Lens in a real VS Code on a small rollout file whose step scores are in the file, so every
 * expected mark is known in advance.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { repoRoot } from './codeServer';
import { attachedTexts, codeLensTexts, dottedRuns } from './editorDom';
import { Workbench } from './workbench';

const fixture = readFileSync(join(repoRoot, 'test', 'fixtures', 'e2e', 'rollouts.jsonl'), 'utf8');
const fixtureLines = fixture.split('\n');

/** The step as it is written in the file: JSON escapes, non-ASCII as \uXXXX (as the fixture was written). */
function rawForm(text: string): string {
  return JSON.stringify(text).slice(1, -1).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Every step scoring below 0.5 in the fixture, in its raw form, in file order. */
function expectedLowSteps(): string[] {
  const steps: string[] = [];
  for (const line of fixtureLines) {
    let record: { response?: string; step_scores?: number[] };
    try {
      record = JSON.parse(line) as typeof record;
    } catch {
      continue;
    }
    const parts = (record.response ?? '').split('\n\n').map((s) => s.trim()).filter((s) => s !== '');
    parts.forEach((part, i) => {
      if ((record.step_scores?.[i] ?? 1) < 0.5) steps.push(rawForm(part));
    });
  }
  return steps;
}

const flawedStep = 'Then \\frac{1}{2} of them, the "half", is 20 \u2014 caf\u00e9 math.';

describe('a rollout file in the editor', () => {
  let workbench: Workbench;

  beforeAll(async () => {
    workbench = await Workbench.start({ workspaceFiles: { 'rollouts.jsonl': fixture } });
  });
  afterAll(async () => {
    await workbench?.stop();
  });

  test('activates on a rollout file and summarises each rollout at the end of its line', async () => {
    await workbench.openFile('rollouts.jsonl');
    await workbench.statusItem('PROF Lens ·').waitFor({ timeout: 60_000 });
    const editor = workbench.activeEditor();
    await expect.poll(async () => (await attachedTexts(editor)).length, { timeout: 30_000 }).toBe(12);
    const summaries = await attachedTexts(editor);
    expect(summaries[1]).toBe('✓ 20 vs 20 · weakest 0.12 (step 2) · dropped: correct, steps least trusted · ⚠ suspected false positive');
    expect(summaries[0]).toMatch(/^✓ 20 vs 20 · weakest 0\.88 \(step 2\) · kept$/);
    expect(summaries.filter((s) => s.startsWith('✗'))).toHaveLength(3);
    await expect.poll(() => codeLensTexts(editor), { timeout: 15_000 }).toContain('PROF: dropped: correct, steps least trusted · rank 3 of 4 correct · group of 6');
    await workbench.screenshot('01-activation');
    await workbench.page.keyboard.press('Alt+Z');
    await workbench.page.waitForTimeout(500);
    await workbench.screenshot('02-summaries-word-wrap');
    await workbench.page.keyboard.press('Alt+Z');
  });

  test('low-score steps are tinted at exactly their characters in the raw JSON line', async () => {
    const editor = workbench.activeEditor();
    await expect.poll(async () => (await dottedRuns(editor)).map((r) => r.text), { timeout: 15_000 })
      .toEqual(expectedLowSteps());
    expect((await dottedRuns(editor)).map((r) => r.text)).toContain(rawForm(flawedStep));
    await workbench.screenshot('03-low-score-steps');
  });

  test('hovering a low-score step shows its score, rank and decision', async () => {
    await workbench.goToLine(2, (fixtureLines[1]?.indexOf('Then') ?? 0) + 80);
    const run = (await dottedRuns(workbench.activeEditor())).find((r) => r.text === rawForm(flawedStep));
    expect(run).toBeDefined();
    const hover = await workbench.hoverAt({ x: (run?.x ?? 0) + 30, y: run?.y ?? 0 });
    expect(hover).toContain('step 2 of 3');
    expect(hover).toMatch(/Score 0\.12 from file — below the threshold 0\.5/);
    expect(hover).toContain('group rank 4 of 4 correct');
    expect(hover).toContain('Suspected false positive');
    expect(hover).toContain('Open in Rollout View');
    await workbench.screenshot('04-hover');
    await workbench.page.mouse.move(5, 500);
  });

  test('the Problems panel lists suspected false positives, the unreadable line and the penalty', async () => {
    const falsePositives = (await workbench.problems('Suspected false positive')).join('\n');
    expect(falsePositives).toContain('Suspected false positive: correct answer, weakest step 2 scores 0.12 (rules: prof-dropped, weak-step, bottom-half)');
    expect(falsePositives).toContain('same group: correct, kept (kept)');
    await workbench.screenshot('05-problems');
    expect((await workbench.problems('expected one JSON object')).join('\n')).toContain('line 9: expected one JSON object per line');
    expect((await workbench.problems('Step-count penalty')).join('\n')).toContain('Step-count penalty: −λ = −10 (H = 1 ≤ 1)');
    await workbench.runCommand('View: Hide Panel');
  });

  test('the Rollout View opens on the rollout under the cursor, readable and decorated', async () => {
    await workbench.page.locator('.tab', { hasText: 'rollouts.jsonl' }).first().click();
    await workbench.goToLine(2);
    await workbench.runCommand('PROF Lens: Open Rollout View');
    await workbench.page.locator('.tab.active[aria-label*="rollout 2"]').waitFor({ timeout: 20_000 });
    const view = workbench.activeEditor();
    await expect.poll(() => workbench.visibleEditorText(), { timeout: 15_000 }).toContain('## Steps');
    const text = (await workbench.visibleEditorText()).replace(/\u00a0/g, ' ');
    expect(text).toContain('### [2/3] score 0.12 — low');
    await expect.poll(async () => (await dottedRuns(view)).map((r) => r.text), { timeout: 15_000 }).toEqual([flawedStep]);
    expect((await attachedTexts(view))[0]).toContain('weakest 0.12 (step 2)');
    await workbench.screenshot('06-rollout-view');
  });
});
