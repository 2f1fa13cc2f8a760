import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyseText } from '../../../../src/scoring/analysis/analyse';
import { summariseRollout, type RolloutDetail } from '../../../../src/protocol/analysis';
import { groupNamesOfAnalysis, type FileAnalysis } from '../../../../src/core/report/fileAnalysis';
import { MAX_GROUP_TEXT_CHARS, MAX_SHOWN_STEPS, MAX_STEP_CHARS, dashboardData, groupData, groupLabels, rankScores } from '../../../../src/vscode/panel/panelData';

let analysis: FileAnalysis;

beforeAll(async () => {
  analysis = await analyseText(readFileSync(join(__dirname, '../../../fixtures/e2e/rollouts.jsonl'), 'utf8'), { fileName: 'rollouts.jsonl', scorer: 'file' });
});

const detail = (i: number): RolloutDetail => {
  const r = analysis.rollouts[i]!;
  return { ...summariseRollout(r), prompt: r.prompt, response: r.response, steps: r.steps };
};

describe('the group view’s data', () => {
  it('the prompt, gold and one row per member with its step texts, and the settings for reset', () => {
    const members = analysis.rollouts.filter((r) => r.group === 'uid=g1');
    const data = groupData({
      source: 'file:///r.jsonl', fileLabel: 'r.jsonl', groupLabel: 'g1',
      members: members.map(summariseRollout), details: members.map((_, i) => detail(i)), summary: analysis,
    });
    expect(data.prompt).toContain('Maya has 48 apples');
    expect(data.gold).toBe('20');
    expect(data.rows).toHaveLength(6);
    expect(data.rows[1]?.steps[1]?.text).toContain('\\frac{1}{2}');
    expect(data.omitted).toBeNull();
    expect(data.rows[1]?.extracted).toBe('20');
    expect(data.settings).toMatchObject({ m: 4, remove: null, lambda: 10, maxSteps: 30, threshold: 0.5 });
    expect(data.settings).not.toHaveProperty('fields');
  });

  it('very long steps are shortened, and rows without details still show', () => {
    const r = summariseRollout(analysis.rollouts[0]!);
    const long: RolloutDetail = { ...r, prompt: 'p', response: 'x'.repeat(10_000), steps: [{ index: 0, text: 'x'.repeat(10_000), start: 0, end: 10_000 }] };
    const data = groupData({ source: 's', fileLabel: 'f', groupLabel: 'g', members: [r, summariseRollout(analysis.rollouts[1]!)], details: [long], summary: analysis });
    expect(data.rows[0]?.steps[0]?.text.length).toBeLessThan(MAX_STEP_CHARS + 40);
    expect(data.rows[0]?.steps[0]?.text).toMatch(/more characters\)$/);
    expect(data.rows[1]?.steps).toEqual([]);
  });

  it("carries each step's note (a critic's reason) to the panel, shortened like the steps", () => {
    const r = { ...summariseRollout(analysis.rollouts[0]!), stepScores: [1, 0, null], stepNotes: [null, 'flagged by the critic: 3 × 12 is 36, not 38.', 'not judged: after the first error'] };
    const data = groupData({ source: 's', fileLabel: 'f', groupLabel: 'g', members: [r], details: [], summary: analysis });
    expect(data.rows[0]?.stepNotes).toEqual(r.stepNotes);
  });

  it('an unscored rollout has no scores to rank (not an empty list)', () => {
    const r = summariseRollout(analysis.rollouts[0]!);
    expect(rankScores({ ...r, isScored: false })).toBeNull();
    expect(rankScores(r)).toEqual(r.stepScores);
  });
});

