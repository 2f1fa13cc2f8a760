/**
 * `prof-lens trend <run>... [--json | --csv]`: per training step, per run. Files are summarised in
 * worker threads (one per 128 MB left to summarise, at most one per core or `--jobs N`); in the
 * command's own thread when at most 128 MB are left (one worker would only add its start) or when a
 * model scores (the model is then the bottleneck, and one model is opened once rather than once per
 * worker); summaries are cached so a second look reads only new or changed files.
 */
import { availableParallelism } from 'node:os';
import { trendCsv, trendJson } from '../../core/run/trendOutput';
import { createScorerChain } from '../../scoring/scorers/chain';
import { defaultCacheDir } from '../../scoring/scorers/cache/identity';
import { summariseRuns, type FileSummariser, type RunProgress } from '../../scoring/run/runFiles';
import { RunPathError } from '../../scoring/run/runLayoutFiles';
import { codeIdentity, createSummaryCache, summaryIdentity } from '../../scoring/run/summaryCache';
import { SummaryPool } from '../../scoring/run/summaryPool';
import { bundledWorkerPath } from '../../scoring/cas/casClient';
import { summariseFile } from '../../scoring/run/summariseFile';
import { jobsOption, parseArgs, UsageError, type ParsedArgs } from '../args';
import { EXIT_OK, EXIT_UNREADABLE_LINES, type CliIo } from '../io';
import { withScorer, type ScoringChoice } from '../scorerOptions';
import { tieWarningText } from '../../core/presentation/tieWords';
import { renderTrend } from '../run/runTable';
import { ruleLine } from '../../core/rules/ruleWords';
import { terminalJson, terminalText } from '../terminalText';

function jobsOf(args: ParsedArgs): number {
  return jobsOption(args) ?? availableParallelism();
}

/** A terminal line with files, megabytes and the time left; silent when stderr is not a terminal. */
function progressLine(io: CliIo): { update: (p: RunProgress) => void; end: () => void } {
  if (!io.isStderrTty) return { update: () => undefined, end: () => undefined };
  const started = performance.now();
  let shown = false;
  let last = 0;
  return {
    update(p) {
      const now = performance.now();
      if (now - last < 250 && p.filesDone < p.filesTotal) return;
      last = now;
      shown = true;
      const elapsed = (now - started) / 1000;
      const eta = p.bytesDone > 0 && elapsed > 1 ? ` · about ${Math.ceil((elapsed * (p.bytesTotal - p.bytesDone)) / p.bytesDone)} s left` : '';
      const mb = (b: number): string => (b / 1048576).toFixed(0);
      io.stderr(`\rtrend: ${p.filesDone}/${p.filesTotal} files${p.cached ? ` (${p.cached} cached)` : ''} · ${mb(p.bytesDone)}/${mb(p.bytesTotal)} MB${eta}   `);
    },
    end: () => shown && io.stderr('\n'),
  };
}

/**
 * Summarising worth a worker of its own. Each worker costs a thread's start and its own JIT
 * warm-up: on two cores, five new 5 MB files of a run were summarised sooner by one worker than by
 * two (0.31 against 0.38 s), 100 MB about as soon, 200 MB sooner by two. What one worker would do
 * is done in the command's own thread, whose code is loaded and warm: a worker began reading a
 * 50 MB file 130 ms after it was asked, the command's thread 55 ms after its start.
 */
const BYTES_PER_WORKER = 128 * 1024 * 1024;

interface Plan {
  summarise: FileSummariser;
  parallelism: number;
  /** What the summaries depend on of the scorer; null when that is not known (they are then not cached). */
  scorer: unknown;
  code: string;
  /** Files found to need summarising so far (the workers start as the first ones are found). */
  onToDo?: (count: number) => void;
  /** Every file has been handed out (workers left without one stop meanwhile). */
  onAllHandedOut?: () => void;
  /** What is left to summarise once the cache has been consulted. */
  onLooked?: (todo: { files: number; bytes: number }) => void;
  dispose: () => Promise<void>;
}

