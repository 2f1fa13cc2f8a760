import { describe, expect, it } from 'vitest';
import { groupPointerText } from '../../../src/vscode/problemsText';

const member = (kept: boolean): { decision: { kept: boolean } } => ({ decision: { kept } });

describe('the related line of a Problems entry', () => {
  it('is one line for the whole group, pointing at the group panel', () => {
    const group = [member(true), member(true), member(false), ...Array.from({ length: 13 }, () => member(false))];
    expect(groupPointerText(group as never)).toBe('group of 16 (2 kept, 14 dropped): Show PROF Group opens the group panel');
  });

  it('is left out for a rollout alone in its group', () => {
    expect(groupPointerText([member(true)] as never)).toBeNull();
  });
});
