/**
 * How long a user waits, measured where the user waits: the real verl dump (1,024 rollouts) opened
 * in a fresh window and again in a warm one, from the Enter that opens it to its first CodeLens and
 * first decoration in the editor's DOM; then, from the click on a command or control to its
 * content, the group panel, the file dashboard, the Rollout Explorer (open, filter, sort, search, a
 * page far down) and Compare. The figures go to test-output/e2e/timings.json, which `npm run bench`
 * prints beside the CLI's whole-process `report` on the same file. Speed is a benchmark figure,
 * not a test: every step waits for its state (bounded), and only what it shows is asserted.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { repoRoot } from './codeServer';
import { outputDir, Workbench } from './workbench';

const dumpPath = join(repoRoot, 'test', 'fixtures', 'real', 'verl_gsm8k_multiturn_tool_step2.jsonl');
const dump = readFileSync(dumpPath, 'utf8');
const ROLLOUTS = 1_024;
/** Polling interval for states in a webview frame (a check costs a round trip to the browser). */
const FRAME_POLL_MS = 15;

/** What the active editor shows first: a CodeLens, and a decoration's attached text. */
const LENS = '.codelens-decoration a';
const DECORATION = '.view-lines span[class*="ced-"]';

/** Whether the active editor shows the file `name` and holds an element matching `selector`. */
function shows({ name, selector }: { name: string; selector: string }): boolean {
  const editor = document.querySelector('.editor-group-container.active .monaco-editor');
  const tab = document.querySelector('.editor-group-container.active .tab.active');
  return (editor?.getAttribute('data-uri') ?? '').endsWith(`/${name}`) && (tab?.getAttribute('aria-label') ?? '').includes(name)
    && editor?.querySelector(selector) !== null;
}

interface OpenTimes {
  tabMs: number;
  firstDecorationMs: number;
  firstCodeLensMs: number;
  /** Until the status bar says the whole file is analysed. */
  analysedMs: number;
}

