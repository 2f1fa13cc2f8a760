import { describe, expect, it } from 'vitest';
import { assistantText, hasTurnTag, readResponse } from '../../../../src/core/transcript/response';
import { readPrompt } from '../../../../src/core/transcript/promptReading';

/** A verl multi-turn tool rollout's `output`, decoded with the special tokens stripped. */
const TOOL_ROLLOUT = [
  'Janet has 16 eggs and eats 3.',
  '',
  'Let me check the remainder with the tool.',
  '<tool_call>\n{"name": "calc_gsm8k_reward", "arguments": {"answer": "18"}}\n</tool_call>',
  'user',
  '<tool_response>\nCurrent parsed answer=18 reward=1.0. The answer is 42.\n</tool_response>',
  'assistant',
  'She sells 9 eggs at $2 each.',
  '',
  '#### 18',
].join('\n');

function texts(text: string, roles: string[]): string[] {
  const read = readResponse(text);
  return (read?.turns ?? []).filter((t) => roles.includes(t.role)).map((t) => text.slice(t.start, t.end).trim());
}

describe('reading a multi-turn response', () => {
  it('splits a stripped tool rollout into assistant text, a tool call and the tool reply', () => {
    const read = readResponse(TOOL_ROLLOUT);
    expect(read?.turns.map((t) => t.role)).toEqual(['assistant', 'tool-call', 'tool', 'assistant']);
    expect(texts(TOOL_ROLLOUT, ['tool'])).toEqual(['<tool_response>\nCurrent parsed answer=18 reward=1.0. The answer is 42.\n</tool_response>']);
    expect(texts(TOOL_ROLLOUT, ['assistant'])).toEqual(['Janet has 16 eggs and eats 3.\n\nLet me check the remainder with the tool.', 'She sells 9 eggs at $2 each.\n\n#### 18']);
  });

  it('blanks everything but the assistant text at its own offsets', () => {
    const read = readResponse(TOOL_ROLLOUT)!;
    const own = assistantText(TOOL_ROLLOUT, read.turns);
    expect(own.length).toBe(TOOL_ROLLOUT.length);
    expect(own).not.toContain('The answer is 42');
    expect(own).not.toContain('calc_gsm8k_reward');
    expect(own.indexOf('#### 18')).toBe(TOOL_ROLLOUT.indexOf('#### 18'));
  });

  it('reads the same rollout with its ChatML tokens kept', () => {
    const tagged = 'First I add.<tool_call>\n{"name": "calc"}\n</tool_call><|im_end|>\n<|im_start|>user\n<tool_response>\n5\n</tool_response><|im_end|>\n<|im_start|>assistant\nSo it is 5.\n\n#### 5<|im_end|>';
    const read = readResponse(tagged);
    expect(read?.hasSpecialTokens).toBe(true);
    expect(read?.turns.map((t) => t.role)).toEqual(['assistant', 'tool-call', 'tool', 'assistant']);
    expect(texts(tagged, ['assistant']).at(-1)).toBe('So it is 5.\n\n#### 5');
  });

  it('counts a user turn between assistant turns (a simulated user), but not a line saying "user" in the text', () => {
    const withUser = 'My answer is 4.\nuser\nAre you sure?\nassistant\nYes: #### 4';
    expect(readResponse(withUser)?.turns.map((t) => t.role)).toEqual(['assistant', 'user', 'assistant']);
    const wordOnly = 'The role field must say\nuser\nfor the question.\n\n#### 3';
    expect(readResponse(wordOnly)).toBeNull();
  });

  it('leaves a plain response alone, and cuts a trailing end-of-turn token off the assistant turn', () => {
    expect(readResponse('Step one.\n\nStep two.\n\n#### 7')).toBeNull();
    const read = readResponse('Step one.\n\n#### 7<|im_end|>');
    expect(read?.turns).toEqual([{ role: 'assistant', start: 0, end: 'Step one.\n\n#### 7'.length }]);
  });
});

describe('hostile transcripts are read in linear time', () => {
  const MB = 1 << 20;
  const hostile: Record<string, string> = {
    'ChatML openers': '<|im_start|>'.repeat(MB / 12),
    'ChatML openers with roles': '<|im_start|>user\n'.repeat(MB / 17),
    'role lines': 'user\n'.repeat(MB / 5) + 'assistant\n',
    'alternating role lines': 'user\nx\nassistant\ny\n'.repeat(MB / 20) + 'assistant\n',
    'glued Llama markers': ('user\n\n' + 'a'.repeat(10)).repeat(MB / 16) + 'assistant\n\n',
    'open tool calls': '<tool_call>'.repeat(MB / 11),
    'tool replies': '\nuser\n<tool_response>\n'.repeat(MB / 23),
    'unclosed headers': '<|start_header_id|>'.repeat(MB / 19),
  };
  for (const [name, text] of Object.entries(hostile)) {
    it(`a 1 MB line of ${name}`, () => {
      const prompt = readPrompt(text);
      expect(typeof prompt.question).toBe('string');
      const response = readResponse(text);
      expect(assistantText(text, response?.turns).length).toBe(text.length);
    }, 20_000);
  }
});

describe('the final answer of a tool rollout', () => {
  it('comes from the assistant text, never from a tool reply', async () => {
    const { finalAnswer } = await import('../../../../src/core/answer/finalAnswer');
    // The tool's reply says "The answer is 42"; the assistant's last line says 18.
    const turns = readResponse(TOOL_ROLLOUT)!.turns;
    expect(finalAnswer(assistantText(TOOL_ROLLOUT, turns))).toEqual({ text: '18', from: 'a-colon' });
    const cut = TOOL_ROLLOUT.slice(0, TOOL_ROLLOUT.indexOf('\nassistant\n'));
    const cutTurns = readResponse(cut)!.turns;
    expect(finalAnswer(assistantText(cut, cutTurns))?.text).not.toBe('42');
  });
});

describe('looking for a turn tag in one pass', () => {
  const TAGS = ['<|', '<｜', '<start_of_turn>', '<end_of_turn>', '[/INST]', '<tool_call>'];
  const bySearch = (text: string): boolean => TAGS.some((tag) => text.includes(tag));

  it('finds each tag among GSM8K calculator notes, and none in notes alone', () => {
    const notes = 'He runs 3*3=<<3*3=9>>9 sprints, so 9*60=<<9*60=540>>540 meters [1] <b> <s <e <t\n#### 540';
    expect(hasTurnTag(notes)).toBe(false);
    for (const tag of TAGS) {
      expect(hasTurnTag(`${notes}${tag}`), tag).toBe(true);
      expect(hasTurnTag(`${tag}${notes}`), tag).toBe(true);
      // A tag cut short is no tag.
      expect(hasTurnTag(`${notes}${tag.slice(0, -1)}`), tag.slice(0, -1)).toBe(false);
    }
  });

  it('agrees with a search for every tag on random texts made of the tags\' characters', () => {
    const alphabet = ['<', '|', '｜', '[', '/', 'INST', ']', 'start_of_turn>', 'end_of_turn>', 'tool_call>', 's', 'e', 't', 'x', '\n'];
    let seed = 7;
    const next = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n);
    for (let k = 0; k < 5000; k++) {
      let text = '';
      for (let j = next(12); j >= 0; j--) text += alphabet[next(alphabet.length)];
      expect(hasTurnTag(text), JSON.stringify(text)).toBe(bySearch(text));
    }
  });
});
