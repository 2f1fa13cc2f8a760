import { describe, expect, it } from 'vitest';
import { readText } from '../../../../src/core/read/reader';
import { summariseRecords, type RecordBatch } from '../../../../src/scoring/run/summariseRecords';

const line = (step: Record<string, unknown>, group: string, correct: boolean, scores: number[]): string =>
  JSON.stringify({ input: group, output: scores.map(() => 'a step').join('\n\n'), gts: '1', score: correct ? 1 : 0, step_scores: scores, ...step });

function batches(lines: string[], size = 2): RecordBatch[] {
  const read = readText(lines.join('\n') + '\n', 'run.jsonl');
  const out: RecordBatch[] = read.records.length === 0 ? [{ records: [], diagnostics: read.diagnostics }] : [];
  for (let i = 0; i < read.records.length; i += size) out.push({ records: read.records.slice(i, i + size), diagnostics: i === 0 ? read.diagnostics : [] });
  return out;
}

describe('summarising one file of a run', () => {
  it('routes records of several steps in one file to their own step, by step or global_step', async () => {
    const lines = [
      line({ step: 1 }, 'p', true, [0.9, 0.8]),
      line({ global_step: 2 }, 'p', false, [0.2, 0.3]),
      line({ step: 1 }, 'p', false, [0.4, 0.5]),
      line({ step: 2 }, 'p', false, [0.6, 0.6]),
      line({ step: 2 }, 'q', true, [0.7, 0.7]),
    ];
    const figures = await summariseRecords(batches(lines), { file: '/runs/a/trace.jsonl', settings: {}, scorer: 'auto' });
    const byStep = Object.fromEntries(figures.parts.map((p) => [p.step, p]));
    expect(Object.keys(byStep)).toEqual(['1', '2']);
    expect(byStep[1]).toMatchObject({ rollouts: 2, groups: 1, correct: 1, incorrect: 1, firstLine: 1 });
    // Groups are per step: prompt "p" at step 2 is not the same group as at step 1.
    expect(byStep[2]).toMatchObject({ rollouts: 3, groups: 2, correct: 1, incorrect: 2, firstLine: 2, allCorrectGroups: 1, allIncorrectGroups: 1 });
    expect(figures.unstepped).toBe(0);
  });

  it("takes the file name's number for records without a step field; the field wins when present", async () => {
    const lines = [line({}, 'p', true, [0.9, 0.8]), line({ step: 31 }, 'p', false, [0.1, 0.2])];
    const figures = await summariseRecords(batches(lines), { file: '/runs/a/30.jsonl', settings: {}, scorer: 'auto' });
    expect(figures.parts.map((p) => [p.step, p.rollouts])).toEqual([[30, 1], [31, 1]]);
  });

  it('counts records that name no step when the file name has no number either', async () => {
    const figures = await summariseRecords(batches([line({}, 'p', true, [0.9, 0.8]), line({ step: 4 }, 'p', true, [0.9, 0.8])]), { file: 'rollouts.jsonl', settings: {}, scorer: 'auto' });
    expect(figures.unstepped).toBe(1);
    expect(figures.parts.map((p) => p.step)).toEqual([4]);
  });

  it('bounds the steps open at once: a step that comes back after being closed becomes a second part', async () => {
    const lines = [line({ step: 1 }, 'p', true, [0.9]), line({ step: 2 }, 'p', true, [0.9]), line({ step: 1 }, 'p', false, [0.1])];
    const figures = await summariseRecords(batches(lines, 1), { file: 'x.jsonl', settings: {}, scorer: 'auto', maxOpenSteps: 1 });
    expect(figures.parts.map((p) => [p.step, p.rollouts, p.firstLine])).toEqual([[1, 1, 1], [2, 1, 2], [1, 1, 3]]);
  });

  it('names unreadable lines and keeps summarising the rest', async () => {
    const lines = [line({ step: 1 }, 'p', true, [0.9]), '{"input": oops', line({ step: 1 }, 'p', false, [0.2])];
    const figures = await summariseRecords(batches(lines), { file: '1.jsonl', settings: {}, scorer: 'auto' });
    expect(figures.unreadableLines).toBe(1);
    expect(figures.problems).toEqual([expect.stringMatching(/^line 2: expected one JSON object per line/)]);
    expect(figures.parts[0]?.rollouts).toBe(2);
    expect(figures.error).toBeUndefined();
  });

  it('says so when a file is empty or holds no readable record', async () => {
    expect((await summariseRecords([], { file: '7.jsonl', settings: {}, scorer: 'auto' })).error).toBe('the file is empty');
    const garbage = await summariseRecords(batches(['not json', '[1, 2]']), { file: '7.jsonl', settings: {}, scorer: 'auto' });
    expect(garbage.error).toBe('no readable record (2 unreadable lines)');
    expect(garbage.problems).toHaveLength(2);
  });

  it('applies the PROF settings it is given (m)', async () => {
    const lines = [0.9, 0.8, 0.7, 0.2, 0.3, 0.4].map((s, i) => line({ step: 1 }, 'p', i < 3, [s, s]));
    const m4 = await summariseRecords(batches(lines), { file: 'a.jsonl', settings: {}, scorer: 'auto' });
    const m2 = await summariseRecords(batches(lines), { file: 'a.jsonl', settings: { m: 2 }, scorer: 'auto' });
    expect([m4.parts[0]?.kept, m2.parts[0]?.kept]).toEqual([4, 2]);
  });
});