describe('what a long group sends is capped, and the panel says what it left out', () => {
  const steps = (n: number, chars: number): RolloutDetail['steps'] => Array.from({ length: n }, (_, i) => ({ index: i, text: `${i}:`.padEnd(chars, 'x'), start: 0, end: 0 }));
  function member(id: number, n: number, chars: number, low: number | null): { summary: ReturnType<typeof summariseRollout>; detail: RolloutDetail } {
    const base = summariseRollout(analysis.rollouts[0]!);
    const scores = Array.from({ length: n }, (_, i) => (i === low ? 0.05 : i === 700 ? 0.01 : 0.9));
    const weakest = scores.reduce((at, s, i) => (s < (scores[at] as number) ? i : at), 0);
    const lowSteps = scores.flatMap((s, i) => (s < 0.5 ? [i] : []));
    const summary = { ...base, id, stepScores: scores, lowSteps, firstLowStep: low, weakestStep: { step: weakest, score: scores[weakest] as number }, decision: { ...base.decision, id, steps: n } };
    return { summary, detail: { ...summary, prompt: 'What is it?', response: '', steps: steps(n, chars) } };
  }

  it('a rollout of 2,000 steps shows 40: the first, around the first low and the weakest step, the last; the rest is named as left out', () => {
    const m = member(0, 2_000, 50, 1_200);
    const data = groupData({ source: 's', fileLabel: 'f', groupLabel: 'g', members: [m.summary], details: [m.detail], summary: analysis });
    const shown = data.rows[0]!.steps.map((s) => s.index);
    expect(shown).toHaveLength(MAX_SHOWN_STEPS);
    expect(shown).toEqual([...shown].sort((a, b) => a - b));
    expect(shown).toEqual(expect.arrayContaining([0, 1, 1_198, 1_199, 1_200, 1_201, 1_202, 700, 1_999]));
    expect(data.rows[0]!.steps.find((s) => s.index === 1_200)?.text).toMatch(/^1200:/);
    expect(data.rows[0]!.stepCount).toBe(2_000);
    expect(data.omitted).toMatch(/1 long rollout shows 40 of its steps/);
    expect(data.rows[0]!.stepScores).toHaveLength(2_000);
  });

  it('a group of 300 rollouts with long steps fits the text budget, and says the texts were cut', () => {
    const members = Array.from({ length: 300 }, (_, i) => member(i, 60, 6_000, 3));
    const data = groupData({ source: 's', fileLabel: 'f', groupLabel: 'g', members: members.map((m) => m.summary), details: members.map((m) => m.detail), summary: analysis });
    const textChars = data.rows.reduce((sum, r) => sum + r.steps.reduce((n, s) => n + s.text.length, 0), 0);
    // The cut-off notes ("… (N more characters)") add a few characters per step.
    expect(textChars).toBeLessThan(MAX_GROUP_TEXT_CHARS * 1.5);
    expect(JSON.stringify(data).length).toBeLessThan(4_000_000);
    expect(data.omitted).toMatch(/300 long rollouts show 13 of their steps/);
    expect(data.omitted).toMatch(/step texts are cut at \d+ characters/);
    // Uncapped, this group would have sent 300 × 60 × 6,000 = 108 million characters.
    expect(data.rows.every((r) => r.steps.length === 13 && r.steps.some((s) => s.index === 3))).toBe(true);
  });

  it('a huge prompt is cut, and said to be', () => {
    const m = member(0, 3, 10, null);
    const data = groupData({ source: 's', fileLabel: 'f', groupLabel: 'g', members: [m.summary], details: [{ ...m.detail, prompt: 'p'.repeat(100_000) }], summary: analysis });
    expect(data.prompt.length).toBeLessThan(20_100);
    expect(data.omitted).toMatch(/prompt is cut/);
  });
});

describe('the dashboard’s data', () => {
  it('the report and every suspected false positive with its group id and weakest step', () => {
    const data = dashboardData({ source: 's', fileLabel: 'f', rollouts: analysis.rollouts.map(summariseRollout), summary: analysis });
    expect(data.report.rollouts).toBe(12);
    expect(data.falsePositiveTotal).toBe(analysis.report.suspectedFalsePositives);
    expect(data.falsePositives.find((fp) => fp.line === 2)).toMatchObject({ groupLabel: 'g1', weakest: 0.12 });
    expect(data.scorerLabel).toBe(analysis.scorer.label);
  });

  it('groups and suspected false positives carry their group’s name beside the id', () => {
    const rollouts = analysis.rollouts.map(summariseRollout);
    const data = dashboardData({ source: 's', fileLabel: 'f', rollouts, summary: analysis, groupNames: groupNamesOfAnalysis(analysis) });
    const first = analysis.rollouts.find((r) => r.group === 'uid=g1')!;
    expect(data.groups?.[0]).toMatchObject({ label: 'g1', name: first.prompt.replace(/\s+/g, ' ').trim() });
    expect(data.falsePositives.find((fp) => fp.line === 2)).toMatchObject({ groupLabel: 'g1', groupName: data.groups?.[0]?.name });
    expect(dashboardData({ source: 's', fileLabel: 'f', rollouts, summary: analysis }).groups?.[0]?.name).toBe('');
  });
});

describe('group ids', () => {
  it('the file’s uid when the key is one, else g<n> in order of first appearance', () => {
    const labels = groupLabels([{ group: 'uid=a' }, { group: 'prompt\u0000gold' }, { group: 'uid=a' }, { group: 'other' }]);
    expect([...labels.values()]).toEqual(['a', 'g2', 'g3']);
  });
});
