// The what-if's rule picker: the chosen rule re-decides the group through the same decider as the
// CLI's `--rule`, and the rows say what changed.
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyseText } from '../../../src/scoring/analysis/analyse';
import { summariseRollout, type RolloutDetail } from '../../../src/protocol/analysis';
import type { GroupData } from '../../../src/protocol/panel';
import type { FileAnalysis } from '../../../src/core/report/fileAnalysis';
import { groupData } from '../../../src/vscode/panel/panelData';
import { isSameWhatIf, recompute, whatIfOf } from '../../../webview/groupModel';
import { fieldsOf, paramFieldsOf, parseRuleParams, parseWhatIf } from '../../../webview/whatIfForm';
import { resolveSettings } from '../../../src/core/profSettings';

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

describe('the what-if rule picker', () => {
  it('GRPO keeps the whole group; the rollouts PROF dropped are marked as changed', () => {
    const data = group('g2');
    const whatIf = { ...whatIfOf(data.settings), curation: { rule: 'grpo', params: {} } };
    const rows = recompute(data, whatIf);
    expect(rows.every((r) => r.decision.kept)).toBe(true);
    expect(rows.filter((r) => r.isChanged).length).toBe(data.rows.filter((r) => !r.decision.kept).length);
    expect(isSameWhatIf(whatIf, whatIfOf(data.settings))).toBe(false);
  });

  it('the group decided by a rule is what the analysis under that rule decides', async () => {
    const under = await analyseText(readFileSync(FIXTURE, 'utf8'), { fileName: 'rollouts.jsonl', scorer: 'file', settings: resolveSettings({ curation: { rule: 'prime', params: {} } }) });
    const data = group('g2');
    const rows = recompute(data, { ...whatIfOf(data.settings), curation: { rule: 'prime', params: {} } });
    const expected = under.rollouts.filter((r) => r.group === 'uid=g2').map((r) => [r.line, r.decision.kept, r.decision.reason]);
    expect(rows.map((r) => [r.row.line, r.decision.kept, r.decision.reason]).sort()).toEqual(expected.sort());
  });

  it('the rule field round-trips, an unknown rule is marked invalid, and PROF leaves no rule in the settings', () => {
    const analysed = whatIfOf(group('g1').settings);
    const picked = parseWhatIf({ ...fieldsOf(analysed), rule: 'gfpo' }, analysed);
    expect(picked).toEqual({ ok: true, settings: { ...analysed, curation: { rule: 'gfpo', params: {} } } });
    expect(parseWhatIf({ ...fieldsOf(analysed), rule: 'nope' }, analysed)).toEqual({ ok: false, invalid: ['rule'] });
    expect(parseWhatIf(fieldsOf(analysed), analysed)).toEqual({ ok: true, settings: analysed });
  });

  it('a rule\'s parameters are read as --rule-param reads them: bad values are named, defaults leave no parameter', () => {
    expect(paramFieldsOf('gfpo', {})).toEqual({ num_remains_in_group: '', group_filter_func: 'length' });
    expect(parseRuleParams('gfpo', { num_remains_in_group: '', group_filter_func: 'length' })).toEqual({ ok: true, params: {} });
    expect(parseRuleParams('gfpo', { num_remains_in_group: ' 2 ', group_filter_func: 'reward_per_token' })).toEqual({ ok: true, params: { num_remains_in_group: 2, group_filter_func: 'reward_per_token' } });
    expect(parseRuleParams('gfpo', { num_remains_in_group: '2.5', group_filter_func: 'length' })).toEqual({ ok: false, invalid: ['num_remains_in_group'] });
    expect(parseRuleParams('prime', { accuracy_lower_bound: '0.5', accuracy_upper_bound: '1.5' })).toEqual({ ok: false, invalid: ['accuracy_upper_bound'] });
    // A bound with no default may not be left empty.
    expect(parseRuleParams('prime', { accuracy_lower_bound: '', accuracy_upper_bound: '0.8' })).toEqual({ ok: false, invalid: ['accuracy_lower_bound'] });
    expect(parseRuleParams('roc', { ...paramFieldsOf('roc', {}), reject_equal_reward: 'false' })).toEqual({ ok: true, params: { reject_equal_reward: false } });
  });

  it('GFPO told to keep one rollout per group keeps exactly one, the shortest; unset it keeps the whole group', () => {
    const data = group('g2');
    const unset = recompute(data, { ...whatIfOf(data.settings), curation: { rule: 'gfpo', params: {} } });
    expect(unset.filter((r) => r.decision.kept).length).toBe(data.rows.length);
    const one = recompute(data, { ...whatIfOf(data.settings), curation: { rule: 'gfpo', params: { num_remains_in_group: 1 } } });
    const kept = one.filter((r) => r.decision.kept);
    expect(kept.length).toBe(1);
    const members = analysis.rollouts.filter((r) => r.group === 'uid=g2');
    const shortest = Math.min(...members.map((r) => r.responseChars));
    expect(members.find((r) => r.line === kept[0]!.row.line && r.index === kept[0]!.row.index)!.responseChars).toBe(shortest);
  });
});
