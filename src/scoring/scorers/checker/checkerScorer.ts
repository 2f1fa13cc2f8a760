/**
 * The embedded `checker` scorer: no model, just the step's own arithmetic. It has two levels and
 * says only what it found: a step with a false claim scores low; every other step gets one and the
 * same score, whether it held arithmetic that was verified or nothing to check. "More arithmetic"
 * is not "more trustworthy": ranking verified steps above prose would drop correct solutions for
 * writing fewer calculations. What was verified is a note on the step (`checked: 4 × 12 = 48`).
 */
import { shorten } from '../../../core/cas/casLimits';
import type { CasService } from '../../../core/cas/casService';
import type { NotDecided, StepScoring } from '../../../core/model';
import { holdCas } from '../../cas/casClient';
import type { ScoreItem, ScoreOptions, Scorer } from '../scorer';
import { casLatex, judgeFromValues } from './casCheck';
import { judgeStep, stepOutcome, type JudgedClaim, type StepScores } from './stepCheck';
import type { CheckerPool } from './checkerPool';
import type { JudgedItem } from '../../../protocol/checker';

/** Settings of the checker scorer. */
export interface CheckerOptions {
  /** Score of a step with at least one false claim (default 0.05). */
  falseScore?: number;
  /** Score of every other step, checked or not (default 0.9). */
  passScore?: number;
  /**
   * Whether to load the CAS for claims exact arithmetic cannot settle (surds, π, binomials).
   * Default true; without it those claims are left unchecked.
   */
  useCas?: boolean;
  /** Where the CAS runs (the caller's CAS worker); without one, the checker starts its own on first need and stops it on dispose. */
  cas?: CasService;
  /** Worker threads that judge the steps (default: judged here, in this thread). */
  pool?: CheckerPool;
}

/** Default scores: low for a false claim, one score above the usual threshold (0.5) for the rest. */
export const CHECKER_DEFAULTS: Readonly<StepScores> = { falseClaim: 0.05, pass: 0.9 };

/** Create the checker scorer. */
export function createCheckerScorer(options: CheckerOptions = {}): Scorer {
  const scores: StepScores = {
    falseClaim: options.falseScore ?? CHECKER_DEFAULTS.falseClaim,
    pass: options.passScore ?? CHECKER_DEFAULTS.pass,
  };
  // Without a CAS passed in, the checker starts its own on the first claim that needs it.
  const held = (options.useCas ?? true) ? holdCas(options.cas) : null;
  return {
    info: { kind: 'checker', label: 'checker' },
    score: (items, scoreOptions) => {
      const run = { scores, cas: held?.cas ?? null, ...scoreOptions };
      return options.pool ? scoreInPool(items, run, options.pool) : scoreItems(items, run);
    },
    dispose: () => held?.release() ?? Promise.resolve(),
  };
}

interface Run extends ScoreOptions {
  scores: StepScores;
  cas: CasService | null;
}

/** Items judged per CAS request: one round trip to the worker for all their claims. */
const CHUNK = 64;

async function scoreItems(items: readonly ScoreItem[], run: Run): Promise<StepScoring[]> {
  const results: StepScoring[] = [];
  for (let start = 0; start < items.length; start += CHUNK) {
    run.signal?.throwIfAborted();
    const chunk = items.slice(start, start + CHUNK);
    const judged = chunk.map((item) => item.steps.map(judgeStep));
    const notDecided = run.cas ? await resolveWithCas(run.cas, judged, run.signal) : judged.map(() => []);
    judged.forEach((steps, k) => {
      const outcomes = steps.map((claims) => stepOutcome(claims, run.scores));
      const undecided = notDecided[k] ?? [];
      results.push({
        kind: 'scored',
        scores: outcomes.map((o) => o.score),
        notes: outcomes.map((o) => o.note),
        scorer: 'checker',
        ...(undecided.length > 0 ? { notDecided: undecided } : {}),
      });
      run.onProgress?.(results.length, items.length);
    });
  }
  return results;
}

/**
 * A request's steps travel as one string: kept under V8's largest ordinary object (128 KiB), which
 * is made in memory of its own, fresh from the system, every time. On this project's 2-core
 * machine, joining requests of 64 rollouts of a 50 MB dump (about 220 KB each) took 180 ms where
 * requests half that size took 17 ms.
 */
const MAX_REQUEST_CHARS = 48 * 1024;

/** Chunks of at most `CHUNK` items whose steps hold at most `MAX_REQUEST_CHARS` together (an item longer alone is a chunk alone). */
function requestChunks(items: readonly ScoreItem[]): (readonly ScoreItem[])[] {
  const chunks: (readonly ScoreItem[])[] = [];
  let start = 0;
  let chars = 0;
  for (let i = 0; i < items.length; i++) {
    let length = 0;
    for (const step of (items[i] as ScoreItem).steps) length += step.length;
    if (i > start && (i - start === CHUNK || chars + length > MAX_REQUEST_CHARS)) {
      chunks.push(items.slice(start, i));
      start = i;
      chars = 0;
    }
    chars += length;
  }
  if (start < items.length) chunks.push(items.slice(start));
  return chunks;
}

