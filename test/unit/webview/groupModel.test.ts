import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyseText } from '../../../src/scoring/analysis/analyse';
import { summariseRollout } from '../../../src/protocol/analysis';
import type { RolloutDetail } from '../../../src/protocol/analysis';
import type { GroupData } from '../../../src/protocol/panel';
import type { FileAnalysis } from '../../../src/core/report/fileAnalysis';
import { groupData } from '../../../src/vscode/panel/panelData';
import { countGroup, isSameWhatIf, lineCell, rowsPerLine, recompute, sortRows, whatIfOf } from '../../../webview/groupModel';
import { penaltyReason } from '../../../src/core/presentation/penaltyWords';
import { scoreSummary } from '../../../src/core/presentation/stepFacts';

const FIXTURE = join(__dirname, '../../fixtures/e2e/rollouts.jsonl');
let analysis: FileAnalysis;

function group(uid: string): GroupData {
  const members = analysis.rollouts.filter((r) => r.group === `uid=${uid}`);
  const details: RolloutDetail[] = members.map((r) => ({ ...summariseRollout(r), prompt: r.prompt, response: r.response, steps: r.steps }));
  return groupData({ source: 'file:///r.jsonl', fileLabel: 'r.jsonl', groupLabel: uid, members: members.map(summariseRollout), details, summary: analysis });
}

beforeAll(async () => {
  analysis = await analyseText(readFileSync(FIXTURE, 'utf8'), { fileName: 'rollouts.jsonl', scorer: 'file' });
});

describe('recomputing a group in the webview', () => {
  it('under the analysed settings, every decision is the analysis’s own and nothing is marked', () => {
    for (const uid of ['g1', 'g2']) {
      const data = group(uid);
      const rows = recompute(data, null);
      expect(rows.map((r) => r.decision)).toEqual(expect.arrayContaining(data.rows.map((r) => r.decision)));
      expect(rows.filter((r) => r.isChanged)).toEqual([]);
      expect(recompute(data, whatIfOf(data.settings)).map((r) => r.decision)).toEqual(rows.map((r) => r.decision));
    }
  });

  it('m = 6 keeps the whole group of six: the two dropped rollouts are marked as changed', () => {
    const data = group('g2');
    const rows = recompute(data, { ...whatIfOf(data.settings), m: 6 });
    expect(rows.every((r) => r.decision.kept && r.decision.reason === 'kept-small-group')).toBe(true);
    expect(rows.filter((r) => r.isChanged).map((r) => r.row.line).sort((a, b) => a - b)).toEqual([10, 13]);
    expect(countGroup(rows, { ...whatIfOf(data.settings), m: 6 })).toMatchObject({ n: 6, nPlus: 5, nMinus: 1, m: 6, keptPlus: 5, keptMinus: 1 });
  });

  it('λ = 0 lifts the step-count penalty: the one-step rollout is no longer the first dropped', () => {
    const data = group('g2');
    const before = recompute(data, null).find((r) => r.row.line === 13);
    const after = recompute(data, { ...whatIfOf(data.settings), lambda: 0 }).find((r) => r.row.line === 13);
    expect(before?.decision.reason).toBe('dropped-step-penalty');
    expect(after?.decision.kept).toBe(true);
    expect(after?.isChanged).toBe(true);
  });

  it('remove R is the reference’s prof_filter: R ≥ n drops the whole group', () => {
    const data = group('g1');
    const rows = recompute(data, { ...whatIfOf(data.settings), remove: 6 });
    expect(rows.every((r) => r.decision.reason === 'dropped-group-too-small')).toBe(true);
  });

  it('POS draws the same incorrect rollouts for the same seed', () => {
    const data = group('g1');
    const pos = { ...whatIfOf(data.settings), m: 3, variant: 'pos' as const, seed: 7 };
    expect(recompute(data, pos).map((r) => r.decision)).toEqual(recompute(data, pos).map((r) => r.decision));
  });
});

