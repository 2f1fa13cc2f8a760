import { describe, expect, it } from 'vitest';
import type { AnalysedRollout } from '../../../../src/core/report/fileAnalysis';
import { NOT_SUSPECTED } from '../../../../src/core/rules/groups';
import { evidenceLine } from '../../../../src/core/presentation/evidence';
import { formatScoreBeside, formatScoresApart } from '../../../../src/core/presentation/numbers';
import { outcomeLine } from '../../../../src/core/presentation/outcomeWords';
import { penaltyText, penaltyZonesText } from '../../../../src/core/presentation/penaltyWords';
import { reasonFamily, reasonLabel, REASON_LABELS } from '../../../../src/core/presentation/reasonWords';
import { rolloutFacts } from '../../../../src/core/presentation/rolloutFacts';
import { fillSummary, groupLineSummary } from '../../../../src/core/presentation/summaryWords';
import { DEFAULT_SUMMARY_TEMPLATE } from '../../../../src/vscode/settingIds';

type Summary = Parameters<typeof fillSummary>[1] & Parameters<typeof groupLineSummary>[0][number];

const base: Summary = {
  gold: '20', scorer: 'file',
  outcome: { kind: 'correct', source: 'graded', extracted: '20' },
  decision: { id: 4, kept: false, reason: 'dropped-low-consistency', steps: 2, score: 0.51, consistency: 0.51, penalised: false, rank: 4 },
  falsePositive: { suspected: true, rules: ['prof-dropped', 'weak-step'], evidence: { lowStep: { step: 1, score: 0.12 }, weakestStep: { step: 1, score: 0.12 }, gap: null }, strength: null },
  weakestStep: { step: 1, score: 0.12 },
};
const settings = { threshold: 0.5, lambda: 10, maxSteps: 30, penalty: 'card' as const, aggregate: 'mean' as const };

describe('the words every surface shares', () => {
  it('a tie is named as what it is', () => {
    expect(reasonLabel('dropped-tie')).toBe('dropped: tied with a kept rollout; removed by file order');
    expect(reasonFamily('dropped-tie')).toBe('tied');
    expect(Object.keys(REASON_LABELS)).toContain('dropped-tie');
  });

  it('fills the end-of-line summary from the derived weakest step', () => {
    expect(fillSummary(DEFAULT_SUMMARY_TEMPLATE, base))
      .toBe('✓ 20 vs 20 · weakest 0.12 (step 2) · dropped: correct, steps least trusted · ⚠ suspected false positive');
    expect(fillSummary('{scorer} {unknown}', { ...base, falsePositive: NOT_SUSPECTED })).toBe('file {unknown}');
  });

  it('tallies a line holding a whole group, ties included', () => {
    const wrong = { ...base, outcome: { kind: 'incorrect' as const, source: 'file' as const }, falsePositive: NOT_SUSPECTED };
    const tied = { ...wrong, decision: { ...wrong.decision, reason: 'dropped-tie' as const } };
    expect(groupLineSummary([base, wrong, { ...wrong, decision: { ...wrong.decision, kept: true } }, tied]))
      .toBe('✓1 ✗3 · kept 1 of 4 · 1 tied (dropped by file order) · ⚠ 1 suspected false positive');
  });

  it('describes the penalty from the configured rule and Hλ', () => {
    expect(penaltyText({ steps: 1, penalised: true }, settings)).toBe('−λ = −10 (H = 1 ≤ 1)');
    expect(penaltyText({ steps: 31, penalised: true }, settings)).toBe('−λ = −10 (H = 31 ≥ Hλ = 30)');
    expect(penaltyText({ steps: 12, penalised: true }, { ...settings, maxSteps: 12, lambda: 3 })).toBe('−λ = −3 (H = 12 ≥ Hλ = 12)');
    expect(penaltyText({ steps: 31, penalised: true }, { ...settings, penalty: 'reference' })).toBe('−λ = −10 (H = 31 > 30)');
    expect(penaltyText({ steps: 4, penalised: false }, settings)).toBe('none (H = 4)');
    expect(penaltyZonesText({ penalty: 'card', maxSteps: 24 })).toBe('H ≤ 1 or H ≥ Hλ = 24');
    expect(penaltyZonesText({ penalty: 'reference', maxSteps: 24 })).toBe('H < 2 or H > 30');
  });

  it('says where a graded answer came from', () => {
    expect(outcomeLine({ kind: 'correct', source: 'graded', extracted: '18', answerFrom: 'pred' }, '18'))
      .toBe("✓ correct · extracted 18 vs gold 18 (graded; answer from the file's pred)");
    expect(outcomeLine({ kind: 'incorrect', source: 'graded', extracted: '7', answerFrom: 'last-number' }, '8'))
      .toBe('✗ incorrect · extracted 7 vs gold 8 (graded; answer: the last number of the response)');
  });

  it('says the outcome is the trainer\'s reward when the file has no gold, instead of "vs gold —"', () => {
    expect(outcomeLine({ kind: 'correct', source: 'file', value: 1, extracted: '18', answerFrom: 'boxed' }, null, 'accuracy_reward'))
      .toBe("✓ correct · from the trainer's reward accuracy_reward = 1 (no gold answer in the file) · answer 18 (answer from the last \\boxed{})");
    expect(outcomeLine({ kind: 'incorrect', source: 'file', value: 0 }, null, 'rewards')).toBe("✗ incorrect · from the trainer's reward rewards = 0 (no gold answer in the file)");
    expect(outcomeLine({ kind: 'correct', source: 'file', value: 1, extracted: '3' }, '3', 'score')).toBe('✓ correct · extracted 3 vs gold 3 (file: score)');
  });
});

