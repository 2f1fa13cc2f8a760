import { describe, expect, it } from 'vitest';
import { healthReport } from '../../../../src/core/health/healthReport';
import { DETECTOR_IDS, type DetectorId, type HealthReport } from '../../../../src/core/health/healthTypes';
import { StepHealthBuilder } from '../../../../src/core/health/stepHealth';
import { asHealthRollout, generatedRun, ONSET, type RunOptions } from './generatedRun';

function audit(options: RunOptions, kind: HealthReport['kind'] = 'run'): HealthReport {
  const parts = generatedRun(options).map((records) => {
    const builder = new StepHealthBuilder(Number(records[0]!['step']));
    records.forEach((r, i) => builder.add(asHealthRollout(r, i + 1)));
    return builder.finish();
  });
  return healthReport({ path: 'generated', kind, parts });
}

const detector = (report: HealthReport, id: DetectorId) => report.detectors.find((d) => d.id === id)!;

describe('the health audit on generated runs', () => {
  it('stays quiet on a clean run with noise in every series, for several seeds', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const report = audit({ seed });
      const fired = report.detectors.filter((d) => d.status === 'fired').map((d) => `${d.id}: ${d.summary}`);
      expect(fired, `seed ${seed}`).toEqual([]);
      expect(report.detectors.map((d) => d.status)).not.toContain('not-available');
    }
  });

  const injected = DETECTOR_IDS;
  for (const id of injected) {
    it(`finds ${id} injected at step ${ONSET} within one step, and only it`, () => {
      const report = audit({ inject: id, seed: 11 });
      const d = detector(report, id);
      expect(d.status, d.summary).toBe('fired');
      expect(Math.abs((d.onset ?? -99) - ONSET)).toBeLessThanOrEqual(1);
      expect(d.severity).not.toBeNull();
      // Series detectors name rollouts of the failing steps; each example carries its span.
      for (const e of d.examples) {
        expect(e.step).toBeGreaterThanOrEqual(ONSET - 1);
        expect(e.span.end).toBeGreaterThanOrEqual(e.span.start);
      }
      if (id !== 'no-signal-groups') expect(d.examples.length).toBeGreaterThan(0);
      const others = report.detectors.filter((x) => x.id !== id && x.status === 'fired').map((x) => x.id);
      // A loop and a tool call with its reply make the responses that show them longer: the length grows too.
      const alsoLonger = id === 'repetition' || id === 'reward-visible';
      expect(others.filter((x) => !(alsoLonger && x === 'length'))).toEqual([]);
    });
  }

  it('does not call a rising step score inflation when accuracy rises with it', () => {
    const parts = generatedRun({ inject: 'score-inflation', seed: 3 }).map((records) => {
      const builder = new StepHealthBuilder(Number(records[0]!['step']));
      records.forEach((r, i) => builder.add(asHealthRollout(r['step'] as number >= ONSET ? { ...r, score: 1 } : r, i + 1)));
      return builder.finish();
    });
    const d = detector(healthReport({ path: 'g', kind: 'run', parts }), 'score-inflation');
    expect(d.status).toBe('quiet');
  });

  it('on one file runs the per-rollout detectors and says the others need a run', () => {
    const report = audit({ inject: 'reward-visible', onset: 1, steps: 1 }, 'file');
    expect(detector(report, 'reward-visible').status).toBe('fired');
    expect(detector(report, 'reward-visible').examples[0]!.span.text).toContain('reward=');
    for (const id of ['score-inflation', 'no-signal-groups', 'entropy-collapse', 'mismatch'] as const) expect(detector(report, id).status).toBe('needs-run');
  });

  it('says a detector is not available when the dump lacks its input', () => {
    const parts = generatedRun({ seed: 2 }).map((records) => {
      const builder = new StepHealthBuilder(Number(records[0]!['step']));
      records.forEach((r, i) => builder.add({ ...asHealthRollout(r, i + 1), extras: { truncated: null, tokens: null } }));
      return builder.finish();
    });
    const report = healthReport({ path: 'g', kind: 'run', parts });
    expect(detector(report, 'entropy-collapse').status).toBe('not-available');
    expect(detector(report, 'entropy-collapse').summary).toMatch(/^not in this dump/);
    expect(detector(report, 'mismatch').status).toBe('not-available');
    expect(detector(report, 'length').summary).toContain('does not say which responses stopped at the length limit');
  });
});

describe('a group without GRPO signal, as an example', () => {
  it('is named by its question without the instruction every group of the step shares', () => {
    const builder = new StepHealthBuilder(3);
    const instruction = " Let's think step by step and output the final answer after \"####\".";
    const questions = ['Tom has 3 apples and buys 4 more. How many now?', 'A train leaves at 9 and takes 2 hours. When does it arrive?'];
    let line = 0;
    for (const [g, question] of questions.entries()) {
      for (const isCorrect of g === 0 ? [true, true, true] : [true, false]) {
        builder.add({ file: 'f.jsonl', line: ++line, index: 0, step: 3, group: `uid=q${g}`, prompt: question + instruction, response: 'The answer is 7.', responseTurns: null, steps: [{ start: 0, end: 16 }], stepScores: [0.9], isCorrect, extras: { truncated: null, tokens: null } });
      }
    }
    const notes = (builder.finish().examples['no-signal-groups'] ?? []).map((e) => e.note);
    expect(notes).toEqual(['group Tom has 3 apples and buys 4 more. How many now?: all 3 rollouts correct']);
  });
});
