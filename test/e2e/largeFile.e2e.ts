/**
 * A ~40 MB dump opens and gets its first decorations without blocking the editor; the timings
 * go to test-output/e2e/bench.json.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { attachedTexts } from './editorDom';
import { writeLargeDump } from './largeDump';
import { outputDir, Workbench } from './workbench';

const DUMP_BYTES = 40 * 1024 * 1024;

interface ExtensionMetrics {
  activationMs: number | null;
  maxStallMs: number;
  maxStallDuringAnalysisMs: number;
  stallsOver50MsDuringAnalysis: number;
  documents: Record<string, { firstPaintMs: number | null; analysedMs: number | null; rollouts: number }>;
  paints: { uri: string; lines: number; ms: number; isOverview: boolean }[];
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
}

describe('a 40 MB rollout dump', () => {
  let workbench: Workbench;
  let scratch: string;
  let lineCount = 0;
  const metricsFile = (): string => join(scratch, 'metrics.json');

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'prof-lens-bench-'));
    workbench = await Workbench.start({ env: { PROF_LENS_METRICS_FILE: join(scratch, 'metrics.json') } });
    lineCount = await writeLargeDump(join(workbench.server.workspace, 'dump.jsonl'), DUMP_BYTES);
  });
  afterAll(async () => {
    await workbench?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  test('opens and gets its first decorations without freezing the editor', async () => {
    const page = workbench.page;
    // The renderer's longest gap between animation frames tells whether the window froze.
    await page.evaluate(() => {
      const state = { last: performance.now(), maxGap: 0 };
      (window as unknown as { frameGaps: typeof state }).frameGaps = state;
      const tick = (): void => {
        const now = performance.now();
        state.maxGap = Math.max(state.maxGap, now - state.last);
        state.last = now;
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    const opened = Date.now();
    await workbench.openFile('dump.jsonl', 90_000);
    const tabShownMs = Date.now() - opened;
    const editor = workbench.activeEditor();
    await expect.poll(async () => (await attachedTexts(editor)).length, { timeout: 120_000, interval: 100 }).toBeGreaterThan(0);
    const firstDecorationsMs = Date.now() - opened;
    const frameGapMs = await page.evaluate(() => (window as unknown as { frameGaps: { maxGap: number } }).frameGaps.maxGap);
    await workbench.screenshot('07-large-dump');

    // A jump far down the file: time until that part of the file is decorated.
    await workbench.statusItem('PROF Lens · file').waitFor({ timeout: 120_000 });
    const scrolled = Date.now();
    await workbench.goToLine(Math.floor(lineCount * 0.75));
    await expect.poll(async () => (await attachedTexts(editor)).length, { timeout: 30_000, interval: 50 }).toBeGreaterThan(0);
    const jumpToDecorationsMs = Date.now() - scrolled;
    await workbench.screenshot('08-large-dump-jump');
    await page.waitForTimeout(1_000);

    const metrics = JSON.parse(readFileSync(metricsFile(), 'utf8')) as ExtensionMetrics;
    const dump = Object.entries(metrics.documents).find(([uri]) => uri.endsWith('dump.jsonl'))?.[1];
    const paints = metrics.paints.filter((p) => p.uri.endsWith('dump.jsonl') && !p.isOverview).map((p) => p.ms);
    const overview = metrics.paints.filter((p) => p.uri.endsWith('dump.jsonl') && p.isOverview).map((p) => p.ms);
    const timeline = (metrics as unknown as { timeline: { at: number; event: string; ms?: number }[] }).timeline
      .filter((e) => e.at >= opened && !e.event.startsWith('paint '))
      .map((e) => `${e.at - opened} ${e.event}${e.ms === undefined ? '' : ` ${Math.round(e.ms)}ms`}`);
    process.stdout.write(`timeline:\n${timeline.join('\n')}\nfirst DOM decorations at ${firstDecorationsMs}\n`);
    const bench = {
      dumpBytes: DUMP_BYTES,
      dumpLines: lineCount,
      tabShownMs,
      firstDecorationsMs,
      jumpToDecorationsMs,
      rendererMaxFrameGapMs: Math.round(frameGapMs),
      extension: {
        activationMs: metrics.activationMs,
        analysisMs: dump?.analysedMs,
        openToFirstPaintMs: dump?.firstPaintMs,
        rollouts: dump?.rollouts,
        paintMsMedian: percentile(paints, 0.5),
        paintMsMax: Math.max(...paints),
        overviewPaintMsMax: Math.max(...overview),
        hostMaxStallDuringAnalysisMs: Math.round(metrics.maxStallDuringAnalysisMs),
        hostStallsOver50MsDuringAnalysis: metrics.stallsOver50MsDuringAnalysis,
        hostMaxStallMs: Math.round(metrics.maxStallMs),
      },
    };
    mkdirSync(outputDir, { recursive: true });
    writeFileSync(join(outputDir, 'bench.json'), JSON.stringify(bench, null, 2));
    process.stdout.write(`bench: ${JSON.stringify(bench)}\n`);
    expect(dump?.rollouts).toBe(lineCount);
    expect(firstDecorationsMs).toBeLessThan(60_000);
    // The 50 ms target is a benchmark figure (bench.json, README), not a test: timings on a shared
    // machine vary. This bound only catches a frozen editor, the multi-second stalls that one big
    // message or one big loop on the host thread would bring back.
    expect(bench.extension.hostMaxStallDuringAnalysisMs).toBeLessThan(1000);

    // The Problems entries are published a slice at a time: every one arrives, once, in file order
    // (the file's row counts the 500 of profLens.display.maxProblems; the dump has 4,744 flags).
    await workbench.problems('Suspected false positive');
    const fileRow = page.locator('.markers-panel .monaco-list-row').first();
    await expect.poll(async () => (await fileRow.innerText()).replace(/\s+/g, ' '), { timeout: 15_000 }).toBe('dump.jsonl 500');
    expect(await page.locator('.markers-panel .monaco-list-row').nth(1).innerText()).toContain('[Ln 1, Col');
    await workbench.screenshot('18-large-dump-problems');
  });
});
