/**
 * What PROF Lens must not do in a real VS Code: touch JSON files that are not rollouts, show a
 * clickable link built from a hostile setting value, put rollout text in a Markdown document,
 * overwrite its input through a symlink from a panel export, or mark the wrong line after a lone
 * carriage return.
 */
import { lstatSync, readFileSync, symlinkSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Locator } from 'playwright-core';
import { repoRoot } from './codeServer';
import { attachedTexts } from './editorDom';
import { panelFrame } from './panelHarness';
import { Workbench } from './workbench';

const fixture = readFileSync(join(repoRoot, 'test', 'fixtures', 'e2e', 'rollouts.jsonl'), 'utf8');
const fixtureLines = fixture.split('\n');
const HOSTILE = '[Click to fix](command:workbench.action.quit)';

/** Record 2 holds a lone CR as JSON whitespace: VS Code shows it on two lines. */
const loneCr = `${fixtureLines[0]}\n{"prompt": "A lone carriage return",\r"response": "It splits.\\n\\nHere.", "answer": "1", "score": 1}\n${fixtureLines[1]}\n${fixtureLines[2]}\n`;

/** Rollout text with links of every kind Markdown or the editor would make clickable. */
const links = `${JSON.stringify({
  uid: 'links',
  prompt: 'Read [the settings](command:workbench.action.openSettings) first, or https://example.com/help.',
  response: 'Step one, see [here](https://example.com/x).\n\nThe answer is \\boxed{4}.',
  answer: '4',
  score: 1,
  step_scores: [0.9, 0.8],
})}\n`;

/** Each rendered line's text with the summary decorations attach to it, top to bottom. */
async function linesWithSummaries(editor: Locator): Promise<{ text: string; summary: string }[]> {
  return editor.locator('.view-lines').evaluate((root) => {
    const lines = [...root.querySelectorAll<HTMLElement>('.view-line')].sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top));
    return lines.map((line) => {
      let summary = '';
      for (const span of line.querySelectorAll<HTMLElement>('span[class*="ced-"]')) {
        const content = getComputedStyle(span, '::after').content;
        if (content && content !== 'none' && content !== 'normal' && content !== '""') summary += content;
      }
      let text = '';
      for (const span of line.querySelectorAll<HTMLElement>(':scope > span > span')) if (!span.className.includes('ced-')) text += span.textContent ?? '';
      return { text: text.replace(/\u00a0/g, ' '), summary };
    });
  });
}

