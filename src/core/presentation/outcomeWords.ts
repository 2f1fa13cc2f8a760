/**
 * Outcomes in symbols and words: ✓ correct, ✗ incorrect, ? unknown, ~ not binary; where the
 * final answer came from; the one-line outcome a hover or the Rollout View shows.
 */
import type { AnswerSource, Outcome, OutcomeKind } from '../model';
import { clip } from './numbers';
import { capText } from './capText';

const OUTCOMES: Readonly<Record<OutcomeKind, { symbol: string; word: string }>> = {
  correct: { symbol: '✓', word: 'correct' },
  incorrect: { symbol: '✗', word: 'incorrect' },
  unknown: { symbol: '?', word: 'outcome unknown' },
  'non-binary': { symbol: '~', word: 'reward not binary' },
};

/** ✓ / ✗ / ? / ~ and its accessible word. */
export function outcomeLabel(kind: OutcomeKind): { symbol: string; word: string } {
  return OUTCOMES[kind];
}

/** ✓ / ✗ / ? / ~ alone. */
export function outcomeSymbol(kind: OutcomeKind): string {
  return OUTCOMES[kind].symbol;
}

const ANSWER_SOURCES: Readonly<Record<AnswerSource, string>> = {
  pred: "answer from the file's pred",
  boxed: 'answer from the last \\boxed{}',
  'answer-heading': 'answer from # Answer',
  'the-answer-is': 'answer from "the answer is"',
  'a-colon': 'answer from A: / ####',
  'program-output': 'answer from the last program output',
  'last-number': 'answer: the last number of the response',
  'answer-tags': 'answer from the last <answer> tags',
  'verl-gsm8k': "answer by verl's GSM8K rule: the last `#### N` in the last 300 characters, compared as written",
};

/** Where the final answer was taken from, in words. */
export function answerSourceText(source: AnswerSource): string {
  return ANSWER_SOURCES[source];
}

/**
 * `✓ correct · extracted 18 vs gold 18 (graded; answer from the file's pred)`. With no gold in the
 * file, the outcome is the trainer's own reward, and the line says so instead of "vs gold —":
 * `✓ correct · from the trainer's reward accuracy_reward = 1 (no gold answer in the file) · answer 18`.
 */
export function outcomeLine(outcome: Outcome, gold: string | null, field: string | null = null): string {
  const answer = outcome.answerFrom ? answerSourceText(outcome.answerFrom) : null;
  // The field's name is the file's (a TRL reward column) or the user's path: shown clipped.
  field = field === null ? null : capText(field, 80);
  if (gold === null && outcome.source === 'file') {
    const value = outcome.value === undefined || outcome.value === null ? '' : ` = ${String(outcome.value)}`;
    const extracted = outcome.extracted ? ` · answer ${clip(outcome.extracted, 60)}${answer ? ` (${answer})` : ''}` : '';
    return `${outcomeSymbol(outcome.kind)} ${outcome.kind} · from the trainer's reward${field ? ` ${field}` : ''}${value} (no gold answer in the file)${extracted}`;
  }
  const notes = [outcome.source === 'none' ? null : outcome.source === 'file' && field ? `file: ${field}` : outcome.source, answer].filter((n) => n !== null);
  const how = notes.length ? ` (${notes.join('; ')})` : '';
  return `${outcomeSymbol(outcome.kind)} ${outcome.kind} · extracted ${clip(outcome.extracted, 60)} vs gold ${clip(gold, 60)}${how}`;
}

/** The agreement of grading against the gold with the outcomes a file states. */
export interface GradingAgreementFacts {
  graded: number;
  /** How many could have been graded (the check grades the file's first ones). */
  of?: number;
  agrees: number;
  disagreeing: readonly { line: number; index: number }[];
}

/**
 * `graded 1,024 answers against the gold: agrees with the file's outcome on 1,000 (97.7%); differs
 * first at line 12, line 40 (response 3 of its line)`: what a user checks before trusting the grading
 * of files that state no outcome.
 */
export function gradingAgreementText(a: GradingAgreementFacts): string {
  const share = a.graded === 0 ? '' : ` (${((100 * a.agrees) / a.graded).toFixed(1)}%)`;
  const sample = a.of !== undefined && a.of > a.graded ? ` (the file's first, of ${a.of.toLocaleString('en-US')})` : '';
  const head = `graded ${a.graded.toLocaleString('en-US')} answer${a.graded === 1 ? '' : 's'}${sample} against the gold: agrees with the file's outcome on ${a.agrees.toLocaleString('en-US')}${share}`;
  if (a.disagreeing.length === 0) return head;
  const where = a.disagreeing.map((d) => (d.index > 0 ? `line ${d.line} (response ${d.index + 1})` : `line ${d.line}`));
  return `${head}; differs first at ${where.join(', ')}`;
}
