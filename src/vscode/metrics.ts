/**
 * Timing figures for benchmarks: activation, time to first decorations, paint times and the
 * extension host's longest event-loop stall while an analysis runs. Off unless the environment
 * variable PROF_LENS_METRICS_FILE names a file to write them to.
 */
import { writeFileSync } from 'node:fs';
import type * as vscode from 'vscode';
import type { AnalysisProgress } from './analysisStore';
import type { PaintTiming } from './decorations';

interface DocumentTimes {
  requestedAt: number;
  firstPaintMs: number | null;
  analysedMs: number | null;
  rollouts: number;
}

/** How often the stall monitor wakes; a gap beyond this is time the event loop was blocked. */
const TICK_MS = 10;

/** Collects figures and writes them as JSON; a no-op when disabled. */
export class Metrics implements vscode.Disposable {
  private readonly documents = new Map<string, DocumentTimes>();
  private readonly paints: PaintTiming[] = [];
  /** Notable moments as wall-clock times, so a test can line them up with what the browser saw. */
  private readonly timeline: { at: number; event: string; ms?: number }[] = [];
  private activationMs: number | null = null;
  private maxStallMs = 0;
  private maxStallDuringAnalysisMs = 0;
  private stallsOver50Ms = 0;
  private readonly running = new Set<string>();
  private lastAnalysisEnd = Number.NEGATIVE_INFINITY;
  private timer?: ReturnType<typeof setInterval>;
  private writeTimer?: ReturnType<typeof setTimeout>;

  private constructor(private readonly file: string | undefined) {
    if (!file) return;
    let last = performance.now();
    this.timer = setInterval(() => {
      const now = performance.now();
      const stall = now - last - TICK_MS;
      last = now;
      if (stall > this.maxStallMs) this.maxStallMs = stall;
      if (stall > 50) this.note('stall', stall);
      // Painting and publishing happen as an analysis ends: they count as part of it.
      const isAnalysing = this.running.size > 0 || now - this.lastAnalysisEnd < 2_000;
      if (isAnalysing && stall > this.maxStallDuringAnalysisMs) this.maxStallDuringAnalysisMs = stall;
      if (isAnalysing && stall > 50) this.stallsOver50Ms++;
    }, TICK_MS);
  }

  /** Enabled when PROF_LENS_METRICS_FILE is set. */
  static fromEnvironment(): Metrics {
    return new Metrics(process.env['PROF_LENS_METRICS_FILE']);
  }

  /** Records a moment (and optionally a duration) on the timeline. */
  note(event: string, ms?: number): void {
    if (!this.file) return;
    this.timeline.push({ at: Date.now(), event, ms });
    if (this.timeline.length > 1_000) this.timeline.shift();
    this.save();
  }

  activated(loadStartedAt: number): void {
    this.note('activated');
    this.activationMs = performance.now() - loadStartedAt;
    this.save();
  }

  progress(event: AnalysisProgress): void {
    if (!this.file) return;
    const key = event.uri.toString();
    const times = this.documents.get(key);
    this.note(`${event.state} ${event.done}/${event.total}${event.activity === undefined ? '' : ` ${event.activity}`} ${nameOf(key)}`);
    // A request starts with 0/0 and no activity; a worker reading a file from disk also reports
    // 0/0, with its activity (`reading 40%`), and must not restart the clock.
    if (event.state === 'running' && event.total === 0 && event.activity === undefined) {
      this.running.add(key);
      this.documents.set(key, { requestedAt: performance.now(), firstPaintMs: null, analysedMs: null, rollouts: 0 });
    } else if (event.state !== 'running') {
      this.running.delete(key);
      this.lastAnalysisEnd = performance.now();
      if (times) Object.assign(times, { analysedMs: performance.now() - times.requestedAt, rollouts: event.done });
    }
    this.save();
  }

  paint(timing: PaintTiming): void {
    if (!this.file) return;
    this.paints.push(timing);
    this.note(`${timing.isOverview ? 'paint overview' : `paint ${timing.lines} lines`} ${nameOf(timing.uri)}`, timing.ms);
    if (this.paints.length > 500) this.paints.shift();
    const times = this.documents.get(timing.uri);
    if (times && times.firstPaintMs === null && !timing.isOverview && timing.lines > 0) {
      times.firstPaintMs = performance.now() - times.requestedAt;
    }
    this.save();
  }

  dispose(): void {
    clearInterval(this.timer);
    clearTimeout(this.writeTimer);
  }

  private save(): void {
    if (!this.file || this.writeTimer) return;
    this.writeTimer = setTimeout(() => {
      this.writeTimer = undefined;
      const snapshot = {
        activationMs: this.activationMs,
        maxStallMs: this.maxStallMs,
        maxStallDuringAnalysisMs: this.maxStallDuringAnalysisMs,
        stallsOver50MsDuringAnalysis: this.stallsOver50Ms,
        documents: Object.fromEntries(this.documents),
        paints: this.paints,
        timeline: this.timeline,
      };
      writeFileSync(this.file as string, JSON.stringify(snapshot, null, 1));
    }, 100);
  }
}

/** A document's file name, for the timeline. */
function nameOf(uri: string): string {
  return uri.slice(uri.lastIndexOf('/') + 1);
}
