// The what-if's rule picker: the chosen rule re-decides the group through the same decider as the
// CLI's `--rule`, and the rows say what changed.
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyseText } from '../../../src/scoring/analysis/analyse';
import { summariseRollout, type RolloutDetail } from '../../../src/protocol/analysis';
import type { GroupData } from '../../../src/protocol/panel';
import type { FileAnalysis } from '../../../src/core/fileAnalysis';
import { groupData } from '../../../src/vscode/panel/panelData';
import { isSameWhatIf, recompute, whatIfOf } from '../../../webview/groupModel';
import { fieldsOf, parseWhatIf } from '../../../webview/whatIfForm';
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
});
