/**
 * The words the panels show: reason codes in plain language, outcomes, numbers. Worded like the
 * editor's summaries and hovers, so a rollout reads the same in both places.
 */
import type { OutcomeKind } from '../src/core/model';


export { reasonLabel } from '../src/core/reasons';

const OUTCOMES: Record<OutcomeKind, { symbol: string; word: string }> = {
  correct: { symbol: '✓', word: 'correct' },
  incorrect: { symbol: '✗', word: 'incorrect' },
  unknown: { symbol: '?', word: 'outcome unknown' },
  'non-binary': { symbol: '~', word: 'reward not binary' },
};

/** ✓ / ✗ / ? / ~ and its accessible word. */
export function outcomeLabel(kind: OutcomeKind): { symbol: string; word: string } {
  return OUTCOMES[kind];
}

/** Two decimals, or a dash when there is no number. */
export function formatScore(value: number | null | undefined): string {
  return typeof value === 'number' && Number.isFinite(value) ? value.toFixed(2) : '—';
}

/** A share as a percentage with one decimal, or a dash. */
export function formatPercent(value: number | null | undefined): string {
  return typeof value === 'number' && Number.isFinite(value) ? `${(value * 100).toFixed(1)}%` : '—';
}

/** Which false-positive rules fired, in words. */
export function falsePositiveRulesText(rules: readonly string[]): string {
  const words: Record<string, string> = {
    'prof-dropped': 'PROF drops it',
    'weak-step': 'a step below the threshold',
    'bottom-half': 'bottom half of its correct group',
  };
  return rules.map((r) => words[r] ?? r).join(', ');
}

/** Long untrusted text shortened for a table cell (the full text stays in the title). */
export function clip(text: string | null | undefined, max: number): string {
  if (text === null || text === undefined || text === '') return '—';
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** How well a score separates classes, in words a reader can act on. */
export function aurocWords(auroc: number | null): string {
  if (auroc === null) return 'not defined: the file needs both correct and incorrect ranked rollouts';
  if (auroc >= 0.9) return 'separates correct from incorrect well';
  if (auroc >= 0.7) return 'separates them fairly';
  if (auroc > 0.55) return 'separates them weakly';
  if (auroc >= 0.45) return 'hardly separates them (0.5 is chance)';
  return 'ranks incorrect answers above correct ones';
}
