/**
 * Analysing one side of a comparison, as `report` analyses a file (streamed, texts not kept, the
 * same settings and scorer chain), and reducing it to its prompts. A step of a run reads only the
 * records of that step: a record's `step`/`global_step`, else the step in its file's name.
 */
import type { Diagnostic } from '../../core/model';
import type { FileAnalysis } from '../../core/report/fileAnalysis';
import type { ProfSettings } from '../../core/profSettings';
import type { ScorerChoice } from '../../core/scorerChoice';
import { stepOfRecord } from '../../core/run/trainingStep';
import { summariseForCompare, type CompareSide } from '../../core/compare/compareSide';
import { buildExplorerTable } from '../../core/explore/explorerTable';
import { Analyzer } from '../analysis/analyse';
import { analysePath } from '../analysis/analysePath';
import { fileBatches } from '../run/fileBatches';
import type { Scorer } from '../scorers/scorer';
import { CompareSourceError, type CompareSource } from './compareSource';
import type { CasService } from '../../core/cas/casService';

export interface SideOptions {
  settings: Partial<ProfSettings>;
  scorer: ScorerChoice;
  modelScorer?: Scorer;
  signal?: AbortSignal;
  /** Where the algebra runs (the caller's CAS worker). */
  cas?: CasService;
  /** Keep each prompt's rollout ids (for a side-by-side view). */
  withRows?: boolean;
}

/** A problem met while reading a side, named by where it is. */
export interface SideProblem {
  /** The file (or, for a step read from several files, the side). */
  where: string;
  line: number;
  severity: Diagnostic['severity'];
  message: string;
}

/** A side analysed: its prompts, the scorer that scored it, and its first problems. */
export interface AnalysedSide {
  side: CompareSide;
  scorerLabel: string;
  problems: SideProblem[];
  /** Problems beyond those listed. */
  moreProblems: number;
}

/** Problems listed per side; the rest are counted. */
const LISTED_PROBLEMS = 20;

/** Analyses a side and reduces it to its prompts. */
export async function analyseSide(source: CompareSource, options: SideOptions): Promise<AnalysedSide> {
  const common = { settings: options.settings, scorer: options.scorer, ...(options.modelScorer ? { modelScorer: options.modelScorer } : {}), ...(options.signal ? { signal: options.signal } : {}) };
  const analysis = source.step === null && source.files.length === 1
    ? (await analysePath(source.files[0]!, { ...common, keepText: false, rawOffsets: false })).analysis
    : await analyseStep(source, common);
  const where = source.files.length === 1 ? source.files[0]! : source.label;
  const serious = analysis.diagnostics.filter((d) => d.severity !== 'info');
  return {
    side: summariseForCompare(buildExplorerTable(analysis), analysis.report.unreadableLines, { withRows: options.withRows === true }),
    scorerLabel: analysis.scorer.label,
    problems: serious.slice(0, LISTED_PROBLEMS).map((d) => ({ where, line: d.line, severity: d.severity, message: d.message })),
    moreProblems: Math.max(0, serious.length - LISTED_PROBLEMS),
  };
}

/** The records of one step, from every file of the side. */
async function analyseStep(source: CompareSource, options: Omit<SideOptions, 'withRows'>): Promise<FileAnalysis> {
  const analyzer = new Analyzer({ fileName: source.label, ...options, keepText: false, rawOffsets: false });
  const seen = new Set<number>();
  for (const [i, file] of source.files.entries()) {
    const fallback = source.fileSteps[i] ?? null;
    for await (const batch of fileBatches(file)) {
      options.signal?.throwIfAborted();
      analyzer.addDiagnostics(batch.diagnostics);
      const records = batch.records.filter((record) => {
        const step = stepOfRecord(record.value) ?? fallback;
        if (step !== null) seen.add(step);
        return source.step === null || step === source.step;
      });
      if (records.length > 0) await analyzer.addRecords(records);
    }
  }
  const analysis = await analyzer.finish();
  if (analysis.report.rollouts === 0 && source.step !== null && analysis.report.unreadableLines === 0) {
    const steps = [...seen].sort((a, b) => a - b);
    const named = steps.length === 0 ? 'its records name no step' : `steps its records name: ${steps.slice(0, 12).join(', ')}${steps.length > 12 ? ', …' : ''}`;
    throw new CompareSourceError(`${source.label}: no rollout of step ${source.step} (${named})`);
  }
  return analysis;
}
