// The Compare Rules view's cards and matrix cells, from figures written out here.
import { describe, expect, it } from 'vitest';
import type { RuleFigures, RulesFigures } from '../../../src/core/rules/compareRules';
import { matrixCell, pairWords, ruleCard } from '../../../webview/rules/rulesModel';

const rule = (name: string, kept: number, extra: Partial<RuleFigures> = {}): RuleFigures => ({
  rule: name, title: name.toUpperCase(), kept, dropped: 10 - kept, keptCorrect: kept, keptIncorrect: 0, falsePositivesKept: 0, groupsDroppedWhole: 0, groupsTieBroken: 0, missing: [], ...extra,
});

const figures: RulesFigures = {
  rollouts: 10, groups: 2, suspected: 0,
  rules: [rule('prof', 6, { keptCorrect: 3, keptIncorrect: 3, groupsTieBroken: 2 }), rule('grpo', 10)],
  overlaps: [{ a: 'prof', b: 'grpo', both: 6, onlyA: 0, onlyB: 4 }],
};

describe('the Compare Rules view model', () => {
  it('a card names the rule with its parameters, its balance, and where ties were broken by file order', () => {
    const card = ruleCard(figures.rules[0]!, { m: 2 } as never, 'prof', 10);
    expect(card.isChosen).toBe(true);
    expect(card.figures.find(([k]) => k === 'balance')?.[2]).toBe('3 / 3 (50.0% correct)');
    expect(card.notes).toEqual(['tie broken by file order in 2 groups']);
    const gfpo = ruleCard(rule('gfpo', 0, { keptCorrect: 0 }), { num_remains_in_group: 4, group_filter_func: 'length' }, 'prof', 10);
    expect(gfpo.heading).toBe('gfpo (num_remains_in_group=4, group_filter_func=length)');
    expect(gfpo.figures.find(([k]) => k === 'balance')?.[2]).toBe('0 / 0');
    expect(gfpo.notes).toEqual([]);
  });

  it('a cell reads the one stored overlap from either side, and says how many differ', () => {
    expect(matrixCell(figures, 'prof', 'prof')).toEqual({ kind: 'self', kept: 6 });
    const below = matrixCell(figures, 'grpo', 'prof');
    expect(below).toEqual({ kind: 'pair', a: 'grpo', b: 'prof', both: 6, onlyRow: 4, onlyColumn: 0, differ: 4 });
    expect(pairWords(below as Extract<typeof below, { kind: 'pair' }>)).toBe('6 kept by both grpo and prof; 4 kept only by grpo, 0 only by prof — open the 4 they disagree on in the Rollout Explorer');
  });
});
