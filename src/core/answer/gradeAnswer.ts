/**
 * Answer-equivalence grading: is a predicted answer the gold answer? Cheap string and number
 * checks run first; the algebra system only sees what they cannot decide. The policy where
 * graders disagree is written down in docs/answer-policy.md.
 */
import type { ComputeEngine, Expression } from '@cortex-js/compute-engine';
import { loadCas } from '../cas/casEngine';
import type { CasAnswer } from '../cas/casService';
import { casLeaves, casParser } from './casCompare';
import { compareNodes, FAST_LEAVES, type LeafComparer, type Tri } from './answerEquality';
import { normalizeAnswer } from './normalize';
import { parseNumber, numbersEqual } from './numeric';
import { answerText, extractChoice, isProse, MAX_ANSWER_CHARS, repairEscapes, tailOf } from './prepareAnswer';
import { nestingDepth, MAX_ANSWER_DEPTH, parseAnswer, type AnswerNode } from './structure';

/** A grading result; `equal: null` means undecided (the answer could not be read or compared). */
export interface Verdict {
  equal: boolean | null;
  /**
   * How it was decided: `normalized` (strings or plain numbers), `cas` (algebra system),
   * `no-answer` (nothing answer-like in the prediction), `no-gold`, `undecided`.
   */
  method: string;
}

/** A grader with the algebra system loaded; `grade` is synchronous. */
export interface AnswerGrader {
  grade(pred: string, gold: string): Verdict;
  /** Number of (pred, gold) verdicts held in the cache. */
  cacheSize(): number;
}

/** Grader settings. */
export interface AnswerGraderOptions {
  /** Cache verdicts by (pred, gold), and parsed answers by text (default true). */
  cache?: boolean;
  /** Most verdicts kept; the oldest are dropped first (default 200,000). */
  cacheLimit?: number;
}

/** A prepared answer: its normalised text and its shape. */
export interface Prepared {
  text: string;
  node: AnswerNode;
  isPercent: boolean;
}

/** Normalises and parses an answer already taken out of its text. */
export function prepareAnswer(answer: string): Prepared | null {
  if (answer.length > MAX_ANSWER_CHARS || nestingDepth(answer) > MAX_ANSWER_DEPTH) return null;
  const { text, isPercent } = normalizeAnswer(answer);
  if (text === '') return null;
  return { text, node: parseAnswer(text), isPercent };
}

/** Reads the answer in `raw` (extracting it from a solution when needed) and parses it. */
export function prepare(raw: string): Prepared | null {
  const answer = answerText(raw);
  return answer === null ? null : prepareAnswer(answer);
}

/**
 * The answer a prediction gives. When the gold is a choice letter, a prose prediction is read
 * for the letter it picks ("Because B is valid").
 */
export function predictedAnswer(pred: string, gold: Prepared): string | null {
  if (/^[A-Z]$/.test(gold.text) && isProse(tailOf(repairEscapes(pred)))) {
    const letter = extractChoice(tailOf(repairEscapes(pred)));
    if (letter !== null) return letter;
  }
  return answerText(pred);
}

export function decide(pred: Prepared, gold: Prepared, leaves: LeafComparer): Tri {
  if (pred.text === gold.text) return true;
  const direct = compareNodes(pred.node, gold.node, leaves);
  if (direct !== false || pred.isPercent === gold.isPercent) return direct;
  return percentScaled(pred, gold);
}

/** `10\%` against `0.1`: a percentage also matches its value divided by 100. */
function percentScaled(pred: Prepared, gold: Prepared): Tri {
  const [percent, plain] = pred.isPercent ? [pred, gold] : [gold, pred];
  const p = parseNumber(percent.text);
  const q = parseNumber(plain.text);
  if (p === null || q === null) return false;
  return numbersEqual({ num: p.num, den: p.den * 100, decimals: null }, q);
}

