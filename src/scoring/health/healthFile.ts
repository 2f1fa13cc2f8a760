/**
 * One rollout file read for the health audit: its records streamed in batches, each batch analysed
 * by the same Analyzer `prof-lens report` uses (so outcomes, groups and step scores agree with the
 * report and the trend), each rollout reduced to its step's figures at once. Memory is bounded by
 * one batch's texts: grading, step scores and groups need no other record, and PROF's decisions,
 * which do, are not part of the audit.
 */
import type { CasService } from '../../core/cas/casService';
import type { SourceRecord } from '../../core/model';
import type { ProfSettings } from '../../core/profSettings';
import type { ScorerChoice } from '../../core/scorerChoice';
import { eachRollout } from '../../core/report/fileAnalysis';
import { StepHealthBuilder, type StepHealth } from '../../core/health/stepHealth';
import { responseExtras, type ResponseExtras } from '../../core/health/tokenFields';
import { stepOfFileName, stepOfRecord } from '../../core/run/trainingStep';
import { Analyzer } from '../analysis/analyse';
import { fileBatches } from '../run/fileBatches';
import { adaptContextFor } from '../inputs/traceTokenizer';

export interface HealthFileOptions {
  settings: Partial<ProfSettings>;
  scorer: ScorerChoice;
  cas?: CasService;
}

/** A file's step figures and the problems met reading it. */
export interface FileHealth {
  parts: StepHealth[];
  problems: string[];
}

/** Problems listed per file; the rest are counted. */
const MAX_PROBLEMS = 5;

/** What each record says beyond its text, per response index (computed once, the record then let go). */
function extrasOf(record: SourceRecord): (index: number) => ResponseExtras {
  const cache = new Map<number, ResponseExtras>();
  return (index) => {
    let e = cache.get(index);
    if (!e) cache.set(index, (e = responseExtras(record.value, index)));
    return e;
  };
}

/** The health figures of `file`, one part per training step its records name (step 0 when none does). */
export async function healthOfFile(file: string, options: HealthFileOptions): Promise<FileHealth> {
  const context = await adaptContextFor(file, { tokenizerDir: options.settings.tokenizerDir ?? null });
  const fallback = stepOfFileName(file) ?? 0;
  const steps = new Map<number, StepHealthBuilder>();
  const problems: string[] = [];
  let problemCount = 0;
  for await (const batch of fileBatches(file)) {
    for (const d of batch.diagnostics) if (d.severity === 'error' && ++problemCount <= MAX_PROBLEMS) problems.push(d.message);
    if (batch.records.length === 0) continue;
    const byLine = new Map<number, { step: number; extras: (index: number) => ResponseExtras }>();
    for (const r of batch.records) byLine.set(r.line, { step: stepOfRecord(r.value) ?? fallback, extras: extrasOf(r) });
    const analyzer = new Analyzer({ fileName: file, settings: options.settings, scorer: options.scorer, keepText: true, rawOffsets: false, checkStepCounts: false, facts: false, context, ...(options.cas ? { cas: options.cas } : {}) });
    await analyzer.addRecords(batch.records);
    const analysis = await analyzer.finish();
    for (const r of eachRollout(analysis)) {
      const at = byLine.get(r.line);
      const step = at?.step ?? fallback;
      let builder = steps.get(step);
      if (!builder) steps.set(step, (builder = new StepHealthBuilder(step)));
      const isCorrect = r.outcome.kind === 'correct' ? true : r.outcome.kind === 'incorrect' ? false : null;
      builder.add({ file, line: r.line, index: r.index, step, group: r.group, prompt: r.prompt, response: r.response, responseTurns: r.responseTurns, steps: r.steps, stepScores: r.stepScores, isCorrect, extras: at ? at.extras(r.index) : { truncated: null, tokens: null } });
    }
  }
  if (problemCount > MAX_PROBLEMS) problems.push(`… and ${problemCount - MAX_PROBLEMS} more problems`);
  return { parts: [...steps.values()].map((b) => b.finish()), problems };
}