/**
 * The same scoring with the steps judged in worker threads: every chunk goes to the pool at once,
 * and the chunks are finished in order here, where the CAS decides the steps a worker named (judged
 * again here, the same way) with one request per chunk, as above.
 */
async function scoreInPool(items: readonly ScoreItem[], run: Run, pool: CheckerPool): Promise<StepScoring[]> {
  run.signal?.throwIfAborted();
  const chunks = requestChunks(items);
  const replies = chunks.map((chunk) => pool.judge(chunk.map((item) => item.steps), run.scores, run.signal).catch((error: unknown) => {
    if (run.signal?.aborted) throw error;
    throw new CheckerWorkerError(chunk[0]?.line ?? null, `the checker's worker failed on the rollouts of ${lineSpan(chunk)}: ${error instanceof Error ? error.message : String(error)}`);
  }));
  // Every chunk settles before this returns, so no rejection is left unheard.
  const settled = Promise.allSettled(replies);
  const results: StepScoring[] = [];
  try {
    for (let k = 0; k < chunks.length; k++) {
      const chunk = chunks[k] as readonly ScoreItem[];
      const judgedItems = await (replies[k] as Promise<JudgedItem[]>);
      run.signal?.throwIfAborted();
      const notDecided = run.cas ? await decideCasSteps(run, chunk, judgedItems) : chunk.map(() => []);
      judgedItems.forEach((item, i) => {
        const undecided = notDecided[i] ?? [];
        results.push({ kind: 'scored', scores: item.scores, notes: item.notes, scorer: 'checker', ...(undecided.length > 0 ? { notDecided: undecided } : {}) });
        run.onProgress?.(results.length, items.length);
      });
    }
  } finally {
    await settled;
  }
  return results;
}

/** The steps a worker named, judged again here and decided with the CAS; their scores and notes replace the worker's. */
async function decideCasSteps(run: Run, chunk: readonly ScoreItem[], judgedItems: readonly JudgedItem[]): Promise<NotDecided[][]> {
  if (judgedItems.every((item) => item.casSteps.length === 0)) return chunk.map(() => []);
  const judged: JudgedClaim[][][] = judgedItems.map((item, i) => {
    const steps: JudgedClaim[][] = item.scores.map(() => []);
    for (const s of item.casSteps) steps[s] = judgeStep(chunk[i]?.steps[s] ?? '');
    return steps;
  });
  const notDecided = await resolveWithCas(run.cas as CasService, judged, run.signal);
  judgedItems.forEach((item, i) => {
    for (const s of item.casSteps) {
      const outcome = stepOutcome(judged[i]?.[s] ?? [], run.scores);
      item.scores[s] = outcome.score;
      item.notes[s] = outcome.note;
    }
  });
  return notDecided;
}

function lineSpan(chunk: readonly ScoreItem[]): string {
  const first = chunk[0]?.line;
  const last = chunk[chunk.length - 1]?.line;
  return first === last ? `line ${first}` : `lines ${first}–${last}`;
}

/** A checker worker failed on a chunk of rollouts; `line` is the first one's (the analysis names its file). */
export class CheckerWorkerError extends Error {
  override readonly name = 'CheckerWorkerError';

  constructor(readonly line: number | null, message: string) {
    super(message);
  }
}

/**
 * Sends every claim the exact evaluator left to the CAS (each distinct side once) and decides them
 * from the values. Claims the CAS did not decide stay unchecked; they are returned per item.
 */
async function resolveWithCas(cas: CasService, judged: JudgedClaim[][][], signal?: AbortSignal): Promise<NotDecided[][]> {
  const waiting = judged.flatMap((steps, item) => steps.flatMap((claims, step) =>
    claims.filter((j) => j.verdict.status === 'needs-cas' && j.claim.latex).map((j) => ({ j, item, step }))));
  const notDecided: NotDecided[][] = judged.map(() => []);
  if (waiting.length === 0) return notDecided;
  const sides = [...new Set(waiting.flatMap(({ j }) => [casLatex(j.claim.latex!.lhs), casLatex(j.claim.latex!.rhs)]))];
  const answered = await cas.run(sides.map((latex) => ({ kind: 'value', latex })), signal);
  const values = new Map(sides.map((latex, i) => [latex, answered[i]]));
  for (const { j, item, step } of waiting) {
    const lhs = values.get(casLatex(j.claim.latex!.lhs));
    const rhs = values.get(casLatex(j.claim.latex!.rhs));
    const skipped = [lhs, rhs].find((r) => r?.kind === 'not-decided');
    if (skipped?.kind === 'not-decided') {
      j.verdict = { status: 'unchecked', reason: skipped.reason };
      notDecided[item]?.push({ step, text: shorten(j.claim.text, 60), reason: skipped.reason });
      continue;
    }
    const value = (r: typeof lhs): number | null => (r?.kind === 'value' ? r.value : null);
    j.verdict = judgeFromValues(j.claim, value(lhs), value(rhs));
  }
  return notDecided;
}
