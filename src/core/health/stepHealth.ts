/**
 * One training step's health in figures: each rollout's signals are reduced as it is read (no text
 * is kept beyond the few examples per detector), and steps that span files merge exactly.
 */
import type { Turn } from '../transcript/turns';
import { spanOf, type DetectorId, type Finding, type HealthExample, type Sum } from './healthTypes';
import { findingsOf, type FlaggedId } from './rolloutFlags';
import type { ResponseExtras } from './tokenFields';
import { questionNamer, shortGroupName } from '../presentation/groupNames';

/** What the health audit reads of one analysed rollout. */
export interface HealthRollout {
  file: string;
  line: number;
  index: number;
  step: number;
  group: string;
  /** The question (read out of any chat template); names the group in an example. */
  prompt?: string;
  response: string;
  responseTurns: readonly Turn[] | null;
  steps: readonly { start: number; end: number }[];
  stepScores: readonly (number | null)[];
  /** True / false for a binary outcome; null otherwise. */
  isCorrect: boolean | null;
  extras: ResponseExtras;
}

/** The figures of one step (in one file, or merged over files). */
export interface StepHealth {
  step: number;
  rollouts: number;
  chars: Sum;
  /** Rollouts whose record says whether they hit the length limit, and those that did. */
  truncationKnown: number;
  truncated: number;
  flagged: Record<FlaggedId, number>;
  /** Mean step score per rollout, over rollouts with one. */
  stepScore: Sum;
  correct: number;
  incorrect: number;
  /** Groups with two or more binary outcomes, and those all correct or all incorrect. */
  groups: number;
  noSignalGroups: number;
  entropy: Sum;
  logprob: Sum;
  mismatch: Sum;
  /** The rollouts that show each detector best, strongest first. */
  examples: Partial<Record<DetectorId, HealthExample[]>>;
  /**
   * Every rollout that shows a per-rollout detector (up to `MAX_PLACES`), where the dashboard's
   * click opens the Rollout Explorer: `length` lists those cut at the length limit.
   */
  places: Partial<Record<DetectorId, RolloutPlace[]>>;
}

/** Where a rollout is: its file, 1-based line, and response index within the record. */
export interface RolloutPlace {
  file: string;
  line: number;
  index: number;
}

/** Places kept per detector per step. */
export const MAX_PLACES = 1000;

/** Add a place to a detector's list, unless it is full. */
export function keepPlace(step: StepHealth, id: DetectorId, place: RolloutPlace): void {
  const list = (step.places[id] ??= []);
  if (list.length < MAX_PLACES) list.push(place);
}

/** Examples kept per detector per step. */
export const EXAMPLES_PER_STEP = 5;

const sum = (): Sum => ({ total: 0, count: 0 });
const add = (s: Sum, v: number | null): void => {
  if (v === null || !Number.isFinite(v)) return;
  s.total += v;
  s.count++;
};

/** An empty step. */
export function emptyStep(step: number): StepHealth {
  return {
    step, rollouts: 0, chars: sum(), truncationKnown: 0, truncated: 0,
    flagged: { repetition: 0, 'format-gaming': 0, 'reward-visible': 0, garbled: 0 },
    stepScore: sum(), correct: 0, incorrect: 0, groups: 0, noSignalGroups: 0,
    entropy: sum(), logprob: sum(), mismatch: sum(), examples: {}, places: {},
  };
}

/** Keep `example` among the strongest `EXAMPLES_PER_STEP` of its detector. */
export function keepExample(step: StepHealth, id: DetectorId, example: HealthExample): void {
  const list = (step.examples[id] ??= []);
  if (list.length >= EXAMPLES_PER_STEP && list[list.length - 1]!.strength >= example.strength) return;
  let at = list.length;
  while (at > 0 && list[at - 1]!.strength < example.strength) at--;
  list.splice(at, 0, example);
  if (list.length > EXAMPLES_PER_STEP) list.pop();
}

function mean(values: readonly (number | null)[]): number | null {
  let total = 0;
  let count = 0;
  for (const v of values) if (v !== null) (total += v), count++;
  return count > 0 ? total / count : null;
}

/** Builds a step's figures rollout by rollout. */
export class StepHealthBuilder {
  readonly health: StepHealth;
  private readonly groups = new Map<string, { correct: number; incorrect: number; first: HealthRollout }>();

  constructor(step: number) {
    this.health = emptyStep(step);
  }