describe('where the user waits, on the real verl dump', () => {
  let workbench: Workbench;
  let scratch: string;
  const times: Record<string, number> = {};
  const opens: Record<string, OpenTimes> = {};
  const clicks: { at: number; what: string }[] = [];
  /** The extension's timeline so far (written every 100 ms while it changes; absent before activation). */
  const timeline = (): { at: number; event: string; ms?: number }[] => {
    try {
      return (JSON.parse(readFileSync(join(scratch, 'metrics.json'), 'utf8')) as { timeline: { at: number; event: string; ms?: number }[] }).timeline;
    } catch {
      return [];
    }
  };

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'prof-lens-timings-'));
    workbench = await Workbench.start({
      env: { PROF_LENS_METRICS_FILE: join(scratch, 'metrics.json') },
      workspaceFiles: { 'verl.jsonl': dump, 'verl-again.jsonl': dump },
    });
  });
  afterAll(async () => {
    await workbench?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  /** Opens a file as a user does and times its tab, first decoration, first CodeLens, whole analysis. */
  async function openTimed(name: string): Promise<OpenTimes> {
    const page = workbench.page;
    // Started before the click, so neither misses its moment while the other is awaited.
    let pressedAt = Number.NaN;
    const opened = workbench.openFile(name, 90_000).then((at) => { pressedAt = at; return Date.now() - at; });
    const decoration = page.waitForFunction(shows, { name, selector: DECORATION }, { polling: 'raf', timeout: 120_000 }).then(() => Date.now());
    const lens = page.waitForFunction(shows, { name, selector: LENS }, { polling: 'raf', timeout: 120_000 }).then(() => Date.now());
    const tabMs = await opened;
    const [decoratedAt, lensAt] = await Promise.all([decoration, lens]);
    // Done: the extension's timeline notes the analysis of this file finished.
    const doneAt = async (): Promise<number | undefined> => timeline().find((e) => e.at >= pressedAt && e.event.startsWith('done ') && e.event.endsWith(` ${name}`))?.at;
    await expect.poll(doneAt, { timeout: 120_000 }).toBeGreaterThan(0);
    const analysedMs = (await doneAt())! - pressedAt;
    clicks.push({ at: pressedAt, what: `open ${name}` });
    return { tabMs, firstDecorationMs: decoratedAt - pressedAt, firstCodeLensMs: lensAt - pressedAt, analysedMs };
  }

  /**
   * The webview frame whose heading matches once `ready` holds in it, and the milliseconds from
   * `since`; polled every few milliseconds, bounded.
   */
  async function frameAfter(since: number, heading: RegExp, ready: (frame: Frame) => Promise<boolean>): Promise<{ frame: Frame; ms: number }> {
    clicks.push({ at: since, what: String(heading) });
    let found: Frame | undefined;
    await expect.poll(async () => {
      for (const frame of workbench.page.frames()) {
        const text = await frame.evaluate(() => document.querySelector('#app h1')?.textContent ?? null).catch(() => null);
        if (text !== null && heading.test(text) && (await ready(frame).catch(() => false))) {
          found = frame;
          return true;
        }
      }
      return false;
    }, { timeout: 60_000, interval: FRAME_POLL_MS }).toBe(true);
    const ms = Date.now() - since;
    await noteFrame(found as Frame, { since: 0, what: String(heading) });
    return { frame: found as Frame, ms };
  }

  /**
   * What the browser timed in a webview: its page and each script and stylesheet (when asked from
   * `since` 0), its first paint and the panel's own `prof-lens` marks after `since`; with the
   * clicks on the printed timeline.
   */
  async function noteFrame(frame: Frame, { since, what }: { since: number; what: string }): Promise<void> {
    const entries = await frame.evaluate((after) => {
      const origin = performance.timeOrigin;
      const at = (t: number): number => Math.round(origin + t);
      const file = (url: string): string => url.replace(/[?#].*$/, '').replace(/^.*\//, '');
      const out: { at: number; event: string }[] = [];
      if (after === 0) {
        out.push({ at: at(0), event: 'page asked for' });
        for (const e of performance.getEntriesByType('navigation') as PerformanceNavigationTiming[]) out.push({ at: at(e.workerStart || e.fetchStart), event: 'page fetched' }, { at: at(e.responseEnd), event: 'page arrived' });
        for (const e of performance.getEntriesByType('resource') as PerformanceResourceTiming[]) {
          out.push({ at: at(e.startTime), event: `load ${file(e.name)} (${e.encodedBodySize.toLocaleString('en-US')} B)` }, { at: at(e.responseEnd), event: `loaded ${file(e.name)}` });
        }
        for (const e of performance.getEntriesByType('paint')) out.push({ at: at(e.startTime), event: e.name });
      }
      for (const e of performance.getEntriesByType('mark')) if (at(e.startTime) >= after) out.push({ at: at(e.startTime), event: e.name });
      return out;
    }, since).catch(() => []);
    for (const e of entries) clicks.push({ at: e.at, what: `  ${what}: ${e.event}` });
  }

  /** Milliseconds from `since` until `ready` holds in a frame already found. */
  async function inFrameAfter(frame: Frame, since: number, ready: () => Promise<boolean>): Promise<number> {
    clicks.push({ at: since, what: 'in the explorer' });
    await expect.poll(() => ready().catch(() => false), { timeout: 60_000, interval: FRAME_POLL_MS }).toBe(true);
    const ms = Date.now() - since;
    await noteFrame(frame, { since, what: 'explorer' });
    return ms;
  }

  /** Focuses the first editor group, where the file opened last is the active tab. */
  async function focusFile(name: string): Promise<void> {
    await workbench.runCommand('View: Focus First Editor Group');
    await expect.poll(() => workbench.page.locator('.tab.active', { hasText: name }).count()).toBeGreaterThan(0);
  }

  test('a fresh window: the dump opened first, activation included', async () => {
    opens['fresh'] = await openTimed('verl.jsonl');
    await workbench.screenshot('timings-01-fresh');
    expect(await workbench.page.locator(LENS).first().innerText()).toMatch(/\S/);
  });

  test('a warm window: the same bytes under another name, the extension already running', async () => {
    opens['warm'] = await openTimed('verl-again.jsonl');
    await workbench.screenshot('timings-02-warm');
  });

  test('the group panel and the file dashboard, from the command to their content', async () => {
    await focusFile('verl-again.jsonl');
    const group = await frameAfter(await workbench.runCommand('PROF Lens: Show PROF Group'), /PROF group/, async (f) => (await f.locator('tr.rollout').count()) > 0);
    times['groupPanelMs'] = group.ms;
    expect(await group.frame.locator('tr.rollout').count()).toBe(16);
    await focusFile('verl-again.jsonl');
    const dashboard = await frameAfter(await workbench.runCommand('PROF Lens: Show Rollout Dashboard'), /PROF dashboard/,
      async (f) => (await f.locator('svg.chart').count()) > 0 && (await f.locator('.counts .count').count()) > 0);
    times['dashboardMs'] = dashboard.ms;
    await workbench.screenshot('timings-03-dashboard');
  });

  test('the Rollout Explorer: open, filter, sort, search, a page far down', async () => {
    await focusFile('verl-again.jsonl');
    const title = (f: Frame): Promise<string> => f.locator('.query-title').innerText();
    const drawn = async (f: Frame): Promise<boolean> =>
      (await f.locator('.grid-rows .grid-row.loading').count()) === 0 && (await f.locator('.grid-rows .grid-row.rollout').count()) > 0;
    const opened = await frameAfter(await workbench.runCommand('PROF Lens: Open Rollout Explorer'), /Rollout Explorer · verl-again\.jsonl/,
      async (f) => (await title(f)) === `all rollouts · ${ROLLOUTS.toLocaleString('en-US')}` && (await drawn(f)));
    times['explorerOpenMs'] = opened.ms;
    const frame = opened.frame;

    let since = Date.now();
    await frame.locator('select[name="outcome"]').selectOption({ index: 1 });
    times['explorerFilterMs'] = await inFrameAfter(frame, since, async () => /^\S.* · [\d,]+$/.test(await title(frame)) && !(await title(frame)).startsWith('all rollouts') && (await drawn(frame)));
    const filtered = await title(frame);

    since = Date.now();
    await frame.locator('select.sort-by').selectOption('responseChars asc');
    times['explorerSortMs'] = await inFrameAfter(frame, since, async () => (await title(frame)).includes('by length ↑') && (await drawn(frame)));

    await frame.locator('input.search').fill('reward');
    since = Date.now();
    await frame.locator('input.search').press('Enter');
    times['explorerSearchMs'] = await inFrameAfter(frame, since, async () => (await title(frame)).includes('"reward"') && (await drawn(frame)));
    expect(await title(frame)).not.toBe(filtered);

    await frame.locator('button', { hasText: 'Clear filters' }).click();
    await expect.poll(() => title(frame)).toBe(`all rollouts · by length ↑ · ${ROLLOUTS.toLocaleString('en-US')}`);
    since = Date.now();
    await frame.locator('.grid').evaluate((e) => { e.scrollTop = e.scrollHeight * 0.75; });
    times['explorerPageMs'] = await inFrameAfter(frame, since, async () => {
      const index = Number(await frame.locator('.grid-rows .grid-row.rollout').first().getAttribute('aria-rowindex'));
      return index > ROLLOUTS * 0.6 && (await frame.locator('.grid-rows .grid-row.loading').count()) === 0;
    });
    await workbench.screenshot('timings-04-explorer');
  });

  test('Compare with… the other open copy, from the click on it to the prompts', async () => {
    await focusFile('verl-again.jsonl');
    await workbench.runCommand('PROF Lens: Compare with…');
    // Another analysed file is offered first: the one opened before.
    const row = workbench.page.locator('.quick-input-list .monaco-list-row', { hasText: 'verl.jsonl' }).first();
    await row.waitFor();
    const clicked = Date.now();
    await row.click();
    const compare = await frameAfter(clicked, /Compare · verl-again\.jsonl ↔ verl\.jsonl/, async (f) => (await f.locator('tr.prompt').count()) > 0);
    times['compareMs'] = compare.ms;
    expect(await compare.frame.locator('tr.prompt').count()).toBe(64);
    await workbench.screenshot('timings-05-compare');
  });

  test('the figures are written for the bench', () => {
    const metrics = JSON.parse(readFileSync(join(scratch, 'metrics.json'), 'utf8')) as { activationMs: number | null; timeline: { at: number; event: string; ms?: number }[] };
    // The CLI's whole-process report of the same file, timed now, under this moment's load.
    const started = Date.now();
    const cli = spawnSync(process.execPath, [join(repoRoot, 'dist', 'cli.js'), 'report', dumpPath, '--json', '--no-cache'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const cliReportMs = Date.now() - started;
    expect(cli.status).toBe(0);
    const figures = {
      date: new Date().toISOString(),
      file: 'test/fixtures/real/verl_gsm8k_multiturn_tool_step2.jsonl',
      bytes: statSync(dumpPath).size,
      rollouts: ROLLOUTS,
      cliReportMs,
      activationMs: metrics.activationMs === null ? null : Math.round(metrics.activationMs),
      fresh: opens['fresh'],
      warm: opens['warm'],
      panels: times,
    };
    const first = clicks[0]?.at ?? 0;
    const events = [...metrics.timeline, ...clicks.map((c) => ({ at: c.at, event: c.what.startsWith('  ') ? c.what : `CLICK ${c.what}`, ms: undefined }))].sort((a, b) => a.at - b.at);
    process.stdout.write(`timeline (ms after the first click):\n${events.map((e) => `${e.at - first} ${e.event}${e.ms === undefined ? '' : ` ${Math.round(e.ms)}ms`}`).join('\n')}\n`);
    process.stdout.write(`timings: ${JSON.stringify(figures)}\n`);
    mkdirSync(outputDir, { recursive: true });
    writeFileSync(join(outputDir, 'timings.json'), JSON.stringify(figures, null, 2));
    expect(Object.keys(times)).toHaveLength(8);
  });
});