/** Workers for the file scores and the checker; in-process with a model scorer. */
async function planFor(args: ParsedArgs, scoring: ScoringChoice, io: CliIo): Promise<Plan> {
  const settings = args.settings;
  const { modelScorer } = scoring;
  if (modelScorer) {
    return {
      summarise: (file, options) => summariseFile(file, { settings, scorer: scoring.scorer, modelScorer, ...options }),
      parallelism: 2,
      // The model's own identity (content hash, served identity) when its scores are cached; without one, no summary is cached.
      scorer: modelScorer.modelIdentity === undefined ? null : { choice: scoring.scorer, model: modelScorer.modelIdentity },
      code: await codeIdentity(__filename),
      dispose: () => Promise.resolve(),
    };
  }
  const workerPath = bundledWorkerPath('runWorker.js');
  const pool = new SummaryPool(workerPath, jobsOf(args));
  const choice = scoring.scorer;
  // Decided once the cache has been read, before any file is handed out.
  let isHere = false;
  return {
    summarise: (file, options) => isHere
      ? summariseFile(file, { settings, scorer: choice, ...(io.cas ? { cas: io.cas } : {}), ...options })
      : pool.summarise({ file, settings, scorer: choice, model: null }, options),
    parallelism: pool.lanes,
    scorer: { choice },
    code: await codeIdentity(workerPath),
    // No worker starts for a run the cache knows whole, nor for one with little left to summarise;
    // otherwise one per 128 MB left, once the cache has been read.
    onLooked: (todo) => {
      if (todo.files === 0) return;
      const workers = Math.max(1, Math.min(pool.size, todo.files, Math.ceil(todo.bytes / BYTES_PER_WORKER)));
      if (workers === 1) return void (isHere = true);
      pool.limit(workers);
      pool.warm(workers);
    },
    onAllHandedOut: () => pool.finishWhenIdle(),
    dispose: () => pool.dispose(),
  };
}

export async function trendCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv);
  const paths = args.positionals;
  if (paths.length === 0) throw new UsageError('trend needs a run: prof-lens trend <run folder or file>... [--json | --csv]');
  if (args.flags.has('--json') && args.flags.has('--csv')) throw new UsageError('give --json or --csv, not both');
  const cacheDir = args.flags.has('--no-cache') ? null : (args.values.get('--cache-dir') ?? defaultCacheDir());
  return withScorer(args, io, async (scoring) => {
    const plan = await planFor(args, scoring, io);
    const progress = progressLine(io);
    try {
      // A command waits for its files and cache entries anyway: they are looked up and stored with blocking calls.
      const identity = plan.scorer === null ? null : summaryIdentity({ settings: args.settings, scorer: plan.scorer, code: plan.code });
      const damaged: string[] = [];
      const onDamaged = (entry: string, file: string): void => void damaged.push(`prof-lens trend: the cache entry ${entry} (for ${file}) is damaged: ignored, the file was summarised again\n`);
      const cache = cacheDir === null || identity === null ? null : createSummaryCache(cacheDir, identity, { blocking: true, onDamaged });
      const split = args.flags.has('--validation') ? 'validation' as const : 'train' as const;
      const options = { summarise: plan.summarise, parallelism: plan.parallelism, cache, onProgress: progress.update, fields: args.settings.fields, blocking: true, split };
      const { onToDo, onLooked, onAllHandedOut } = plan;
      const hooks = { ...(onToDo ? { onToDo } : {}), ...(onLooked ? { onLooked } : {}), ...(onAllHandedOut ? { onAllHandedOut } : {}) };
      const result = await summariseRuns(paths, { ...options, ...hooks }).catch((error: unknown) => {
        throw error instanceof RunPathError ? new UsageError(error.message) : error;
      });
      progress.end();
      const scorer = createScorerChain(scoring.scorer, scoring.modelScorer).info;
      if (args.flags.has('--json')) io.stdout(terminalJson(JSON.stringify(trendJson(result.runs, scorer, args.settings))) + '\n');
      else if (args.flags.has('--csv')) io.stdout(terminalText(trendCsv(result.runs)));
      else io.stdout(terminalText(renderTrend(result.runs, scorer.label, ruleLine(args.settings))));
      for (const message of damaged) io.stderr(message);
      for (const run of result.runs) {
        const ties = run.steps.reduce((n, st) => n + (st.byReason['dropped-tie'] ?? 0), 0);
        const ranked = run.steps.reduce((n, st) => n + st.rollouts - st.notRanked, 0);
        const line = tieWarningText(scorer.label, ties, ranked);
        if (line !== null) io.stderr(`${run.path}: ${line}\n`);
      }
      for (const message of result.modelErrors) io.stderr(`prof-lens trend: ${message} The checker scored instead.\n`);
      const problems = result.runs.flatMap((r) => r.problems);
      for (const p of problems) io.stderr(`${p.file}: ${p.message}\n`);
      return problems.length > 0 ? EXIT_UNREADABLE_LINES : EXIT_OK;
    } finally {
      await plan.dispose();
    }
  });
}
