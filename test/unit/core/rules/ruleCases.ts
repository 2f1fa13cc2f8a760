// Hand-worked groups for the curation rules: members as the decider's list path takes them.
import type { Decision } from '../../../../src/core/model';
import { resolveSettings } from '../../../../src/core/profSettings';
import { decideList } from '../../../../src/core/rules/decideList';
import type { RankInput, RowSignals } from '../../../../src/core/rules/profMath';
import type { RuleParams } from '../../../../src/core/rules/rule';

/** A rollout: 'c' correct, 'i' incorrect, 'u' outcome unknown; three steps scoring 0.9 unless given. */
export function member(id: number, outcome: 'c' | 'i' | 'u', signals: RowSignals = {}, scores: (number | null)[] | null = [0.9, 0.9, 0.9]): RankInput {
  return { id, correct: outcome === 'u' ? null : outcome === 'c', scores, signals };
}

/** The group's decisions under `rule`. */
export function decide(members: readonly RankInput[], rule: string, params: RuleParams = {}): Decision[] {
  return decideList(members, resolveSettings({ curation: { rule, params } }), 'g').decisions;
}

/** The ids kept, in id order. */
export function keptIds(decisions: readonly Decision[]): number[] {
  return decisions.filter((d) => d.kept).map((d) => d.id).sort((a, b) => a - b);
}

/** `outcomes` as members with ids 0 … n − 1 ("ccii" → two correct, two incorrect). */
export function groupOf(outcomes: string, signals: (i: number) => RowSignals = () => ({})): RankInput[] {
  return [...outcomes].map((o, i) => member(i, o as 'c' | 'i' | 'u', signals(i)));
}
