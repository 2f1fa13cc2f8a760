/**
 * Groups are prompts: a group key is the prompt (with its gold) or an explicit uid/group field,
 * never a per-record id. PROF compares rollouts of one prompt; a group of one compares nothing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readText } from '../../../../src/core/read/reader';
import { prepareRecord } from '../../../../src/core/formats/prepareRollout';
import { resolveSettings } from '../../../../src/core/profSettings';
import { groupIds } from '../../../../src/core/lines/decisionLines';

function groupsOf(text: string, fileName: string): string[] {
  const settings = resolveSettings();
  return readText(text, fileName).records.flatMap((record) => prepareRecord(record, { settings, rawOffsets: false, firstId: 0 }).rollouts.map((p) => p.rollout.group));
}

function sizes(groups: readonly string[]): number[] {
  const counts = new Map<string, number>();
  for (const g of groups) counts.set(g, (counts.get(g) ?? 0) + 1);
  return [...counts.values()];
}

describe('group keys', () => {
  it('ProcessBench: items with the same problem are one group, whatever their ids', () => {
    const text = readFileSync(join(__dirname, '../../../fixtures/processbench-gsm8k-sample.json'), 'utf8');
    const groups = groupsOf(text, 'processbench.json');
    expect(sizes(groups)).toEqual([2, 2, 1]);
    expect([...groupIds(groups.map((group) => ({ group }))).values()]).toEqual(['g1', 'g2', 'g3']);
  });

  it('flat and chat records: a record id is not a group, the prompt is', () => {
    const flat = [
      { id: 'r1', prompt: 'P', response: 'a', answer: '1' },
      { id: 'r2', prompt: 'P', response: 'b', answer: '1' },
      { id: 'r3', messages: [{ role: 'user', content: 'P' }, { role: 'assistant', content: 'c' }], answer: '1' },
      { id: 'r4', prompt: 'Q', response: 'd', answer: '1' },
    ].map((r) => JSON.stringify(r)).join('\n');
    expect(sizes(groupsOf(flat, 'x.jsonl'))).toEqual([3, 1]);
  });

  it('an explicit uid or group field wins over the prompt', () => {
    const lines = [
      { uid: 'u1', prompt: 'P', response: 'a' },
      { uid: 'u1', prompt: 'P, reworded', response: 'b' },
      { group_id: 7, prompt: 'P', response: 'c' },
    ].map((r) => JSON.stringify(r)).join('\n');
    expect(groupsOf(lines, 'x.jsonl')).toEqual(['uid=u1', 'uid=u1', 'group_id=7']);
  });

  it('a record without a prompt is its own group: a shared gold answer is no evidence of a shared prompt', () => {
    const lines = [
      { idx: 0, gt: '13', code: ['a', 'b'], pred: ['13', '12'] },
      { idx: 1, gt: '13', code: ['c'], pred: ['13'] },
      { response: 'd', answer: '13' },
      { response: 'e', answer: '13' },
    ].map((r) => JSON.stringify(r)).join('\n');
    expect(groupsOf(lines, 'x.jsonl')).toEqual(['line=1', 'line=1', 'line=2', 'line=3', 'line=4']);
  });

  it('labelled formats group by problem: PRM800K (problem + gold), Math-Shepherd and keyed solutions', () => {
    const data = (name: string): string => readFileSync(join(__dirname, '../../../fixtures/data', name), 'utf8');
    // Records 3–8 of the phase-2 sample are six solutions to one problem.
    expect(sizes(groupsOf(data('prm800k_phase2_train_sample9.jsonl'), 'p.jsonl'))).toContain(6);
    expect(sizes(groupsOf(data('gsm8k_openai_example_model_solutions_first120.jsonl'), 'g.jsonl')).every((n) => n === 4)).toBe(true);
  });

  it('integer ids beyond 2^53 keep their exact text: four distinct uids are four groups (they rounded to one)', () => {
    const lines = [0, 1, 2, 3].flatMap((p) => [0, 1].map((i) => `{"uid": 1234567890123456789${p}, "prompt": "same", "response": "r${i}"}`)).join('\n');
    const groups = groupsOf(lines, 'x.jsonl');
    expect(groups.slice(0, 2)).toEqual(['uid=12345678901234567890', 'uid=12345678901234567890']);
    expect(sizes(groups)).toEqual([2, 2, 2, 2]);
    // The id as written, also in a JSON array and under a mapped path; a small id reads as before.
    const mapped = readText('[{"meta": {"id": 9007199254740993}, "response": "a"}, {"meta": {"id": 9007199254740992}, "response": "b"}]', 'a.json').records
      .flatMap((record) => prepareRecord(record, { settings: resolveSettings({ fields: { response: 'response', group: 'meta.id' } }), rawOffsets: false, firstId: 0 }).rollouts.map((p) => p.rollout.group));
    expect(mapped).toEqual(['group=9007199254740993', 'group=9007199254740992']);
    expect(groupsOf('{"uid": 42, "prompt": "p", "response": "a"}', 'x.jsonl')).toEqual(['uid=42']);
  });
});
