import { describe, expect, it } from 'vitest';
import type { RolloutDetail, RolloutSummary } from '../../../src/protocol/analysis';
import { escapeMarkdown, hoverMarkdown } from '../../../src/vscode/hoverText';
import { fillSummary, groupLineSummary, penaltyText } from '../../../src/vscode/presentation';
import { renderRollouts } from '../../../src/vscode/rolloutViewRender';
import { DEFAULT_SUMMARY_TEMPLATE } from '../../../src/vscode/settingIds';

const base: RolloutSummary = {
  id: 4, line: 5, index: 0, group: 'g', gold: '20', rawSteps: [{ start: 3, end: 9 }, { start: 11, end: 20 }],
  stepScores: [0.9, 0.12], stepNotes: [null, '48 / 2 = 20 is false'], scorer: 'file',
  outcome: { kind: 'correct', source: 'graded', extracted: '20' },
  decision: { id: 4, kept: false, reason: 'dropped-low-consistency', steps: 2, score: 0.51, consistency: 0.51, penalised: false, rank: 4 },
  firstLowStep: 1,
  falsePositive: { suspected: true, rules: ['prof-dropped', 'weak-step'] },
};
const settings = { threshold: 0.5, lambda: 10, maxSteps: 30, penalty: 'card' as const };

describe('what a user reads', () => {
  it('fills the end-of-line summary: outcome, extracted vs gold, weakest step, decision, warning', () => {
    expect(fillSummary(DEFAULT_SUMMARY_TEMPLATE, base))
      .toBe('✓ 20 vs 20 · weakest 0.12 (step 2) · dropped: correct, steps least trusted · ⚠ suspected false positive');
    expect(fillSummary('{scorer} {unknown}', { ...base, falsePositive: { suspected: false, rules: [] } })).toBe('file {unknown}');
  });

  it('tallies a line holding a whole group', () => {
    const wrong = { ...base, outcome: { kind: 'incorrect' as const, source: 'file' as const }, falsePositive: { suspected: false, rules: [] } };
    expect(groupLineSummary([base, wrong, { ...wrong, decision: { ...wrong.decision, kept: true } }]))
      .toBe('✓1 ✗2 · kept 1 of 3 · ⚠ 1 suspected false positive');
  });

  it('explains the step-count penalty in the paper’s terms', () => {
    const one = { ...base, decision: { ...base.decision, steps: 1, penalised: true } };
    expect(penaltyText(one, settings)).toBe('−λ = −10 (H = 1 ≤ 1)');
    const long = { ...base, decision: { ...base.decision, steps: 31, penalised: true } };
    expect(penaltyText(long, settings)).toBe('−λ = −10 (H = 31 ≥ Hλ = 30)');
  });

  it('shows rollout text in hovers as text, never as links or HTML', () => {
    expect(escapeMarkdown('[x](command:evil) <img src=x>')).toBe('\\[x\\]\\(command:evil\\) \\<img src=x\\>');
    const hover = hoverMarkdown({
      rollout: { ...base, gold: '[click](command:workbench.action.quit)' },
      step: 1,
      group: [base],
      settings,
      source: 'file:///r.jsonl',
      commands: { openRollout: 'profLens.openRolloutView', openGroup: 'profLens.openGroupView' },
    });
    expect(hover).toContain('step 2 of 2');
    expect(hover).toContain('Score **0.12** from `file` — below the threshold 0.5');
    expect(hover).not.toContain('](command:workbench');
    expect(hover).toContain('(command:profLens.openRolloutView?');
  });

  it('names a model scorer verbatim (a code span shows escapes literally)', () => {
    const hover = hoverMarkdown({
      rollout: { ...base, scorer: 'onnx:qwen-prm@cpu' },
      step: 0,
      group: [base],
      settings,
      source: 'file:///r.jsonl',
      commands: { openRollout: 'profLens.openRolloutView', openGroup: 'profLens.openGroupView' },
    });
    expect(hover).toContain('from `onnx:qwen-prm@cpu`');
  });

  it('renders the Rollout View with numbered steps and records where each step landed', () => {
    const detail: RolloutDetail = {
      ...base,
      prompt: 'How many?',
      response: 'a\n\nb',
      steps: [{ index: 0, text: 'First step.', start: 0, end: 11 }, { index: 1, text: 'Second\nstep.', start: 13, end: 25 }],
    };
    const view = renderRollouts([detail], { fileLabel: 'r.jsonl', settings });
    const lines = view.text.split('\n');
    const step = view.rollouts[0]?.steps[1];
    expect(lines[step?.headerLine ?? -1]).toBe('### [2/2] score 0.12 — low · 48 / 2 = 20 is false');
    expect(lines.slice(step?.startLine, step?.endLine)).toEqual(['Second', 'step.']);
    expect(view.text).toContain('## Gold\n\n20');
  });
});
