/**
 * Labelling in a real VS Code: a step marked as the first wrong one from its hover, a rollout marked
 * sound from the command palette, the badges in the hover and the rollout's summary, the
 * dashboard's precision against the labels, the sidecar beside the dump (the dump untouched), and
 * the labels read again when the sidecar changes on disk.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { repoRoot } from './codeServer';
import { codeLensTexts, dottedRuns } from './editorDom';
import { panelFrame } from './panelHarness';
import { Workbench } from './workbench';
import { storeCalibration } from '../../src/scoring/calibration/calibrationStore';

const fixture = readFileSync(join(repoRoot, 'test', 'fixtures', 'e2e', 'rollouts.jsonl'));
const fixtureLines = fixture.toString('utf8').split('\n');
/** The second rollout's second step (score 0.12), as the file writes it. */
const flawedStepRaw = 'Then \\\\frac{1}{2} of them, the \\"half\\", is 20 \\u2014 caf\\u00e9 math.';

interface SidecarLabel {
  key: string;
  firstWrongStep: number;
  steps: number;
  stepKey: string | null;
}

describe('labelling rollouts in the editor', () => {
  let workbench: Workbench;
  let sidecar: string;
  let dump: string;

  beforeAll(async () => {
    // `prof-lens eval --calibrate` stored a threshold for scores in files that name no model (the fixture's).
    const cacheDir = mkdtempSync(join(tmpdir(), 'prof-lens-e2e-calibrations-'));
    await storeCalibration(cacheDir, {
      identity: 'file:unnamed', scorer: 'file', threshold: 0.5, f1: 0.41, heldOut: null,
      set: { name: 'pb.json', size: 159, errorItems: 83, correctItems: 76 }, at: '2026-12-01T00:00:00Z',
    });
    workbench = await Workbench.start({ workspaceFiles: { 'rollouts.jsonl': fixture.toString('utf8') }, env: { PROF_LENS_CACHE_DIR: cacheDir } });
    dump = join(workbench.server.workspace, 'rollouts.jsonl');
    sidecar = `${dump}.prof-labels.json`;
  });
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') await workbench?.screenshot(`failure-labels-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
  });
  afterAll(async () => {
    await workbench?.stop();
  });

  const lenses = async (): Promise<string[]> => (await codeLensTexts(workbench.activeEditor())).flatMap((text) => text.replace(/\u00a0/g, ' ').split(/\s+\|\s+/));
  const readSidecar = (): SidecarLabel[] => (JSON.parse(readFileSync(sidecar, 'utf8')) as { labels: SidecarLabel[] }).labels;

  async function hoverFlawedStep(): Promise<string> {
    await workbench.goToLine(2, (fixtureLines[1]?.indexOf('Then') ?? 0) + 80);
    const run = (await dottedRuns(workbench.activeEditor())).find((r) => r.text === flawedStepRaw);
    expect(run).toBeDefined();
    return workbench.hoverAt({ x: (run?.x ?? 0) + 30, y: run?.y ?? 0 });
  }

  test('a step marked as the first wrong one from its hover is badged and kept beside the dump', async () => {
    await workbench.openFile('rollouts.jsonl');
    await workbench.statusItem('PROF Lens ·').waitFor({ timeout: 60_000 });
    await expect.poll(async () => (await dottedRuns(workbench.activeEditor())).length, { timeout: 30_000 }).toBeGreaterThan(0);
    // The lenses push the lines down as they appear: measure the step's place only once they are there.
    await expect.poll(async () => (await lenses()).length, { timeout: 30_000 }).toBeGreaterThan(0);
    const before = await hoverFlawedStep();
    expect(before).toContain('Mark step 2 as First Wrong Step');
    expect(before).not.toContain('labelled');
    expect(existsSync(sidecar)).toBe(false);
    await workbench.page.locator('.monaco-hover a', { hasText: 'Mark step 2 as First Wrong Step' }).first().click();

    await expect.poll(() => existsSync(sidecar), { timeout: 15_000 }).toBe(true);
    const labels = readSidecar();
    expect(labels).toHaveLength(1);
    expect(labels[0]).toMatchObject({ firstWrongStep: 1, steps: 3 });
    expect(labels[0]?.key).toMatch(/^c1:[0-9a-f]{16}$/);
    expect(readFileSync(dump).equals(fixture)).toBe(true);

    // A long line's lens leads with the rollout's summary; the badge comes last.
    await expect.poll(lenses, { timeout: 15_000 }).toContainEqual(expect.stringMatching(/^PROF: .*dropped: correct, steps least trusted · .*rank 4 of 4 correct · group of 6 · labelled: first wrong step 2$/));
    await workbench.page.mouse.move(5, 500);
    const after = await hoverFlawedStep();
    expect(after).toContain('labelled: first wrong step 2');
    expect(after).toContain('Clear Label');
    await workbench.screenshot('labels-01-hover-badge');
    await workbench.page.mouse.move(5, 500);
  });

  test('a rollout marked sound from the command palette, and the dashboard measures the flags on the labels', async () => {
    await workbench.goToLine(1, 20);
    await workbench.runCommand('PROF Lens: Mark Rollout as Sound');
    await expect.poll(() => readSidecar().length, { timeout: 15_000 }).toBe(2);
    expect(readSidecar().map((l) => l.firstWrongStep).sort()).toEqual([-1, 1]);
    await expect.poll(lenses, { timeout: 15_000 }).toContainEqual(expect.stringMatching(/^PROF: .*\bkept · .* · labelled sound$/));

    await workbench.runCommand('PROF Lens: Show Rollout Dashboard');
    const frame = await panelFrame(workbench.page, /PROF dashboard/);
    const card = frame.locator('section[aria-label="Flags against your labels"]');
    await card.waitFor({ timeout: 15_000 });
    await card.scrollIntoViewIfNeeded();
    const text = await card.innerText();
    expect(text).toContain('2 labelled rollouts (1 with a first wrong step, 1 sound)');
    // Rollout 2 (flawed) is the only one flagged, by both flags; rollout 1 (sound) by neither.
    expect(text).toMatch(/Low step \(a step below the threshold\)\s+1\.00 \(1 of 1\)\s+1\.00 \(1 of 1\)/);
    expect(text).toContain('Measured at threshold 0.5, calibrated on 159 labelled solutions (pb.json): F1 0.41.');
    expect(await frame.locator('header .file').innerText()).toContain('threshold 0.5, calibrated on 159 labelled solutions (pb.json): F1 0.41');
    expect(text).toMatch(/Suspected false positive \(2 labelled correct answers\)\s+1\.00 \(1 of 1\)\s+1\.00 \(1 of 1\)/);
    expect(text).toContain('Audit of 2 labelled correct answers: 1 flawed, 50.0%');
    await workbench.screenshot('labels-02-dashboard');
    expect(readFileSync(dump).equals(fixture)).toBe(true);
  });

  test('the group panel badges a labelled row and labels a step with its button', async () => {
    await workbench.page.locator('.tab[data-resource-name="rollouts.jsonl"]').click();
    await workbench.goToLine(3, 20);
    await workbench.runCommand('PROF Lens: Show PROF Group');
    const frame = await panelFrame(workbench.page, /PROF group/);
    await expect.poll(async () => frame.locator('.badge.label').allInnerTexts(), { timeout: 15_000 }).toEqual(expect.arrayContaining(['labelled sound', 'labelled: first wrong step 2']));
    const row = frame.locator('tr.rollout[aria-label^="line 3:"]');
    await row.locator('button.toggle').click();
    await frame.locator('button[aria-label="Mark step 1 of line 3 as the first wrong step"]').click();
    await expect.poll(() => readSidecar().length, { timeout: 15_000 }).toBe(3);
    await expect.poll(async () => row.locator('.badge.label').allInnerTexts(), { timeout: 15_000 }).toEqual(['labelled: first wrong step 1']);
    // The row stays open after the panel is sent again.
    await expect(frame.locator('.label-bar', { hasText: 'labelled: first wrong step 1' }).count()).resolves.toBe(1);
    await workbench.screenshot('labels-03-group-panel');
    await frame.locator('.label-bar button', { hasText: 'Clear Label' }).click();
    await expect.poll(() => readSidecar().length, { timeout: 15_000 }).toBe(2);
    expect(readFileSync(dump).equals(fixture)).toBe(true);
  });

  test('Export Labels writes the labelled rollouts as ProcessBench-shaped JSON', async () => {
    await workbench.page.locator('.tab[data-resource-name="rollouts.jsonl"]').click();
    // The dialog offers `<dump stem>.processbench.json` beside the dump.
    const target = join(workbench.server.workspace, 'rollouts.processbench.json');
    await workbench.runCommand('PROF Lens: Export Labels…');
    // The editor's own save dialog (a quick input): its offer accepted with Enter.
    const widget = workbench.page.locator('.quick-input-widget');
    await expect.poll(() => widget.innerText(), { timeout: 20_000 }).toContain('Export labels as ProcessBench-shaped JSON');
    await expect.poll(() => widget.locator('input').inputValue(), { timeout: 20_000 }).toMatch(/rollouts\.processbench\.json$/);
    await workbench.page.keyboard.press('Enter');
    await expect.poll(() => existsSync(target), { timeout: 15_000 }).toBe(true);
    const items = JSON.parse(readFileSync(target, 'utf8')) as { id: string; problem: string; steps: string[]; label: number; final_answer_correct: boolean | null }[];
    expect(items.map((i) => [i.id, i.label, i.steps.length, i.final_answer_correct])).toEqual([['rollouts.jsonl:1:0', -1, 3, true], ['rollouts.jsonl:2:0', 1, 3, true]]);
    expect(items[1]?.steps[1]).toBe('Then \\frac{1}{2} of them, the "half", is 20 \u2014 caf\u00e9 math.');
    expect(items[0]?.problem).toMatch(/^Maya has 48 apples/);
    expect(readFileSync(dump).equals(fixture)).toBe(true);
  });

  test('the labels are read again when the sidecar changes on disk', async () => {
    await workbench.page.locator('.tab[data-resource-name="rollouts.jsonl"]').click();
    const kept = readSidecar().filter((l) => l.firstWrongStep >= 0);
    writeFileSync(sidecar, JSON.stringify({ format: 'prof-lens-labels', version: 1, labels: kept }));
    await expect.poll(async () => (await lenses()).some((l) => l.endsWith('labelled sound')), { timeout: 20_000 }).toBe(false);
    expect(await lenses()).toContainEqual(expect.stringMatching(/labelled: first wrong step 2$/));
    await workbench.screenshot('labels-04-after-disk-change');
  });

  test('the Rollout View of a labelled rollout says its label in the header', async () => {
    await workbench.goToLine(2, 20);
    await workbench.runCommand('PROF Lens: Open Rollout View');
    await workbench.page.locator('.tab.active[aria-label*="rollout 2"]').waitFor({ timeout: 20_000 });
    await expect.poll(() => workbench.visibleEditorText(), { timeout: 15_000 }).toContain('## Steps');
    expect((await workbench.visibleEditorText()).replace(/\n/g, '')).toContain('- Labelled: first wrong step 2');
    await workbench.screenshot('labels-05-rollout-view-badge');
  });
});
