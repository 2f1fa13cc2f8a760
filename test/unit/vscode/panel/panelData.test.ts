import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyseText } from '../../../../src/scoring/analyse';
import { summariseRollout, type RolloutDetail } from '../../../../src/protocol/analysis';
import type { FileAnalysis } from '../../../../src/core/analysis';
import { MAX_STEP_CHARS, dashboardData, groupData, groupLabels, rankScores } from '../../../../src/vscode/panel/panelData';

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
    expect(data.rows[1]?.steps[1]).toContain('\\frac{1}{2}');
    expect(data.rows[1]?.extracted).toBe('20');
    expect(data.settings).toMatchObject({ m: 4, remove: null, lambda: 10, maxSteps: 30, threshold: 0.5 });
    expect(data.settings).not.toHaveProperty('fields');
  });

  it('very long steps are shortened, and rows without details still show', () => {
    const r = summariseRollout(analysis.rollouts[0]!);
    const long: RolloutDetail = { ...r, prompt: 'p', response: 'x'.repeat(10_000), steps: [{ index: 0, text: 'x'.repeat(10_000), start: 0, end: 10_000 }] };
    const data = groupData({ source: 's', fileLabel: 'f', groupLabel: 'g', members: [r, summariseRollout(analysis.rollouts[1]!)], details: [long], summary: analysis });
    expect(data.rows[0]?.steps[0]?.length).toBeLessThan(MAX_STEP_CHARS + 40);
    expect(data.rows[0]?.steps[0]).toMatch(/more characters\)$/);
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

describe('the dashboard’s data', () => {
  it('the report and every suspected false positive with its group id and weakest step', () => {
    const data = dashboardData({ source: 's', fileLabel: 'f', rollouts: analysis.rollouts.map(summariseRollout), summary: analysis });
    expect(data.report.rollouts).toBe(12);
    expect(data.falsePositiveTotal).toBe(analysis.report.suspectedFalsePositives);
    expect(data.falsePositives.find((fp) => fp.line === 2)).toMatchObject({ groupLabel: 'g1', weakest: 0.12 });
    expect(data.scorerLabel).toBe(analysis.scorer.label);
  });
});

describe('group ids', () => {
  it('the file’s uid when the key is one, else g<n> in order of first appearance', () => {
    const labels = groupLabels([{ group: 'uid=a' }, { group: 'prompt\u0000gold' }, { group: 'uid=a' }, { group: 'other' }]);
    expect([...labels.values()]).toEqual(['a', 'g2', 'g3']);
  });
});
