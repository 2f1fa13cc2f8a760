import { describe, expect, it } from 'vitest';
import type { RolloutDetail, RolloutSummary } from '../../../src/protocol/analysis';
import { escapeMarkdown, hoverMarkdown, type HoverInput } from '../../../src/vscode/hoverText';
import { renderRollouts } from '../../../src/vscode/rolloutViewRender';

const base: RolloutSummary = {
  id: 4, line: 5, index: 0, group: 'g', gold: '20', rawSteps: [{ start: 3, end: 9 }, { start: 11, end: 20 }],
  stepScores: [0.9, 0.12], stepNotes: [null, '48 / 2 = 20 is false'], scorer: 'file',
  outcome: { kind: 'correct', source: 'graded', extracted: '20' },
  decision: { id: 4, kept: false, reason: 'dropped-low-consistency', steps: 2, score: 0.51, consistency: 0.51, penalised: false, rank: 4 },
  falsePositive: { suspected: true, rules: ['prof-dropped', 'weak-step'], evidence: { lowStep: { step: 1, score: 0.12 }, weakestStep: { step: 1, score: 0.12 }, gap: null }, strength: null },
  lowSteps: [1], firstLowStep: 1, weakestStep: { step: 1, score: 0.12 }, isScored: true,
  evidence: 'step 2 of 2 scores 0.12, below 0.5 — 48 / 2 = 20 is false',
};
const settings = { threshold: 0.5, lambda: 10, maxSteps: 30, penalty: 'card' as const };
const commands = { openRollout: 'profLens.openRolloutView', openGroup: 'profLens.openGroupView' };

function hover(rollout: RolloutSummary, step: number | null = 1): string {
  const input: HoverInput = { rollout, step, group: [rollout], settings, source: 'file:///r.jsonl', commands };
  return hoverMarkdown(input);
}

describe('the hover', () => {
  it('names the step, its score against the threshold, the decision in words and the evidence', () => {
    const text = hover(base);
    expect(text).toContain('step 2 of 2');
    expect(text).toContain('Score **0.12** from `file` — below the threshold 0.5');
    expect(text).toContain('dropped: correct, steps least trusted');
    expect(text).toContain('Suspected false positive (PROF drops it, a step below the threshold)');
    expect(text).toContain('48 \\/ 2 \\= 20 is false');
    expect(text).not.toContain('prof-dropped');
  });

  it('opens a step\'s hover with its score and the scorer\'s verdict, before the rollout\'s facts', () => {
    const lines = hover(base).split('\n');
    expect(lines[0]).toBe('Score **0.12** from `file` — below the threshold 0.5');
    expect(lines[2]).toBe('Note: 48 \\/ 2 \\= 20 is false');
    expect(lines.findIndex((l) => l.startsWith('- Outcome'))).toBeGreaterThan(2);
  });

  it("puts a step's token heat right after its score, before the rollout's facts", () => {
    const heat = 'Step 2 log-probability: mean −0.412, min −2.300 over 17 tokens';
    const input: HoverInput = { rollout: base, step: 1, group: [base], settings, source: 'file:///r.jsonl', commands, heat: [heat] };
    const lines = hoverMarkdown(input).split('\n');
    const at = lines.indexOf(`Token heat — ${escapeMarkdown(heat)}`);
    expect(at).toBeGreaterThan(2);
    expect(at).toBeLessThan(lines.findIndex((l) => l.startsWith('- Outcome')));
    expect(hover(base)).not.toContain('Token heat');
  });

  it('says a tie is a tie', () => {
    const tied: RolloutSummary = { ...base, decision: { ...base.decision, reason: 'dropped-tie' } };
    expect(hover(tied, null)).toContain('dropped: tied with a kept rollout; removed by file order');
  });

  it('says where the answer came from', () => {
    const fromPred: RolloutSummary = { ...base, outcome: { ...base.outcome, answerFrom: 'pred' } };
    expect(hover(fromPred)).toContain("answer from the file\\'s pred");
  });

  it('shows rollout text as text, never as links, images, HTML, entities or autolinks', () => {
    expect(escapeMarkdown('[x](command:evil) <img src=x>')).toBe('\\[x\\]\\(command\\:evil\\) \\<img src\\=x\\>');
    const hostile = '[click](command:workbench.action.quit) ![i](https://e.x/a.png) <b>b</b> &lt; https://evil.example www.evil.example a@b.example\r# heading';
    const text = hover({ ...base, gold: hostile, outcome: { ...base.outcome, extracted: hostile }, stepNotes: [null, hostile], evidence: hostile });
    expect(text).not.toMatch(/\]\(command:workbench/);
    expect(text).not.toMatch(/!\[i\]\(/);
    expect(text).not.toMatch(/<b>|&lt;|https:\/\/|www\.evil|a@b\.example|\r/);
    expect(text).toContain('(command:profLens.openRolloutView?');
  });

  it('names a model scorer verbatim (a code span shows escapes literally)', () => {
    expect(hover({ ...base, scorer: 'onnx:qwen-prm@cpu' }, 0)).toContain('from `onnx:qwen-prm@cpu`');
    expect(hover({ ...base, scorer: 'a`b\nc' }, 0)).toContain('from `a b c`');
  });
});

describe('the Rollout View', () => {
  it('renders numbered steps, marks the low ones from the analysis, and records where each step landed', () => {
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
    expect(lines[view.rollouts[0]?.steps[0]?.headerLine ?? -1]).toBe('### [1/2] score 0.90');
    expect(lines.slice(step?.startLine, step?.endLine)).toEqual(['Second', 'step.']);
    expect(view.text).toContain('## Gold\n\n20');
    expect(view.text).toContain('- ⚠ Suspected false positive (PROF drops it, a step below the threshold): step 2 of 2 scores 0.12');
    expect(view.text).not.toContain('abelled');
    // The user's label is in the rollout's header, and only on the rollout it belongs to.
    const labelled = renderRollouts([detail], { fileLabel: 'r.jsonl', settings, labelOf: (id) => (id === 4 ? 'labelled: first wrong step 2' : null) });
    expect(labelled.text.split('\n').slice(0, 8)).toContain('- Labelled: first wrong step 2');
    expect(renderRollouts([detail], { fileLabel: 'r.jsonl', settings, labelOf: () => null }).text).toBe(view.text);
  });
});