describe('row order and counts', () => {
  it('correct rollouts first, most trusted first, then incorrect, then rollouts not ranked', () => {
    const rows = recompute(group('g1'), null);
    const outcomes = rows.map((r) => r.row.outcome);
    expect(outcomes).toEqual(['correct', 'correct', 'correct', 'correct', 'incorrect', 'incorrect']);
    const ranks = rows.map((r) => r.decision.rank);
    expect(ranks).toEqual([1, 2, 3, 4, 1, 2]);
    const consistency = rows.slice(0, 4).map((r) => r.decision.consistency ?? 0);
    expect([...consistency].sort((a, b) => b - a)).toEqual(consistency);
  });

  it('sorting is stable for unranked rows (file order) and does not mutate its input', () => {
    const rows = recompute(group('g1'), null);
    const unranked = rows.map((r, i) => ({ ...r, decision: { ...r.decision, rank: null }, row: { ...r.row, id: 10 - i } }));
    const sorted = sortRows(unranked);
    expect(sorted.map((r) => r.row.id)).toEqual([...unranked.map((r) => r.row.id)].sort((a, b) => a - b));
    expect(unranked[0]?.row.id).toBe(10);
  });

  it('n+ / n− / k+ / k− for the analysed group g1 (m = 4 of 6, four correct)', () => {
    const data = group('g1');
    expect(countGroup(recompute(data, null), whatIfOf(data.settings))).toEqual({ n: 6, nPlus: 4, nMinus: 2, m: 4, keptPlus: 2, keptMinus: 2, tied: 0, notRanked: 0 });
  });
});

describe('small pieces', () => {
  it('mean and min of the scored steps, ignoring unscored ones', () => {
    expect(scoreSummary([0.5, null, 1])).toEqual({ mean: 0.75, min: 0.5 });
    expect(scoreSummary(null)).toEqual({ mean: null, min: null });
    expect(scoreSummary([])).toEqual({ mean: null, min: null });
  });

  it('penalty reasons name the rule that fired', () => {
    const whatIf = { m: 4, remove: null, variant: 'both' as const, seed: 0, penalty: 'card' as const, lambda: 10, maxSteps: 30, aggregate: 'mean' as const };
    expect(penaltyReason(1, whatIf)).toBe('H = 1 ≤ 1');
    expect(penaltyReason(31, whatIf)).toBe('H = 31 ≥ Hλ = 30');
    expect(penaltyReason(31, { ...whatIf, penalty: 'reference' })).toBe('H = 31 > 30');
    expect(penaltyReason(1, { ...whatIf, penalty: 'reference' })).toBe('H = 1 < 2');
    expect(penaltyReason(12, { ...whatIf, maxSteps: 12 })).toBe('H = 12 ≥ Hλ = 12');
    expect(penaltyReason(3, whatIf)).toBeNull();
  });

  it('what-if equality compares every field', () => {
    const a = { m: 4, remove: null, variant: 'both' as const, seed: 0, penalty: 'card' as const, lambda: 10, maxSteps: 30, aggregate: 'mean' as const };
    expect(isSameWhatIf(a, { ...a })).toBe(true);
    expect(isSameWhatIf(a, { ...a, seed: 1 })).toBe(false);
    expect(isSameWhatIf(a, { ...a, remove: 0 })).toBe(false);
  });
});

describe('the line cell of the group table', () => {
  it('names a response of a grouped line apart from its line, counted from 1 with the line\'s total', () => {
    expect(lineCell({ line: 1, index: 7 }, 8)).toEqual({ line: '1', response: '8/8', title: 'line 1, response 8 of 8' });
    expect(lineCell({ line: 12, index: 0 }, 1)).toEqual({ line: '12', response: null, title: 'line 12' });
  });

  it('names the first response of a grouped line too, not as the whole line', () => {
    expect(lineCell({ line: 17, index: 0 }, 4)).toEqual({ line: '17', response: '1/4', title: 'line 17, response 1 of 4' });
  });

  it('counts the rows of each line', () => {
    expect([...rowsPerLine([{ line: 3 }, { line: 3 }, { line: 5 }])]).toEqual([[3, 2], [5, 1]]);
  });
});
