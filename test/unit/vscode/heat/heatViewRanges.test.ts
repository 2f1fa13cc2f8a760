/** Tint runs placed in the Rollout View, where each step's text is written trimmed from column 0. */
import { describe, expect, it } from 'vitest';
import { viewRangesOf } from '../../../../src/vscode/heat/heatViewRanges';

describe('heat in the Rollout View', () => {
  const response = 'First we add.\n\n  Then 2 + 2\n= 4.';
  const steps = [
    { start: 0, end: 13, text: 'First we add.', startLine: 10, endLine: 11 },
    { start: 13, end: response.length, text: response.slice(13), startLine: 13, endLine: 15 },
  ];

  it('puts a run on the line and column where the view shows its text', () => {
    const at = response.indexOf('we');
    expect(viewRangesOf([at, at + 2, 2], steps)).toEqual([{ startLine: 10, startCharacter: 6, endLine: 10, endCharacter: 8, bucket: 2 }]);
    const eq = response.indexOf('= 4');
    expect(viewRangesOf([eq, eq + 3, 4], steps)).toEqual([{ startLine: 14, startCharacter: 0, endLine: 14, endCharacter: 3, bucket: 4 }]);
  });

  it('cuts a run at the step ends and leaves out the white space the view trims', () => {
    const ranges = viewRangesOf([8, response.indexOf('Then') + 4, 1], steps);
    expect(ranges).toEqual([
      { startLine: 10, startCharacter: 8, endLine: 10, endCharacter: 13, bucket: 1 },
      { startLine: 13, startCharacter: 0, endLine: 13, endCharacter: 4, bucket: 1 },
    ]);
  });
});
