/**
 * Every curation rule on one file's rollouts, side by side (`prof-lens rules`, the Compare Rules
 * view): per rule what it keeps and drops, the balance of what it keeps, the suspected false
 * positives it lets through (flags under the current scorer and flag rules: the same for every
 * rule), the groups it drops whole, what it could not read; and every two rules' kept overlap.
 */
import type { AnalysedRollout } from '../table/analysedRollout';
import type { GroupMember } from './groups';
import type { ProfSettings } from '../profSettings';
import { decideAll } from './decideList';
import { flawedOf } from './decide';
import { RULES } from './registry';
import type { RuleParams } from './rule';

export interface RuleFigures {
  rule: string;
  title: string;
  kept: number;
  dropped: number;
  keptCorrect: number;
  keptIncorrect: number;
  /** Kept rollouts flagged as suspected false positives. */
  falsePositivesKept: number;
  groupsDroppedWhole: number;
  /** Groups where rollouts tied and file order, not their figures, chose which was kept (`dropped-tie`). */
  groupsTieBroken: number;
  /** What the rule could not read in this file, in words; empty when nothing was missing. */
  missing: string[];
}

export interface RuleOverlap {
  a: string;
  b: string;
  both: number;
  onlyA: number;
  onlyB: number;
}

export interface RulesComparison {
  rollouts: number;
  groups: number;
  suspected: number;
  rules: RuleFigures[];
  overlaps: RuleOverlap[];
  /** Per rule, each rollout's kept bit (by position in the file), for the rollouts two rules disagree on. */
  kept: Record<string, boolean[]>;
}

/** The comparison as `prof-lens rules --json` and the Compare Rules view carry it: without the kept bits. */
export type RulesFigures = Omit<RulesComparison, 'kept'>;

export function figuresOf(c: RulesComparison): RulesFigures {
  const { kept: _kept, ...rest } = c;
  return rest;
}

/** A rollout as the rules read it. */
export function memberOf(r: AnalysedRollout, keepsText: boolean): GroupMember {
  const kind = r.outcome.kind;
  const value = r.outcome.value;
  return {
    id: r.id, group: r.group,
    correct: kind === 'correct' ? true : kind === 'incorrect' ? false : null,
    nonBinary: kind === 'non-binary',
    scores: r.isScored ? r.stepScores : null,
    signals: { reward: typeof value === 'number' || typeof value === 'boolean' ? value : null, chars: r.responseChars, flawed: flawedOf(r.rewards), text: keepsText ? r.response : null },
  };
}

/** Decides `members` under every rule (`params`: per rule, the parameters given) and compares. */
export function compareRules(members: readonly GroupMember[], settings: ProfSettings, params: Readonly<Record<string, RuleParams>> = {}, keepsText = true): RulesComparison {
  const kept: Record<string, boolean[]> = {};
  const figures: RuleFigures[] = [];
  let suspected = 0;
  const groups = new Set(members.map((m) => m.group));
  for (const rule of RULES) {
    const outcome = decideAll(members, { ...settings, curation: { rule: rule.name, params: params[rule.name] ?? {} } });
    const bits = outcome.decisions.map((d) => d.kept);
    kept[rule.name] = bits;
    const keptGroups = new Set<string>();
    const tiedGroups = new Set<string>();
    const f: RuleFigures = { rule: rule.name, title: rule.title, kept: 0, dropped: 0, keptCorrect: 0, keptIncorrect: 0, falsePositivesKept: 0, groupsDroppedWhole: 0, groupsTieBroken: 0, missing: [] };
    let noSignal = 0;
    members.forEach((m, i) => {
      const d = outcome.decisions[i]!;
      if (d.reason === 'kept-no-signal') noSignal++;
      if (d.reason === 'dropped-tie' && !d.kept) tiedGroups.add(m.group);
      if (!d.kept) return f.dropped++;
      f.kept++;
      keptGroups.add(m.group);
      if (m.correct === true) f.keptCorrect++;
      if (m.correct === false) f.keptIncorrect++;
      if (outcome.falsePositives[i]!.suspected) f.falsePositivesKept++;
    });
    if (rule.name === 'prof') suspected = outcome.falsePositives.filter((fp) => fp.suspected).length;
    f.groupsDroppedWhole = groups.size - keptGroups.size;
    f.groupsTieBroken = tiedGroups.size;
    if (noSignal > 0) f.missing.push(`${noSignal} correct rollout${noSignal === 1 ? '' : 's'} with no verdict on their steps (kept, not judged)`);
    if (rule.reads.includes('response-text') && !keepsText) f.missing.push('response text not at hand: penalties not computed, positives kept in file order');
    if (rule.reads.includes('step-scores') && rule.name === 'prof' && members.every((m) => m.scores === null)) f.missing.push('no step scores: nothing ranked');
    figures.push(f);
  }
  const overlaps: RuleOverlap[] = [];
  for (let i = 0; i < RULES.length; i++) {
    for (let j = i + 1; j < RULES.length; j++) {
      const a = kept[RULES[i]!.name]!;
      const b = kept[RULES[j]!.name]!;
      const o: RuleOverlap = { a: RULES[i]!.name, b: RULES[j]!.name, both: 0, onlyA: 0, onlyB: 0 };
      for (let k = 0; k < a.length; k++) {
        if (a[k] && b[k]) o.both++;
        else if (a[k]) o.onlyA++;
        else if (b[k]) o.onlyB++;
      }
      overlaps.push(o);
    }
  }
  return { rollouts: members.length, groups: groups.size, suspected, rules: figures, overlaps, kept };
}
