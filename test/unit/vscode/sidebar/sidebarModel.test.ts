/**
 * The sidebar's tree for the bundled example, analysed as the editor analyses it: nine prompts of
 * eight rollouts, each with one suspected false positive, a tie and two step-count penalties.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { summariseRollout, type RolloutSummary } from '../../../../src/protocol/analysis';
import { analyseText } from '../../../../src/scoring/analysis/analyse';
import {
  fileNode, groupNodes, groupsInOrder, MAX_CHILDREN, rolloutNodes, type GroupNode, type RolloutNode,
} from '../../../../src/vscode/sidebar/sidebarModel';
import { isRolloutTarget } from '../../../../src/vscode/commandIds';

const ROOT = join(__dirname, '../../../..');
const SOURCE = 'file:///work/examples/gsm-rollouts.jsonl';
let rollouts: RolloutSummary[] = [];

beforeAll(async () => {
  const text = readFileSync(join(ROOT, 'examples/gsm-rollouts.jsonl'), 'utf8');
  const analysis = await analyseText(text, { fileName: 'gsm-rollouts.jsonl', settings: {}, scorer: 'auto' });
  rollouts = analysis.rollouts.map(summariseRollout);
});

function members(key: string): RolloutSummary[] {
  return groupsInOrder(rollouts).get(key) ?? [];
}

describe('the sidebar tree of the bundled example', () => {
  it('names the file with its rollouts, groups and suspected false positives', () => {
    expect(fileNode(SOURCE, rollouts, 'all')).toMatchObject({ label: 'gsm-rollouts.jsonl', description: '72 rollouts · 9 groups · ⚠ 9' });
  });

  it('lists the nine groups in file order with n, n+, n− and kept', () => {
    const groups = groupNodes(SOURCE, rollouts, 'all') as GroupNode[];
    expect(groups.map((g) => g.label)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => `uid=gsm-0${i}`));
    expect(groups[0]?.description).toBe('n 8 · n+ 5 · n− 3 · kept 4 · ⚠ 1');
    expect(groups[0]?.tooltip).toContain('line 1');
  });

  it('names each group by the readable id the Rollout Explorer filters on, so Open Rollout Explorer on a group opens that group', () => {
    const groups = groupNodes(SOURCE, rollouts, 'all') as GroupNode[];
    expect(groups.map((g) => g.groupId)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => `gsm-0${i}`));
    // The filter keeps those ids when only some groups are listed.
    expect((groupNodes(SOURCE, rollouts, 'falsePositive') as GroupNode[])[1]?.groupId).toBe('gsm-02');
  });

  it('lists a group\'s rollouts by line with the decision, the weakest step and the false-positive badge', () => {
    const nodes = rolloutNodes(SOURCE, members('uid=gsm-01'), 'all');
    expect(nodes.map((n) => n.label)).toEqual(['line 1', 'line 2', 'line 3', 'line 4', 'line 5', 'line 6', 'line 7', 'line 8']);
    const flagged = nodes[2] as RolloutNode;
    expect(flagged.description).toBe('✓ dropped: correct, steps least trusted · weakest 0.05 (step 1) · ⚠ FP');
    expect(flagged.mark).toBe('falsePositive');
    expect(flagged.tooltip).toContain('Suspected false positive');
    expect(nodes[0]?.mark).toBe('kept');
    expect(nodes[0]?.description).not.toContain('FP');
    // The tie reads as a tie, with its own icon.
    expect(nodes[5]).toMatchObject({ isTie: true, mark: 'dropped' });
    expect(nodes[5]?.description).toContain('tied with a kept rollout; removed by file order');
  });

  it('a rollout node is a rollout target, so Show PROF Group and Open Rollout View take it as it is', () => {
    const node = rolloutNodes(SOURCE, members('uid=gsm-02'), 'all')[2];
    expect(isRolloutTarget(node)).toBe(true);
    expect(node).toMatchObject({ source: SOURCE, rolloutId: 10, line: 11 });
  });

  it('filters to suspected false positives: every group keeps only its flagged rollout', () => {
    const groups = groupNodes(SOURCE, rollouts, 'falsePositive') as GroupNode[];
    expect(groups).toHaveLength(9);
    expect(groups[0]?.description).toContain('1 shown');
    const shown = rolloutNodes(SOURCE, members('uid=gsm-01'), 'falsePositive');
    expect(shown.map((n) => n.line)).toEqual([3]);
    expect(fileNode(SOURCE, rollouts, 'falsePositive').description).toContain('9 shown');
  });

  it('filters to dropped rollouts (ties included) and to unscored ones (none: the checker scored them all)', () => {
    expect(rolloutNodes(SOURCE, members('uid=gsm-01'), 'dropped').map((n) => n.line)).toEqual([3, 4, 6, 8]);
    expect(groupNodes(SOURCE, rollouts, 'unscored')).toEqual([]);
  });

  it('caps the groups listed and says how many were left out', () => {
    const many = Array.from({ length: MAX_CHILDREN + 5 }, (_, i) => ({ ...(rollouts[0] as RolloutSummary), id: i, line: i + 1, group: `g${i}` }));
    const nodes = groupNodes(SOURCE, many, 'all');
    expect(nodes).toHaveLength(MAX_CHILDREN + 1);
    expect(nodes[MAX_CHILDREN]).toEqual({ kind: 'more', label: '5 more groups not listed; filter to narrow' });
  });
});
