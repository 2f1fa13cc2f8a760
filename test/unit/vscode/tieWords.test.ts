/**
 * Ties read as ties: in the bundled example each prompt's incorrect class holds two rollouts with
 * the same consistency, one kept and one removed by file order.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { summariseRollout, type RolloutSummary } from '../../../src/protocol/analysis';
import { analyseText } from '../../../src/scoring/analysis/analyse';
import { isMostlyTies, tiedMembers, tieNoticeText, tieText } from '../../../src/core/presentation/tieWords';
import { lensTitle } from '../../../src/vscode/codeLensText';
import { fillSummary } from '../../../src/core/presentation/summaryWords';
import { DEFAULT_SUMMARY_TEMPLATE } from '../../../src/vscode/settingIds';
import { countTied } from '../../../src/vscode/tieCount';

const ROOT = join(__dirname, '../../..');
let rollouts: RolloutSummary[] = [];

beforeAll(async () => {
  const text = readFileSync(join(ROOT, 'examples/gsm-rollouts.jsonl'), 'utf8');
  rollouts = (await analyseText(text, { fileName: 'gsm-rollouts.jsonl', settings: {}, scorer: 'auto' })).rollouts.map(summariseRollout);
});

const group = (): RolloutSummary[] => rollouts.filter((r) => r.group === 'uid=gsm-01');

describe('ties in words', () => {
  it('finds the tie PROF broke by file order, and only it', () => {
    const tied = tiedMembers(group());
    expect([...tied.keys()].map((r) => r.line).sort()).toEqual([6, 7]);
    expect([...tied.values()]).toEqual([1, 1]);
  });

  it('the CodeLens says tied, removed (or kept) by file order, never a rank, for a tie', () => {
    const members = group();
    const tied = tiedMembers(members);
    const at = (line: number): RolloutSummary => members.find((r) => r.line === line) as RolloutSummary;
    expect(lensTitle(at(6), members, tied)).toBe('PROF: dropped · tied with 1 other, removed by file order · group of 8');
    expect(lensTitle(at(7), members, tied)).toBe('PROF: kept · tied with 1 other, kept by file order · group of 8');
    expect(lensTitle(at(1), members, tied)).toBe('PROF: kept · rank 2 of 5 correct · group of 8');
    expect(tieText(at(1), tied)).toBeNull();
  });

  it('a long line\'s lens leads with the rollout\'s summary, which sits out of sight at the line\'s end', () => {
    const members = group();
    const tied = tiedMembers(members);
    const at = (line: number): RolloutSummary => members.find((r) => r.line === line) as RolloutSummary;
    const summary = fillSummary(DEFAULT_SUMMARY_TEMPLATE, at(1));
    expect(lensTitle(at(1), members, tied, summary)).toBe('PROF: ✓ 31 vs 31 · weakest 0.90 (step 1) · kept · rank 2 of 5 correct · group of 8');
    expect(lensTitle(at(6), members, tied, fillSummary(DEFAULT_SUMMARY_TEMPLATE, at(6)))).toMatch(/tied with a kept rollout; removed by file order · tied with 1 other · group of 8$/);
    expect(lensTitle(at(7), members, tied, fillSummary(DEFAULT_SUMMARY_TEMPLATE, at(7)))).toMatch(/ · kept · tied with 1 other, kept by file order · group of 8$/);
  });

  it('counts nine ties in a group of ten as "tied with 9 others"', () => {
    const base = group().find((r) => r.line === 6) as RolloutSummary;
    const ten = Array.from({ length: 10 }, (_, i) => ({ ...base, id: i, line: i + 1, decision: { ...base.decision, kept: i === 9, reason: i === 9 ? 'kept' as const : 'dropped-tie' as const } }));
    expect(tieText(ten[0] as RolloutSummary, tiedMembers(ten))).toBe('tied with 9 others, removed by file order');
  });

  it('counts the rollouts in ties over a file; the example is not mostly ties', async () => {
    const tied = await countTied(rollouts, () => true);
    expect(tied).toBe(18);
    expect(isMostlyTies(18, 72)).toBe(false);
    expect(isMostlyTies(603, 1_024)).toBe(true);
  });

  it('says the scorer cannot tell them apart, with the figures', () => {
    expect(tieNoticeText('file', 4, 6)).toMatch(/^The file's step scores cannot tell 4 of 6 rollouts apart/);
    expect(tieNoticeText('checker', 603, 1_024)).toMatch(/^The checker cannot tell 603 of 1,024 rollouts apart: .*file order.*process reward model or a critic/);
  });
});
