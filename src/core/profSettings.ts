/**
 * PROF and analysis settings: their defaults (docs/prof-semantics.md) and validation of values that come from
 * a command line or the editor's settings, with messages that say what was expected.
 */
import { compileSplitPattern, type SplitRule } from './steps/splitSteps';
import { previewJson } from './presentation/capText';

export type { SplitRule };

/** PROF's variants: BOTH ranks incorrect rollouts too, POS removes them at random (the one list of them). */
export const VARIANTS = ['both', 'pos'] as const;
export type Variant = (typeof VARIANTS)[number];
export type PenaltyRule = 'card' | 'reference';
export type Aggregate = 'mean' | 'min' | 'sum';
export type FalsePositiveRule = 'prof-dropped' | 'weak-step' | 'bottom-half';
export const FALSE_POSITIVE_RULES: readonly FalsePositiveRule[] = ['prof-dropped', 'weak-step', 'bottom-half'];

/** Field roles a user can map to a JSON path with `--field role=path`. */
export const FIELD_ROLES = ['prompt', 'response', 'responses', 'gold', 'outcome', 'outcomes', 'group', 'stepScores', 'steps'] as const;
export type FieldRole = (typeof FIELD_ROLES)[number];

/** A curation rule by name, with the parameters given to it (by their reference names; the rest take their defaults). */
export interface RuleChoice {
  rule: string;
  params: Readonly<Record<string, number | boolean | string | null>>;
}

export interface ProfSettings {
  /** Rollouts kept per group; ignored when `remove` is set. */
  m: number;
  /** Rollouts removed per group (the reference's `prof_filter`); null to use `m`. */
  remove: number | null;
  variant: Variant;
  seed: number;
  penalty: PenaltyRule;
  lambda: number;
  /** Hλ: the step count from which a rollout is penalised (`card` rule) — 30 by default. */
  maxSteps: number;
  aggregate: Aggregate;
  /** Steps scoring below this are "low". */
  threshold: number;
  split: SplitRule;
  /** Which rules make a correct rollout a suspected false positive (any of them). */
  falsePositiveRules: FalsePositiveRule[];
  /** Field mapping: role → dotted JSON path, e.g. `response` → `extra.completion`. */
  fields: Partial<Record<FieldRole, string>>;
  /** The curation rule and its parameters (docs/curation-rules.md); absent: PROF. */
  curation?: RuleChoice;
  /** A folder holding the `tokenizer.json` that decodes token-id traces (open-instruct); absent: looked for. */
  tokenizerDir?: string;
}

export const DEFAULT_SETTINGS: Readonly<ProfSettings> = Object.freeze({
  m: 4,
  remove: null,
  variant: 'both',
  seed: 0,
  penalty: 'card',
  lambda: 10,
  maxSteps: 30,
  aggregate: 'mean',
  threshold: 0.5,
  split: 'double-newline',
  falsePositiveRules: [...FALSE_POSITIVE_RULES],
  fields: {},
});

/** Merge partial settings over the defaults. */
export function resolveSettings(partial: Partial<ProfSettings> = {}): ProfSettings {
  const merged: ProfSettings = { ...DEFAULT_SETTINGS, falsePositiveRules: [...DEFAULT_SETTINGS.falsePositiveRules], fields: {} };
  for (const [key, value] of Object.entries(partial)) {
    if (value !== undefined) (merged as unknown as Record<string, unknown>)[key] = value;
  }
  return merged;
}

/**
 * A value as the user gave it, quoted and escaped (`"neg"`, `"a\nb"`), at most 80 characters:
 * messages name the value without pasting raw text into a terminal or a notification.
 */
export function quoteValue(value: unknown): string {
  // Walked without recursion and cut while walking: a value from a file may nest 100,000 deep or hold megabytes.
  if (value !== null && typeof value === 'object') return previewJson(value, 79);
  const text = typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** Problems with a settings object, each naming the setting and what it expects. Empty when valid. */
export function validateSettings(s: ProfSettings): string[] {
  const problems: string[] = [];
  const got = quoteValue;
  const int = (name: string, v: number, min: number): void => {
    if (!Number.isInteger(v) || v < min) problems.push(`${name} must be an integer ≥ ${min}, got ${got(v)}`);
  };
  int('m', s.m, 0);
  if (s.remove !== null) int('remove', s.remove, 0);
  int('seed', s.seed, 0);
  int('max-steps', s.maxSteps, 1);
  if (!Number.isFinite(s.lambda) || s.lambda < 0) problems.push(`lambda must be a number ≥ 0, got ${got(s.lambda)}`);
  if (!Number.isFinite(s.threshold)) problems.push(`threshold must be a number, got ${got(s.threshold)}`);
  if (!(VARIANTS as readonly string[]).includes(s.variant)) problems.push(`variant must be ${VARIANTS.join(' or ')}, got ${got(s.variant)}`);
  if (!['card', 'reference'].includes(s.penalty)) problems.push(`penalty must be card or reference, got ${got(s.penalty)}`);
  if (!['mean', 'min', 'sum'].includes(s.aggregate)) problems.push(`aggregate must be mean, min or sum, got ${got(s.aggregate)}`);
  const splitProblem = checkSplitRule(s.split);
  if (splitProblem) problems.push(splitProblem);
  for (const rule of s.falsePositiveRules) {
    if (!FALSE_POSITIVE_RULES.includes(rule)) problems.push(`unknown false-positive rule ${got(rule)} (expected ${FALSE_POSITIVE_RULES.join(', ')})`);
  }
  for (const role of Object.keys(s.fields)) {
    if (!(FIELD_ROLES as readonly string[]).includes(role)) problems.push(`unknown field role ${got(role)} (expected one of ${FIELD_ROLES.join(', ')})`);
  }
  return problems;
}

function checkSplitRule(rule: string): string | null {
  if (['double-newline', 'newline', 'step-markers', 'ki'].includes(rule)) return null;
  if (rule.startsWith('regex:')) {
    const compiled = compileSplitPattern(rule.slice(6));
    if (!(compiled instanceof Error)) return null;
    return `the split pattern ${quoteValue(rule.slice(6))} cannot be used: ${compiled.message} (patterns run on RE2, a linear-time engine without backreferences or lookaround)`;
  }
  return `split must be double-newline, newline, step-markers, ki or regex:<pattern>, got ${quoteValue(rule)}`;
}