  add(r: HealthRollout): void {
    const h = this.health;
    h.rollouts++;
    add(h.chars, r.response.length);
    const where = { file: r.file, line: r.line, index: r.index, step: r.step };
    const example = (id: DetectorId, f: Finding): void => keepExample(h, id, { ...where, ...f });
    this.addLength(r, example);
    for (const [id, f] of findingsOf(r.response, r.responseTurns)) {
      if (!f) continue;
      h.flagged[id]++;
      example(id, f);
      keepPlace(h, id, { file: r.file, line: r.line, index: r.index });
    }
    this.addScores(r, example);
    this.addTokens(r, example);
  }

  private addLength(r: HealthRollout, example: (id: DetectorId, f: Finding) => void): void {
    const h = this.health;
    const cut = r.extras.truncated;
    if (cut !== null) h.truncationKnown++;
    if (cut) {
      h.truncated++;
      keepPlace(h, 'length', { file: r.file, line: r.line, index: r.index });
    }
    const tail = spanOf(r.response, Math.max(0, r.response.length - 120), r.response.length);
    // A response cut at the limit outranks any response that stopped on its own.
    example('length', { strength: r.response.length + (cut ? 1e12 : 0), span: tail, note: `${r.response.length} characters${cut ? ', stopped at the length limit' : ''}` });
  }

  private addScores(r: HealthRollout, example: (id: DetectorId, f: Finding) => void): void {
    const h = this.health;
    if (r.isCorrect === true) h.correct++;
    if (r.isCorrect === false) h.incorrect++;
    const score = mean(r.stepScores);
    add(h.stepScore, score);
    if (score !== null && r.isCorrect === false) {
      let best = 0;
      r.stepScores.forEach((s, i) => void (s !== null && s > (r.stepScores[best] ?? -1) && (best = i)));
      const step = r.steps[best];
      example('score-inflation', { strength: score, span: spanOf(r.response, step?.start ?? 0, step?.end ?? 0), note: `incorrect, yet its steps score ${score.toFixed(2)} on average (step ${best + 1} scores ${(r.stepScores[best] ?? 0).toFixed(2)})` });
    }
    if (r.isCorrect === null) return;
    const g = this.groups.get(r.group) ?? { correct: 0, incorrect: 0, first: r };
    if (r.isCorrect) g.correct++;
    else g.incorrect++;
    this.groups.set(r.group, g);
  }

  private addTokens(r: HealthRollout, example: (id: DetectorId, f: Finding) => void): void {
    const t = r.extras.tokens;
    if (!t) return;
    const h = this.health;
    add(h.entropy, t.entropy);
    add(h.logprob, t.logprob);
    add(h.mismatch, t.mismatch);
    const head = spanOf(r.response, 0, r.response.length, 120);
    if (t.entropy !== null) example('entropy-collapse', { strength: -t.entropy, span: head, note: `mean token entropy ${t.entropy.toFixed(3)}` });
    else if (t.logprob !== null) example('entropy-collapse', { strength: t.logprob, span: head, note: `mean token log-probability ${t.logprob.toFixed(3)}` });
    if (t.mismatch !== null) example('mismatch', { strength: t.mismatch, span: head, note: `mean train/inference log-probability gap ${t.mismatch.toFixed(3)}` });
  }

  /** The step's figures, with its groups counted and the groups without signal as examples. */
  finish(): StepHealth {
    const h = this.health;
    let name: ((question: string) => string) | null = null;
    for (const [group, g] of this.groups) {
      if (g.correct + g.incorrect < 2) continue;
      h.groups++;
      if (g.correct > 0 && g.incorrect > 0) continue;
      h.noSignalGroups++;
      const r = g.first;
      const n = g.correct + g.incorrect;
      // Named by its question, without the instruction every group of the step shares (found once).
      name ??= questionNamer([...this.groups.values()].map((other) => other.first.prompt ?? ''));
      const groupName = shortGroupName(name(r.prompt ?? ''), group.slice(0, 40), 60);
      const note = `group ${groupName}: all ${n} rollouts ${g.correct > 0 ? 'correct' : 'incorrect'}`;
      keepExample(h, 'no-signal-groups', { file: r.file, line: r.line, index: r.index, step: r.step, strength: n, span: spanOf(r.response, Math.max(0, r.response.length - 120), r.response.length), note });
    }
    return h;
  }
}
