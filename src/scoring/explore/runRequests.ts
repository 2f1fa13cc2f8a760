/**
 * What the run explorer worker does, apart from its messages: runs opened in the Explorer (one
 * `RunExplorer` per key, answering calls over the rows read so far) and the Run Dashboard's
 * health audit, each file read by the audit's own reader (`healthOfFile`).
 */
import type { ProfSettings } from '../../core/profSettings';
import type { ScorerChoice } from '../../core/scorerChoice';
import type { CasService } from '../../core/cas/casService';
import type { RunSplit } from '../../core/run/runLayout';
import { healthReport } from '../../core/health/healthReport';
import { mergeSteps } from '../../core/health/stepMerge';
import type { StepHealth } from '../../core/health/stepHealth';
import type { ExplorerAnswer, ExplorerCall } from '../../protocol/explorer';
import type { AuditResult } from '../../protocol/runExplorer';
import { healthOfFile } from '../health/healthFile';
import { runFilesOf } from '../run/runLayoutFiles';
import { RunExplorer, runStepFiles, type RunProgress } from './runExplorer';

export interface RunReading {
  path: string;
  split: RunSplit;
  settings: Partial<ProfSettings>;
  scorer: ScorerChoice;
}

interface OpenRun {
  explorer: RunExplorer;
  controller: AbortController;
}

export class RunRequests {
  private readonly runs = new Map<string, OpenRun>();

  constructor(private readonly cas?: CasService, private readonly textBytes?: number) {}

  /** Reads a run's step files under `key` (a run already open there is let go first). */
  async open(key: string, reading: RunReading, onProgress: (progress: RunProgress) => void, signal?: AbortSignal): Promise<RunProgress> {
    this.close(key);
    const controller = new AbortController();
    signal?.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
    const explorer = new RunExplorer({ settings: reading.settings, scorer: reading.scorer, signal: controller.signal, ...(this.cas ? { cas: this.cas } : {}), ...(this.textBytes === undefined ? {} : { textBytes: this.textBytes }) });
    this.runs.set(key, { explorer, controller });
    const files = await runStepFiles(reading.path, reading.split);
    if (files.length === 0) throw new Error(`${reading.path} holds no step files of a run`);
    await explorer.read(files, onProgress);
    return { ...explorer.progress };
  }

  /** One Explorer call on the run under `key`. */
  async answer(key: string, call: ExplorerCall, signal?: AbortSignal): Promise<ExplorerAnswer> {
    const run = this.runs.get(key);
    if (!run) throw new Error('the run is not open in the Explorer (open it again)');
    const engine = run.explorer.engine;
    if (!engine) throw new Error('the run\'s first step file is still being read');
    switch (call.method) {
      case 'query': {
        const result = await engine.query(call.query, signal ? { signal } : {});
        const page = result.rowsPage(call.offset, call.limit);
        const search = result.query.filter.search;
        const highlights = search && page.rows.length > 0 ? await engine.highlights(page.rows.map((r) => r.id), search, signal) : null;
        const notes = [engine.rewardColumnsNote, search ? run.explorer.searchNote : null].filter((n): n is string => n !== null);
        return { method: 'query', query: result.query, title: [result.title, ...notes].join(' · '), page, highlights, rewardColumns: engine.rewardColumns };
      }
      case 'place': {
        const table = engine.table;
        if (!table.run || call.rolloutId >= table.count) throw new Error(`the run has no row ${call.rolloutId}`);
        return { method: 'place', file: table.run.files[table.run.file[call.rolloutId] as number] as string, line: table.line(call.rolloutId) };
      }
      case 'export':
      case 'compare':
      case 'promptSides':
      case 'rules':
        throw new Error(`a run's table does not ${call.method === 'export' ? 'export a selection' : call.method === 'rules' ? 'compare curation rules' : 'compare'}: open a step file for that`);
    }
  }

  close(key: string): void {
    this.runs.get(key)?.controller.abort();
    this.runs.delete(key);
  }

  /** The health audit of a run: every step file read in turn (a file that cannot be read is left out). */
  async audit(reading: RunReading, signal?: AbortSignal): Promise<AuditResult> {
    const { files, layout } = await runFilesOf(reading.path, { split: reading.split });
    const parts: StepHealth[] = [];
    for (const file of files) {
      signal?.throwIfAborted();
      const health = await healthOfFile(file, { settings: reading.settings, scorer: reading.scorer, ...(this.cas ? { cas: this.cas } : {}) }).catch(() => null);
      if (health) parts.push(...health.parts);
    }
    const kind = layout === null ? 'file' : 'run';
    const report = healthReport({ path: reading.path, kind, parts });
    return { kind, steps: report.steps, rollouts: report.rollouts, detectors: report.detectors, stepHealth: mergeSteps(parts) };
  }
}
