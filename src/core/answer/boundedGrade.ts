/**
 * Answer grading with the algebra system behind a service (a worker on a time budget): cheap
 * string and number checks run here, synchronously; only what they cannot decide is screened and
 * sent to the CAS, all of a batch in one request. An answer the CAS may not see or did not decide
 * in time is "not decided", and the verdict says why.
 */
import { casScreen, shorten } from '../cas/casLimits';
import type { CasService, CasTask } from '../cas/casService';
import { FAST_LEAVES } from './answerEquality';
import { answerText, MAX_ANSWER_CHARS } from './prepareAnswer';
import { decide, predictedAnswer, prepareAnswer, type Prepared, type Verdict } from './gradeAnswer';
import { nestingProblem } from './structure';

/** A verdict; `notDecided` names why the CAS did not decide it (screened out, over budget). */
export interface BoundedVerdict extends Verdict {
  notDecided?: string;
}

/** One (prediction, gold) pair. */
export interface GradePair {
  pred: string;
  gold: string;
}

/** Grades pairs in batches; verdicts are cached by (answer given, gold). */
export interface BoundedGrader {
  gradeMany(pairs: readonly GradePair[], signal?: AbortSignal): Promise<BoundedVerdict[]>;
  /** Number of verdicts held in the cache. */
  cacheSize(): number;
}

/** Most verdicts and prepared answers kept; the oldest are dropped first. */
const CACHE_LIMIT = 200_000;

/** A grader whose algebra runs in `cas`. */
export function createBoundedGrader(cas: CasService): BoundedGrader {
  const verdicts = new Map<string, BoundedVerdict>();
  const golds = new Map<string, Prepared | string | null>();
  const answers = new Map<string, Prepared | null>();

  /** The verdict without the CAS, or the task to send it (with the key its verdict is cached under). */
  const local = (pair: GradePair): BoundedVerdict | { key: string; task: CasTask } => {
    const g = remember(golds, pair.gold, () => prepareGold(pair.gold));
    if (typeof g === 'string') return notDecided(g);
    if (g === null) return { equal: null, method: 'no-gold' };
    const answer = predictedAnswer(pair.pred, g);
    if (answer === null) return { equal: false, method: 'no-answer' };
    if (answer.length > MAX_ANSWER_CHARS) {
      return notDecided(`the answer is ${answer.length.toLocaleString('en-US')} characters long (the limit is ${MAX_ANSWER_CHARS.toLocaleString('en-US')})`);
    }
    const tooDeep = nestingProblem(answer);
    if (tooDeep !== null) return notDecided(tooDeep);
    const key = `${answer}\u0000${pair.gold}`;
    const known = verdicts.get(key);
    if (known) return known;
    const p = remember(answers, answer, () => prepareAnswer(answer));
    if (p === null) return remember(verdicts, key, () => ({ equal: false, method: 'no-answer' }));
    const fast = decide(p, g, FAST_LEAVES);
    if (fast !== null) return remember(verdicts, key, () => ({ equal: fast, method: 'normalized' }));
    const screened = casScreen(p.text) ?? casScreen(g.text);
    if (screened !== null) {
      const culprit = casScreen(p.text) !== null ? p.text : g.text;
      return remember(verdicts, key, () => notDecided(`${shorten(culprit)} is ${screened}`));
    }
    return { key, task: { kind: 'equal', pred: { text: p.text, isPercent: p.isPercent }, gold: { text: g.text, isPercent: g.isPercent } } };
  };

  return {
    async gradeMany(pairs, signal) {
      const locals = pairs.map((pair) => safely(() => local(pair)));
      const tasks = new Map<string, CasTask>();
      for (const r of locals) if ('task' in r && !tasks.has(r.key)) tasks.set(r.key, r.task);
      const fresh = new Map<string, BoundedVerdict>();
      if (tasks.size > 0) {
        const answered = await cas.run([...tasks.values()], signal);
        [...tasks.keys()].forEach((key, i) => {
          const a = answered[i];
          const verdict: BoundedVerdict = a?.kind === 'equal'
            ? (a.equal === null ? { equal: null, method: 'undecided' } : { equal: a.equal, method: 'cas' })
            : notDecided(a?.kind === 'not-decided' ? a.reason : 'no answer from the algebra system');
          fresh.set(key, remember(verdicts, key, () => verdict));
        });
      }
      return locals.map((r) => ('task' in r ? (fresh.get(r.key) ?? notDecided('no answer from the algebra system')) : r));
    },
    cacheSize: () => verdicts.size,
  };
}

/** The gold prepared for comparison; null when it holds no answer, a reason when it is too deeply nested to read. */
function prepareGold(gold: string): Prepared | string | null {
  const answer = answerText(gold);
  if (answer === null) return null;
  const tooDeep = nestingProblem(answer);
  return tooDeep === null ? prepareAnswer(answer) : `the gold answer is ${tooDeep}`;
}

function notDecided(reason: string): BoundedVerdict {
  return { equal: null, method: 'not-decided', notDecided: reason };
}

function safely(f: () => BoundedVerdict | { key: string; task: CasTask }): BoundedVerdict | { key: string; task: CasTask } {
  try {
    return f();
  } catch {
    return { equal: null, method: 'undecided' };
  }
}

/** Looks up `key`, computing and storing it when absent; forgets the oldest entry past the limit. */
function remember<T>(cache: Map<string, T>, key: string, compute: () => T): T {
  if (cache.has(key)) return cache.get(key) as T;
  const value = compute();
  if (cache.size >= CACHE_LIMIT) {
    const oldest = cache.keys().next();
    if (oldest.done !== true) cache.delete(oldest.value);
  }
  cache.set(key, value);
  return value;
}