describe('the evidence line', () => {
  it('names the low step and the scorer’s note on it', () => {
    const line = evidenceLine({ falsePositive: base.falsePositive, stepNotes: [null, '4 \\times 12 = 58 is false (48)'], steps: 3 }, settings);
    expect(line).toBe('step 2 of 3 scores 0.12, below 0.5 — 4 \\times 12 = 58 is false (48)');
  });

  it('names the weakest step, and the first low one when it is another; scores never contradict the threshold', () => {
    const fp = { ...base.falsePositive, evidence: { lowStep: { step: 0, score: 0.4999 }, weakestStep: { step: 3, score: 0.17 }, gap: null } };
    const line = evidenceLine({ falsePositive: fp, stepNotes: [null, null, null, '3 + 4 = 8 is false (7)'], steps: 5 }, settings);
    expect(line).toBe('weakest step 4 of 5 scores 0.17, below 0.5 — 3 + 4 = 8 is false (7); first below: step 1 (0.4999)');
    expect(formatScoreBeside(0.4999, 0.5)).toBe('0.4999');
    expect(formatScoreBeside(0.496, 0.5)).toBe('0.496');
    expect(formatScoreBeside(0.5, 0.5)).toBe('0.50');
    expect(formatScoreBeside(0.31, 0.305)).toBe('0.31');
    expect(formatScoreBeside(0.3049, 0.305)).toBe('0.30');
    expect(formatScoreBeside(0.49999999999, 0.5)).toBe('just below 0.5');
    expect(formatScoresApart(0.598, 0.6001)).toEqual(['0.598', '0.600']);
    expect(formatScoresApart(0.6, 0.8)).toEqual(['0.60', '0.80']);
  });

  it('names the gap when there is no low step', () => {
    const bottom = { suspected: true, rules: ['bottom-half' as const], evidence: { lowStep: null, weakestStep: null, gap: { measure: 'score' as const, value: 0.6, reference: 0.8 } }, strength: null };
    expect(evidenceLine({ falsePositive: bottom, stepNotes: [], steps: 4 }, settings)).toBe('mean step score 0.60, below the upper half of its correct group (lowest there 0.80)');
    const dropped = { suspected: true, rules: ['prof-dropped' as const], evidence: { lowStep: null, weakestStep: null, gap: { measure: 'consistency' as const, value: 0.6, reference: 0.8 } }, strength: null };
    expect(evidenceLine({ falsePositive: dropped, stepNotes: [], steps: 4 }, settings)).toBe('consistency 0.60, below the weakest kept correct rollout (0.80)');
    expect(evidenceLine({ falsePositive: NOT_SUSPECTED, stepNotes: [], steps: 4 }, settings)).toBeNull();
  });

  it('the facts a summary carries: low steps, the first, the weakest, whether scored', () => {
    const facts: Partial<AnalysedRollout> = rolloutFacts({ stepScores: [0.9, 0.3, null, 0.1], stepNotes: [], isScored: true, steps: 4, falsePositive: NOT_SUSPECTED }, settings);
    expect(facts).toEqual({ lowSteps: [1, 3], firstLowStep: 1, weakestStep: { step: 3, score: 0.1 }, isScored: true, evidence: null });
    const unscored = rolloutFacts({ stepScores: [], stepNotes: [], isScored: false, steps: 0, falsePositive: NOT_SUSPECTED }, settings);
    expect(unscored).toMatchObject({ lowSteps: [], firstLowStep: null, weakestStep: null, isScored: false });
  });
});