function verdictOf(result: Tri, method: string): Verdict {
  return result === null ? { equal: null, method: 'undecided' } : { equal: result, method };
}

/**
 * Grades without the algebra system: normalised strings, plain numbers, shapes (sets, tuples,
 * intervals). Returns null when the answer needs algebra to decide.
 */
export function gradeFast(pred: string, gold: string): Verdict | null {
  const g = prepare(gold);
  if (g === null) return { equal: null, method: 'no-gold' };
  const answer = predictedAnswer(pred, g);
  const p = answer === null ? null : prepareAnswer(answer);
  if (p === null) return { equal: false, method: 'no-answer' };
  const result = decide(p, g, FAST_LEAVES);
  return result === null ? null : { equal: result, method: 'normalized' };
}

/**
 * Decides two normalised answers on an engine that is already loaded (the CAS worker's side of
 * the bounded grader). `leaves` caches parsed expressions across calls.
 */
export function decideOnEngine(leaves: LeafComparer, pred: CasAnswer, gold: CasAnswer): Tri {
  const p: Prepared = { ...pred, node: parseAnswer(pred.text) };
  const g: Prepared = { ...gold, node: parseAnswer(gold.text) };
  return guarded(() => decide(p, g, leaves));
}

/** Loads the algebra system (once per process) and returns a grader. */
export async function loadAnswerGrader(options: AnswerGraderOptions = {}): Promise<AnswerGrader> {
  return createAnswerGrader(await loadCas(), options);
}

/**
 * A grader on an engine that is already loaded. Verdicts are cached by (answer given, gold), so a
 * long response costs one extraction, and the many rollouts that reach the same answer for a
 * prompt cost one comparison.
 */
export function createAnswerGrader(ce: ComputeEngine, options: AnswerGraderOptions = {}): AnswerGrader {
  const caching = options.cache ?? true;
  const limit = options.cacheLimit ?? 200_000;
  const verdicts = new BoundedCache<Verdict>(caching ? limit : 0);
  const golds = new BoundedCache<Prepared | null>(caching ? limit : 0);
  const answers = new BoundedCache<Prepared | null>(caching ? limit : 0);
  const leaves = casLeaves(ce, casParser(ce, caching ? new Map<string, Expression | null>() : undefined));
  const grade = (pred: string, gold: string): Verdict => {
    const g = golds.get(gold, () => prepare(gold));
    if (g === null) return { equal: null, method: 'no-gold' };
    const answer = predictedAnswer(pred, g);
    if (answer === null) return { equal: false, method: 'no-answer' };
    return verdicts.get(`${answer}\u0000${gold}`, () => {
      const p = answers.get(answer, () => prepareAnswer(answer));
      if (p === null) return { equal: false, method: 'no-answer' };
      const fast = decide(p, g, FAST_LEAVES);
      if (fast !== null) return { equal: fast, method: 'normalized' };
      return verdictOf(guarded(() => decide(p, g, leaves)), 'cas');
    });
  };
  return {
    grade: (pred, gold) => guardedVerdict(() => grade(pred, gold)),
    cacheSize: () => verdicts.size(),
  };
}

/** A Map that forgets its oldest entries past `limit` (0: remembers nothing). */
class BoundedCache<T> {
  private readonly entries = new Map<string, T>();

  constructor(private readonly limit: number) {}

  get(key: string, compute: () => T): T {
    if (this.entries.has(key)) return this.entries.get(key) as T;
    const value = compute();
    if (this.limit === 0) return value;
    if (this.entries.size >= this.limit) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    this.entries.set(key, value);
    return value;
  }

  size(): number {
    return this.entries.size;
  }
}

function guarded(f: () => Tri): Tri {
  try {
    return f();
  } catch {
    return null;
  }
}

function guardedVerdict(f: () => Verdict): Verdict {
  try {
    return f();
  } catch {
    return { equal: null, method: 'undecided' };
  }
}
