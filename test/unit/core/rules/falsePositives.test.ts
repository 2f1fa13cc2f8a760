/**
 * Suspected false positives need evidence: a step the scorer marks low, or a real gap below the
 * rollout's peers. Ties, penalties and file order are not evidence.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { analyseText } from '../../../../src/scoring/analysis/analyse';
import { type RankInput } from '../../../../src/core/rules/profMath';
import { decideGroup } from '../../../../src/core/rules/decideList';
import { falsePositivesOf } from '../../../../src/core/rules/groups';
import { resolveSettings } from '../../../../src/core/profSettings';

function r(id: number, correct: boolean, mean: number, h = 4): RankInput {
  return { id, correct, scores: Array.from({ length: h }, () => mean) };
}

function flags(group: RankInput[], settings = {}): { rules: string[]; evidence: unknown }[] {
  const s = resolveSettings(settings);
  return falsePositivesOf(group, decideGroup(group, s), s).map((fp) => ({ rules: fp.rules, evidence: fp.evidence }));
}

describe('evidence rules', () => {
  it('a tied correct group flags nothing: no prof-dropped for ties, no bottom half', () => {
    const group = [0, 1, 2, 3, 4, 5].map((i) => r(i, true, 0.9));
    expect(flags(group).every((f) => f.rules.length === 0)).toBe(true);
  });

  it('prof-dropped names the consistency gap to the weakest kept correct rollout', () => {
    const group = [r(0, true, 0.9), r(1, true, 0.4), r(2, true, 0.8), r(3, false, 0.3), r(4, false, 0.2)];
    const [, dropped] = flags(group, { m: 3, threshold: 0.3 });
    expect(dropped).toEqual({ rules: ['prof-dropped', 'bottom-half'], evidence: { lowStep: null, weakestStep: null, gap: { measure: 'score', value: 0.4, reference: 0.8 } } });
  });

  it('a correct rollout dropped for the step-count penalty is not a false positive by that', () => {
    const group = [r(0, true, 0.9, 1), r(1, true, 0.9), r(2, true, 0.9), r(3, false, 0.2)];
    expect(flags(group, { m: 3 })[0]).toEqual({ rules: [], evidence: null });
  });

  it('bottom-half only strictly below every rollout of the upper half, by aggregate step score', () => {
    // Upper half of four: .9 and .6; .6 (a tie with the upper half's lowest) is not below it.
    const group = [r(0, true, 0.9), r(1, true, 0.6), r(2, true, 0.6), r(3, true, 0.3)];
    expect(flags(group, { m: 4, threshold: 0.2 }).map((f) => f.rules)).toEqual([[], [], [], ['bottom-half']]);
    // A long (penalised) rollout with the same steps is not below anyone by its steps.
    const long = [r(0, true, 0.9), r(1, true, 0.9), r(2, true, 0.9, 40)];
    expect(flags(long, { m: 4 }).every((f) => f.rules.length === 0)).toBe(true);
  });

  it('weak-step names the first low step and the weakest one', () => {
    const group: RankInput[] = [{ id: 0, correct: true, scores: [0.9, 0.2, 0.1] }, r(1, true, 0.9)];
    expect(flags(group)[0]?.evidence).toEqual({ lowStep: { step: 1, score: 0.2 }, weakestStep: { step: 2, score: 0.1 }, gap: { measure: 'score', value: expect.closeTo(0.4, 12), reference: 0.9 } });
  });

  it('every flag names its evidence (property)', () => {
    const member = fc.record({ correct: fc.boolean(), h: fc.integer({ min: 0, max: 35 }), scores: fc.array(fc.constantFrom(0.05, 0.5, 0.9, 0.9), { minLength: 0, maxLength: 6 }) });
    fc.assert(
      fc.property(fc.array(member, { minLength: 1, maxLength: 12 }), fc.integer({ min: 0, max: 10 }), (ms, m) => {
        const group = ms.map((x, id) => ({ id, correct: x.correct, scores: x.scores }));
        const s = resolveSettings({ m });
        for (const fp of falsePositivesOf(group, decideGroup(group, s), s)) {
          if (fp.rules.length === 0) continue;
          expect(fp.evidence).not.toBeNull();
          expect(fp.evidence!.lowStep !== null || fp.evidence!.gap !== null).toBe(true);
          if (fp.rules.includes('weak-step')) expect(fp.evidence!.lowStep).not.toBeNull();
        }
      }),
    );
  });

  it('with two score levels (the checker), every flag has a low step', () => {
    const member = fc.record({ correct: fc.boolean(), scores: fc.array(fc.constantFrom(0.05, 0.9, 0.9, 0.9), { minLength: 2, maxLength: 8 }) });
    fc.assert(
      fc.property(fc.array(member, { minLength: 1, maxLength: 12 }), fc.integer({ min: 0, max: 10 }), (ms, m) => {
        const group = ms.map((x, id) => ({ id, correct: x.correct, scores: x.scores }));
        const s = resolveSettings({ m });
        for (const fp of falsePositivesOf(group, decideGroup(group, s), s)) {
          if (fp.suspected) expect(fp.evidence?.lowStep).not.toBeNull();
        }
      }),
    );
  });
});

describe('on a real grouped dump with the default scorer', () => {
  // 120 GSM8K problems × 4 model solutions (OpenAI's example model solutions, test/fixtures/data).
  const text = readFileSync(join(__dirname, '../../../fixtures/data/gsm8k_openai_example_model_solutions_first120.jsonl'), 'utf8');

  for (const m of [4, 2]) {
    it(`m=${m}: no suspected false positive without a low step; every removal by file order says tie`, async () => {
      const a = await analyseText(text, { fileName: 'gsm8k.jsonl', settings: { m } });
      const suspected = a.rollouts.filter((r) => r.falsePositive.suspected);
      expect(suspected.every((r) => r.lowSteps.length > 0 && r.falsePositive.evidence?.lowStep !== null)).toBe(true);
      const ranked = new Set(['dropped-low-consistency', 'dropped-conflict', 'dropped-step-penalty', 'dropped-tie']);
      for (const r of a.rollouts.filter((x) => ranked.has(x.decision.reason))) {
        const tiedWithKept = a.rollouts.some(
          (k) => k.group === r.group && k.decision.kept && k.outcome.kind === r.outcome.kind && Math.abs((k.decision.consistency ?? NaN) - (r.decision.consistency ?? NaN)) <= 1e-9,
        );
        expect(r.decision.reason === 'dropped-tie').toBe(tiedWithKept);
      }
      // The checker finds no false claim in any correct solution here, so nothing is suspected; at
      // m=2 most removals are ties the report now names (227 of 480 when measured).
      expect(suspected).toHaveLength(0);
      if (m === 2) expect(a.report.byReason['dropped-tie']).toBe(227);
    });
  }
});
