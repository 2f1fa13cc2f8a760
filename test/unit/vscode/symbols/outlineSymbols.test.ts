/**
 * The Outline of the bundled example: nine groups, each spanning its eight lines, each listing its
 * rollouts as the sidebar names them; a file too large for per-rollout symbols lists groups only.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { summariseRollout, type RolloutSummary } from '../../../../src/protocol/analysis';
import { analyseText } from '../../../../src/scoring/analysis/analyse';
import { MAX_OUTLINE_ROLLOUTS, outlineSymbols } from '../../../../src/vscode/symbols/outlineSymbols';

const ROOT = join(__dirname, '../../../..');
let rollouts: RolloutSummary[] = [];

beforeAll(async () => {
  const text = readFileSync(join(ROOT, 'examples/gsm-rollouts.jsonl'), 'utf8');
  rollouts = (await analyseText(text, { fileName: 'gsm-rollouts.jsonl', settings: {}, scorer: 'auto' })).rollouts.map(summariseRollout);
});

describe('the outline of a rollout file', () => {
  it('lists the groups in file order, each over its lines, with n, n+, n− and kept', () => {
    const symbols = outlineSymbols(rollouts);
    expect(symbols.map((s) => s.name)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => `uid=gsm-0${i}`));
    expect(symbols[1]).toMatchObject({ kind: 'group', firstLine: 9, lastLine: 16, detail: 'n 8 · n+ 5 · n− 3 · kept 4 · ⚠ 1' });
  });

  it('lists each group\'s rollouts by line, the suspected false positive badged', () => {
    const children = outlineSymbols(rollouts)[0]?.children ?? [];
    expect(children.map((c) => c.name)).toEqual(['line 1', 'line 2', 'line 3', 'line 4', 'line 5', 'line 6', 'line 7', 'line 8']);
    expect(children[2]).toMatchObject({ kind: 'rollout', firstLine: 3, lastLine: 3 });
    expect(children[2]?.detail).toContain('⚠ FP');
  });

  it('names the responses of a line that holds a whole group', () => {
    const grouped = rollouts.slice(0, 3).map((r, i) => ({ ...r, line: 1, index: i }));
    expect(outlineSymbols(grouped)[0]?.children.map((c) => c.name)).toEqual(['line 1, response 1 of 3', 'line 1, response 2 of 3', 'line 1, response 3 of 3']);
  });

  it('lists groups only in a file with more rollouts than the outline can hold', () => {
    const base = rollouts[0] as RolloutSummary;
    const many = Array.from({ length: MAX_OUTLINE_ROLLOUTS + 1 }, (_, i) => ({ ...base, id: i, line: i + 1, group: `g${Math.floor(i / 8)}` }));
    const symbols = outlineSymbols(many);
    expect(symbols[0]?.children).toEqual([]);
    expect(symbols[0]).toMatchObject({ firstLine: 1, lastLine: 8 });
  });
});
