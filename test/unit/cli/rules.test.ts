// `--rule` on the decision commands, and `prof-lens rules`: every rule side by side, with figures
// worked out by hand on a small file.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { runCli } from '../../../src/cli/main';
import { rulesText } from '../../../src/cli/commands/rules';
import { compareRules } from '../../../src/core/rules/compareRules';
import type { GroupMember } from '../../../src/core/rules/groups';
import { resolveSettings } from '../../../src/core/profSettings';

const ROOT = join(__dirname, '../../..');
const EXAMPLE = join(ROOT, 'examples/gsm-rollouts.jsonl');

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t), isStderrTty: false, cwd: ROOT });
  return { code, out, err };
}

describe('--rule on report', () => {
  it('names the rule and decides by it; without --rule the report says nothing of rules', async () => {
    const grpo = await cli(['report', EXAMPLE, '--rule', 'grpo']);
    expect(grpo.code).toBe(0);
    expect(grpo.out).toMatch(/rule: grpo \(GRPO \(keep all\)\) filter_groups=false/);
    expect(grpo.out).toMatch(/rollouts 72 in 9 groups · kept 72/);
    const prof = await cli(['report', EXAMPLE]);
    expect(prof.out).not.toMatch(/^rule:/m);
    expect(prof.out).toMatch(/kept 36/);
  });

  it('takes a rule\'s parameters under their reference names and refuses unknown ones', async () => {
    const gfpo = await cli(['report', EXAMPLE, '--rule', 'gfpo', '--rule-param', 'num_remains_in_group=3', '--json']);
    expect(JSON.parse(gfpo.out)).toMatchObject({ kept: 27, settings: { curation: { rule: 'gfpo', params: { num_remains_in_group: 3 } } } });
    expect(await cli(['report', EXAMPLE, '--rule', 'nope'])).toMatchObject({ code: 2, err: expect.stringMatching(/--rule must be one of prof, grpo, prime, gfpo, fapo, roc/) });
    expect(await cli(['report', EXAMPLE, '--rule', 'gfpo', '--rule-param', 'k=3'])).toMatchObject({ code: 2, err: expect.stringMatching(/gfpo has no parameter "k"/) });
    expect(await cli(['report', EXAMPLE, '--rule', 'prime', '--rule-param', 'accuracy_lower_bound=2'])).toMatchObject({ code: 2, err: expect.stringMatching(/a number from 0 to 1/) });
  });
});

describe('--rule fapo on a dump that carries the GenRM verdict', () => {
  it('drops the correct answer the dump marks is_flawed_positive, and nothing else', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prof-lens-fapo-'));
    const line = (response: string, score: number, flawed: boolean) => JSON.stringify({ uid: 'a', prompt: 'What is 2+2?', response, score, is_flawed_positive: flawed });
    writeFileSync(join(dir, 'd.jsonl'), [line('2+2=4.\n\nSo 4.', 1, false), line('2+2=5, minus 1 is 4.\n\nSo 4.', 1, true), line('2+2=5.\n\nSo 5.', 0, false)].join('\n') + '\n');
    const { out } = await cli(['report', join(dir, 'd.jsonl'), '--rule', 'fapo', '--rule-param', 'genrm=dump', '--json']);
    expect(JSON.parse(out)).toMatchObject({ kept: 2, byReason: { kept: 2, 'dropped-flawed-positive': 1 } });
  });
});

describe('prof-lens rules', () => {
  it('prints every rule and every pair', async () => {
    const { code, out } = await cli(['rules', EXAMPLE, '--rule-param', 'roc.down_sample_to_n=4']);
    expect(code).toBe(0);
    expect(out).toMatch(/^ {2}prof +36 +36 +18 +18 +0 +0$/m);
    expect(out).toMatch(/^ {2}grpo +72 +0 +45 +27 +9 +0$/m);
    expect(out).toMatch(/prof & grpo +36 {2}\(0 · 36\)/);
  });

  it('keeps its columns under their headers when a rule\'s name is longer than the column', () => {
    const figures = (rule: string, kept: number) => ({ rule, title: rule, kept, dropped: 8 - kept, keptCorrect: kept, keptIncorrect: 0, falsePositivesKept: 0, groupsDroppedWhole: 0, groupsTieBroken: 0, missing: [] });
    const text = rulesText('f.jsonl', {
      rollouts: 8, groups: 2, suspected: 0, kept: {},
      rules: [figures('prof', 4), figures('keep-shortest-correct', 2)],
      overlaps: [{ a: 'prof', b: 'keep-shortest-correct', both: 2, onlyA: 2, onlyB: 0 }],
    });
    const lines = text.split('\n');
    const header = lines.find((l) => l.startsWith('  rule'))!;
    const rows = lines.filter((l) => /^ {2}(prof|keep-shortest-correct) +\d/.test(l));
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      // The kept figure ends where its header ends, and so does the last column.
      expect(row.search(/\d /) + 1).toBe(header.indexOf('kept') + 'kept'.length);
      expect(row.length).toBe(header.length);
    }
    expect(lines).toContain('  prof & keep-shortest-correct       2  (2 · 0)');
  });

  it('counts by hand: kept, balance, flags let through, groups dropped whole, overlaps', () => {
    const m = (id: number, group: string, correct: boolean, scores: number[]): GroupMember => ({ id, group, correct, scores, signals: { chars: 100 } });
    const members = [
      m(0, 'A', true, [0.9, 0.9, 0.9]), m(1, 'A', true, [0.9, 0.2, 0.9]), m(2, 'A', false, [0.9, 0.9, 0.9]), m(3, 'A', false, [0.1, 0.1, 0.1]),
      m(4, 'B', true, [0.9, 0.9, 0.9]), m(5, 'B', true, [0.9, 0.9, 0.9]), m(6, 'B', true, [0.9, 0.9, 0.9]), m(7, 'B', true, [0.9, 0.9, 0.9]),
    ];
    const c = compareRules(members, resolveSettings({ m: 2 }));
    const figures = Object.fromEntries(c.rules.map((r) => [r.rule, [r.kept, r.keptCorrect, r.keptIncorrect, r.falsePositivesKept, r.groupsDroppedWhole]]));
    // PROF keeps 0 and 3 in A (balanced split), 6 and 7 in B (4 and 5 lose a tie); 1 is the one flagged.
    expect(c.suspected).toBe(1);
    expect(figures).toEqual({
      prof: [4, 3, 1, 0, 0], grpo: [8, 6, 2, 1, 0], prime: [4, 2, 2, 1, 1], gfpo: [8, 6, 2, 1, 0], fapo: [7, 5, 2, 0, 0], roc: [0, 0, 0, 0, 2],
    });
    const pair = (a: string, b: string) => c.overlaps.find((o) => o.a === a && o.b === b);
    expect(pair('prof', 'grpo')).toMatchObject({ both: 4, onlyA: 0, onlyB: 4 });
    expect(pair('prime', 'fapo')).toMatchObject({ both: 3, onlyA: 1, onlyB: 4 });
  });
});
