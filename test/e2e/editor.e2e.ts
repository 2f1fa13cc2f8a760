/**
 * PROF Lens in a real VS Code on a small rollout file whose step scores are in the file, so every
 * expected mark is known in advance.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { repoRoot } from './codeServer';
import { attachedTexts, codeLensTexts, dottedRuns, linePosition } from './editorDom';
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

/** Where each low-score step sits in the raw file: 1-based line, 0-based start and end characters. */
function lowStepSpans(): { line: number; start: number; end: number }[] {
  let from = 0;
  return expectedLowSteps().map((raw) => {
    const line = fixtureLines.findIndex((text, i) => i >= from && text.includes(raw));
    from = line;
    const start = fixtureLines[line]?.indexOf(raw) ?? -1;
    return { line: line + 1, start, end: start + raw.length };
  });
}

const flawedStep = 'Then \\frac{1}{2} of them, the "half", is 20 \u2014 caf\u00e9 math.';

describe('a rollout file in the editor', () => {
  let workbench: Workbench;

  beforeAll(async () => {
    workbench = await Workbench.start({ workspaceFiles: { 'rollouts.jsonl': fixture } });
  });
  afterEach(async (context) => {
    // What the window showed when a test failed, for the CI log's reader.
    if (context.task.result?.state === 'fail') await workbench?.screenshot(`failure-editor-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
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
    // One line's lenses render as one decoration, joined by " | " (the decision, then its actions).
    const lenses = async (): Promise<string[]> => (await codeLensTexts(editor)).flatMap((text) => text.replace(/\u00a0/g, ' ').split(/\s+\|\s+/));
    // A long line's lens leads with the rollout's summary: the end of the line is out of sight.
    await expect.poll(lenses, { timeout: 15_000 }).toContainEqual(expect.stringMatching(
      /^PROF: ✓ 20 vs 20 · weakest 0\.\d\d \(step \d\) · dropped: correct, steps least trusted · ⚠ suspected false positive · rank 3 of 4 correct · group of 6$/,
    ));
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
    // The step's score comes before the rollout's facts, and the Problems entry above it adds one group line, not one per member.
    expect(hover.indexOf('Score 0.12')).toBeLessThan(hover.indexOf('Outcome'));
    expect(hover).not.toContain('same group:');
    expect(hover).toContain('Suspected false positive');
    expect(hover).toContain('Open in Rollout View');
    await workbench.screenshot('04-hover');
    await workbench.page.mouse.move(5, 500);
  });

  test('the Problems panel lists suspected false positives at their evidence, the unreadable line and the penalty', async () => {
    const rows = await workbench.problems('Suspected false positive');
    const flawed = rows.find((row) => row.includes('step 2 of 3 scores 0.12'));
    expect(flawed).toContain('Suspected false positive: step 2 of 3 scores 0.12, below 0.5 (PROF drops it, a step below the threshold, below the upper half of its correct group)');
    // The entry points at the low step itself, not at the whole line.
    const [lowStep] = lowStepSpans();
    expect(flawed).toContain(`[Ln 2, Col ${(lowStep?.start ?? 0) + 1}]`);
    // A flag without a low step sits where the line's summary is: after its last character.
    const gap = rows.find((row) => row.includes('below the upper half of its correct group (lowest there'));
    expect(gap).toMatch(/\[Ln (3|12), Col \d+\]/);
    const gapLine = Number(/\[Ln (\d+)/.exec(gap ?? '')?.[1]);
    expect(gap).toContain(`Col ${(fixtureLines[gapLine - 1]?.length ?? 0) + 1}]`);
    // One related line per entry, pointing at the group panel (not one row per member of the group).
    expect(rows.join('\n')).toContain('group of 6 (4 kept, 2 dropped): Show PROF Group opens the group panel');
    expect(rows.join('\n')).not.toContain('same group:');
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

  test('hovering a step inside the Rollout View shows its score and scorer', async () => {
    const view = workbench.activeEditor();
    await expect.poll(() => linePosition(view, '### [2/3] score 0.12'), { timeout: 15_000 }).not.toBeNull();
    const point = await linePosition(view, '### [2/3] score 0.12');
    const hover = await workbench.hoverAt({ x: (point?.x ?? 0) + 30, y: point?.y ?? 0 });
    expect(hover).toContain('step 2 of 3');
    expect(hover).toMatch(/Score 0\.12 from file — below the threshold 0\.5/);
    expect(hover).toContain('Suspected false positive');
    await workbench.screenshot('09-rollout-view-hover');
    await workbench.page.mouse.move(5, 500);
  });

  test('next and previous low-score step put the cursor on the step, selected', async () => {
    await workbench.page.keyboard.press('Escape');
    await workbench.page.locator('.tab', { hasText: 'rollouts.jsonl' }).first().click();
    await workbench.goToLine(1, 1);
    const selection = workbench.page.locator('[id="status.editor.selection"]');
    const at = (span: { line: number; start: number; end: number } | undefined): string =>
      `Ln ${span?.line}, Col ${(span?.end ?? 0) + 1} (${(span?.end ?? 0) - (span?.start ?? 0)} selected)`;
    const [first, second] = lowStepSpans();
    await workbench.runCommand('PROF Lens: Next Low-Score Step');
    await expect.poll(async () => (await selection.innerText()).trim(), { timeout: 15_000 }).toBe(at(first));
    await workbench.runCommand('PROF Lens: Next Low-Score Step');
    await expect.poll(async () => (await selection.innerText()).trim(), { timeout: 15_000 }).toBe(at(second));
    await workbench.screenshot('10-next-low-step');
    await workbench.runCommand('PROF Lens: Previous Low-Score Step');
    await expect.poll(async () => (await selection.innerText()).trim(), { timeout: 15_000 }).toBe(at(first));
  });

  test('a rollout file on disk opens with the large-file command and its rollouts are read in the Rollout View', async () => {
    const folder = `${workbench.server.root}/disk`;
    mkdirSync(folder, { recursive: true });
    writeFileSync(`${folder}/on-disk.jsonl`, fixture);
    await workbench.runCommand('PROF Lens: Open Large Rollout File from Disk');
    await workbench.acceptFileDialog('Open a large rollout file from disk', `${folder}/on-disk.jsonl`);
    const picker = workbench.page.locator('.quick-input-widget', { hasText: '12 rollouts — pick one to read' });
    await picker.waitFor({ timeout: 60_000 });
    const first = picker.locator('.quick-input-list .monaco-list-row').first();
    await expect.poll(() => first.innerText()).toContain('line 2');
    expect(await first.innerText()).toContain('suspected false positive');
    await workbench.screenshot('11-large-file-picker');
    await first.click();
    await workbench.page.locator('.tab.active[aria-label*="on-disk.jsonl · rollout 2"]').waitFor({ timeout: 20_000 });
    await expect.poll(() => workbench.visibleEditorText(), { timeout: 15_000 }).toContain('### [2/3] score 0.12 — low');
    await expect.poll(async () => (await dottedRuns(workbench.activeEditor())).map((r) => r.text), { timeout: 15_000 }).toEqual([flawedStep]);
    // The progress notification closes once the file is analysed (the editor keeps it up briefly).
    const progress = workbench.page.locator('.notification-toast', { hasText: 'PROF Lens: analysing' });
    await expect.poll(() => progress.count(), { timeout: 15_000 }).toBe(0);
    await workbench.screenshot('12-large-file-rollout-view');
  });
});