describe('safety in the editor', () => {
  let workbench: Workbench;

  /** The command palette's entries for a query (closed again afterwards). */
  async function paletteEntries(query: string): Promise<string[]> {
    await workbench.page.keyboard.press('F1');
    const input = workbench.page.locator('.quick-input-widget input');
    await input.fill(`>${query}`);
    const rows = workbench.page.locator('.quick-input-list .monaco-list-row');
    await rows.first().waitFor();
    await workbench.page.waitForTimeout(300);
    const entries = await rows.allInnerTexts();
    await workbench.page.keyboard.press('Escape');
    return entries;
  }
  let scratch: string;
  const metrics = (): { documents: Record<string, unknown> } => JSON.parse(readFileSync(join(scratch, 'metrics.json'), 'utf8')) as { documents: Record<string, unknown> };

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'prof-lens-safety-'));
    workbench = await Workbench.start({
      env: { PROF_LENS_METRICS_FILE: join(scratch, 'metrics.json') },
      workspaceFiles: {
        'rollouts.jsonl': fixture,
        'tsconfig.json': readFileSync(join(repoRoot, 'tsconfig.json'), 'utf8'),
        'package.json': readFileSync(join(repoRoot, 'package.json'), 'utf8'),
        'notes.json': '{"title": "Meeting notes", "items": ["one", "two"]}\n',
        'lone-cr.jsonl': loneCr,
        'links.jsonl': links,
        '.vscode/settings.json': JSON.stringify({ 'profLens.prof.variant': HOSTILE }, null, 2),
      },
    });
  });
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') await workbench?.screenshot(`failure-safety-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
  });
  afterAll(async () => {
    await workbench?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  test('a hostile setting value is named in the warning, as text: no link to click', async () => {
    await workbench.openFile('rollouts.jsonl');
    await workbench.statusItem('PROF Lens ·').waitFor({ timeout: 60_000 });
    const toast = workbench.page.locator('.notification-toast', { hasText: 'PROF Lens settings' });
    await toast.waitFor({ timeout: 30_000 });
    const message = await toast.locator('.notification-list-item-message').innerText();
    expect(message).toContain('variant must be both or pos, got "[Click to fix] (command:workbench.action.quit)"');
    expect(await toast.locator('.notification-list-item-message a').count()).toBe(0);
    await workbench.screenshot('13-hostile-setting-warning');
    await toast.locator('.codicon-notifications-clear').click().catch(() => undefined);
  });

  test('the rollout file gets everything; tsconfig.json and package.json get nothing (no status bar item, no Problems entry, no analysis)', async () => {
    const editor = workbench.activeEditor();
    await expect.poll(async () => (await attachedTexts(editor)).length, { timeout: 30_000 }).toBe(12);
    expect((await workbench.problems('Suspected false positive')).length).toBeGreaterThan(0);
    await workbench.runCommand('View: Hide Panel');
    // tsconfig.json is "JSON with Comments"; package.json is plain JSON, which PROF Lens reads the start of.
    for (const [name, index] of [['tsconfig.json', 14], ['package.json', 15]] as const) {
      await workbench.openFile(name);
      await expect.poll(() => workbench.page.locator('.statusbar-item', { hasText: 'PROF Lens' }).count(), { timeout: 10_000 }).toBe(0);
      await workbench.page.waitForTimeout(1_500);
      expect(await workbench.page.locator('.statusbar-item', { hasText: 'PROF Lens' }).count()).toBe(0);
      expect(await attachedTexts(workbench.activeEditor())).toEqual([]);
      expect(Object.keys(metrics().documents).filter((uri) => uri.endsWith(name))).toEqual([]);
      // The rollout commands (and their keys) are not offered here.
      const offered = await paletteEntries('PROF Lens: ');
      expect(offered.join('\n')).not.toContain('Next Low-Score Step');
      expect(offered.join('\n')).not.toContain('Show PROF Group');
      await workbench.runCommand('View: Focus Problems');
      const filter = workbench.page.locator('.markers-panel-action-filter input, .viewpane-filter input').first();
      await filter.fill(name);
      await workbench.page.waitForTimeout(800);
      expect((await workbench.page.locator('.markers-panel .monaco-list-row').allInnerTexts()).filter((t) => t.includes('PROF Lens'))).toEqual([]);
      await workbench.screenshot(`${index}-${name.replace('.', '-')}-left-alone`);
      await filter.fill('');
      await workbench.runCommand('View: Hide Panel');
    }
  });

  test('a JSON file the user asks for is analysed, and says what it lacks', async () => {
    await workbench.openFile('notes.json');
    await workbench.page.waitForTimeout(1_000);
    expect(await workbench.page.locator('.statusbar-item', { hasText: 'PROF Lens' }).count()).toBe(0);
    expect((await paletteEntries('PROF Lens: ')).join('\n')).toContain('Analyse This File as Rollouts');
    await workbench.runCommand('PROF Lens: Analyse This File as Rollouts');
    await workbench.statusItem('PROF Lens ·').waitFor({ timeout: 30_000 });
    expect((await workbench.problems('no response found')).join('\n')).toContain('line 1: no response found');
    await workbench.runCommand('View: Hide Panel');
  });

  test('a lone CR splits a line as the editor shows it: every summary sits on its rollout’s line', async () => {
    await workbench.openFile('lone-cr.jsonl');
    const editor = workbench.activeEditor();
    await expect.poll(async () => (await linesWithSummaries(editor)).filter((l) => l.summary !== '').length, { timeout: 30_000 }).toBe(3);
    const lines = await linesWithSummaries(editor);
    const starts = [fixtureLines[0]!.slice(0, 20), '{"prompt": "A lone', '"response": "It splits', fixtureLines[1]!.slice(0, 20), fixtureLines[2]!.slice(0, 20)];
    expect(lines.slice(0, 5).map((l, i) => l.text.startsWith(starts[i]!))).toEqual([true, true, true, true, true]);
    // Before, the reader did not count the lone CR: the summaries of lines 4 and 5 sat on lines 3 and 4.
    expect(lines.slice(0, 5).map((l) => l.summary !== '')).toEqual([true, false, false, true, true]);
    expect((await workbench.problems('lone carriage return')).join('\n')).toContain('line 2: expected one JSON object per line');
    await workbench.screenshot('15-lone-cr');
    await workbench.runCommand('View: Hide Panel');
  });

  test('the Rollout View is its own language: rollout text gets no links', async () => {
    await workbench.openFile('links.jsonl');
    await expect.poll(async () => (await attachedTexts(workbench.activeEditor())).length, { timeout: 30_000 }).toBe(1);
    await workbench.goToLine(1);
    await workbench.runCommand('PROF Lens: Open Rollout View');
    await workbench.page.locator('.tab.active[aria-label*="rollout 1"]').waitFor({ timeout: 20_000 });
    await expect.poll(() => workbench.visibleEditorText(), { timeout: 15_000 }).toContain('## Steps');
    await expect.poll(() => workbench.page.locator('[id="status.editor.mode"]').innerText(), { timeout: 10_000 }).toBe('PROF Lens Rollout View');
    // Link detection runs after a pause; give it time to (not) find anything.
    await workbench.page.waitForTimeout(2_500);
    const view = workbench.activeEditor();
    expect(await view.locator('.detected-link, .detected-link-active').count()).toBe(0);
    // The Rollout View wraps long lines; the link text is read with the wraps joined.
    expect((await workbench.visibleEditorText()).replace(/\n/g, '')).toContain('[the settings](command:workbench.action.openSettings)');
    await workbench.screenshot('16-rollout-view-language');
  });

  test('exporting from the panel onto a symlink to the rollout file is refused, and the file is untouched', async () => {
    const source = join(workbench.server.workspace, 'rollouts.jsonl');
    const before = readFileSync(source);
    symlinkSync('rollouts.jsonl', join(workbench.server.workspace, 'alias.jsonl'));
    await workbench.openFile('rollouts.jsonl');
    const lens = workbench.activeEditor().locator('.codelens-decoration a', { hasText: 'Show PROF Group' });
    await lens.first().waitFor({ timeout: 60_000 });
    await lens.first().click();
    const frame = await panelFrame(workbench.page, /PROF group · Maya has 48 apples/);
    await frame.locator('#export-kept').click();
    const input = workbench.page.locator('.quick-input-widget input');
    await input.waitFor();
    await expect.poll(() => input.inputValue()).toContain('rollouts.kept.jsonl');
    await input.fill(join(workbench.server.workspace, 'alias.jsonl'));
    await workbench.page.keyboard.press('Enter');
    // The editor asks before replacing an existing file; say yes: PROF Lens must still refuse.
    const widget = workbench.page.locator('.quick-input-widget');
    await expect.poll(() => widget.innerText(), { timeout: 10_000 }).toContain('already exists');
    await widget.locator('.monaco-button', { hasText: 'OK' }).click();
    await expect.poll(() => frame.locator('.export-status').innerText(), { timeout: 15_000 }).toMatch(/^Export failed: the chosen file .*alias\.jsonl is the same file as the rollout file .*rollouts\.jsonl/);
    await workbench.screenshot('17-export-onto-symlink-refused');
    expect(readFileSync(source).equals(before)).toBe(true);
    expect(lstatSync(join(workbench.server.workspace, 'alias.jsonl')).isSymbolicLink()).toBe(true);
  });
});
