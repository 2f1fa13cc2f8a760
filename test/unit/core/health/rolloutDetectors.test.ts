import { describe, expect, it } from 'vitest';
import { formatGamingIn } from '../../../../src/core/health/formatGaming';
import { garbledIn } from '../../../../src/core/health/garbled';
import { repetitionIn } from '../../../../src/core/health/repetition';
import { rewardVisibleIn } from '../../../../src/core/health/rewardVisible';
import { findOnset } from '../../../../src/core/health/onset';
import { responseExtras } from '../../../../src/core/health/tokenFields';
import { mulberry32 } from '../../../../src/core/rules/random';

const REASONING = 'First we add 12 and 30 to get 42. Then we check the sum by subtracting 30 from 42, which gives 12 again.';

describe('repetition', () => {
  it('finds a line looped many times and names the span from its first to its last repeat', () => {
    const loop = Array.from({ length: 12 }, () => 'Wait, I need to check again.').join('\n');
    const response = `${REASONING}\n${loop}\n#### 42`;
    const f = repetitionIn(response)!;
    expect(f.note).toContain('repeated 12 times');
    expect(response.slice(f.span.start, f.span.end)).toBe(loop);
  });

  it('finds a phrase looping without line breaks, and leaves ordinary reasoning alone', () => {
    const phrase = 'so the answer must be checked once more because ';
    expect(repetitionIn(REASONING + ' ' + phrase.repeat(30))!.note).toMatch(/8-word phrases repeat/);
    expect(repetitionIn(`${REASONING}\n\n${REASONING.replace(/\d+/g, '7')}\n#### 42`)).toBeNull();
  });

  it('stays linear on a 100 KB loop and on 1 MB of distinct words', () => {
    const loop = 'the same eight words again and again here '.repeat(2500);
    const distinct = Array.from({ length: 150_000 }, (_, i) => `w${i}`).join(' ');
    const started = performance.now();
    expect(repetitionIn(loop)).not.toBeNull();
    expect(repetitionIn(distinct)).toBeNull();
    expect(performance.now() - started).toBeLessThan(1500);
  });
});

describe('garbled text', () => {
  it('names replacement characters, control bytes and runs of one token, with the span around them', () => {
    const f = garbledIn('The total is \uFFFD\uFFFD dollars.')!;
    expect(f.note).toContain('2 replacement characters');
    expect(f.span.text).toContain('\uFFFD');
    expect(garbledIn('value \u0007 here')!.note).toContain('U+0007');
    expect(garbledIn(`so ${'x'.repeat(80)} end`)!.note).toContain('"x" 80 times');
    expect(garbledIn(`${'FirstChild\n'.repeat(25)}`)!.note).toContain('run of one token');
  });

  it('leaves separators, tables and plain text alone', () => {
    expect(garbledIn(`${'-'.repeat(120)}\n| a | b |\n${'='.repeat(80)}\n${REASONING}`)).toBeNull();
  });
});

describe('format gaming', () => {
  it('finds an answer with no reasoning, several different answers, and an empty think', () => {
    expect(formatGamingIn('#### 42')!.note).toContain('0 words');
    const several = formatGamingIn(`${REASONING}\n#### 42\nor maybe\n#### 43`)!;
    expect(several.note).toContain('2 different final answers (42, 43)');
    expect(formatGamingIn(`<think>\n</think>\n${REASONING}\n#### 42`)!.note).toBe('an empty <think></think>');
  });

  it('does not count tool calls, tool replies or markdown headings as reasoning or answers', () => {
    const tool = '<tool_call>\n{"name": "calc", "arguments": {"answer": "#### 41"}}\n</tool_call>\nuser\n<tool_response>\nreward=0.0 a long reply with many words in it that is not the policy\n</tool_response>\nassistant\n#### 42';
    expect(formatGamingIn(tool)!.note).toContain('0 words');
    expect(formatGamingIn(`#### Step 1:\n${REASONING}\n#### Step 2:\nso\n#### 42`)).toBeNull();
    expect(formatGamingIn(`${REASONING}\n#### 42\nSo the answer is \\boxed{42}.`)).toBeNull();
  });

  it('reads one answer where a marker is repeated with words after it (a real verl rollout: "`#### 6` is the final answer")', () => {
    expect(formatGamingIn(`${REASONING}\n#### 6\nThe tour takes 6 hours. \`#### 6\` is the final answer.`)).toBeNull();
    expect(formatGamingIn(`${REASONING}\n#### 6 hours\nso\n#### 6`)).toBeNull();
    expect(formatGamingIn(`${REASONING}\n#### 12 + 5 = 17\nso\n#### 17`)!.note).toContain('2 different final answers');
  });
});

describe('reward visible to the policy', () => {
  const reply = (r: string): string => `<tool_call>\n{"name": "calc_reward", "arguments": {"answer": "15"}}\n</tool_call>\nuser\n<tool_response>\n${r}\n</tool_response>\nassistant\n`;

  it('names the replies that show a reward or verdict before the final answer', () => {
    const response = `${REASONING}\n${reply("Current parsed answer='15' reward=0.0")}Let me fix it.\n${reply('Your answer is correct')}#### 42`;
    const f = rewardVisibleIn(response, null)!;
    expect(f.strength).toBe(2);
    expect(f.span.text).toBe("Current parsed answer='15' reward=0.0");
    expect(response.slice(f.span.start, f.span.end).trim()).toBe(f.span.text);
  });

  it('does not count the policy\'s own words, a reply after the answer, or a response that never answers', () => {
    expect(rewardVisibleIn(`I think reward=1.0 here.\n#### 42`, null)).toBeNull();
    expect(rewardVisibleIn(`${REASONING}\n#### 42\n${reply('reward=1.0')}`, null)).toBeNull();
    expect(rewardVisibleIn(`${REASONING}\n${reply('reward=1.0')}`, null)).toBeNull();
    expect(rewardVisibleIn(`${REASONING}\n${reply('Current parsed answer=15')}#### 15`, null)).toBeNull();
  });
});

describe('what a record says beyond its text', () => {
  it('reads finish reasons, and NeMo-RL batches of log-probabilities under their loss mask', () => {
    expect(responseExtras({ finish_reason: 'length' }, 0).truncated).toBe(true);
    expect(responseExtras({ status: 'completed' }, 0).truncated).toBe(false);
    expect(responseExtras({ output: 'x' }, 0)).toEqual({ truncated: null, tokens: null });
    const nemo = { generation_logprobs: [[0, 0, -1, -3], [0, -2]], prev_logprobs: [[0, 0, -1.5, -3.5], [0, -2]], token_loss_mask: [[0, 0, 1, 1], [0, 1]] };
    expect(responseExtras(nemo, 0).tokens).toEqual({ entropy: null, logprob: -2, mismatch: 0.5 });
    expect(responseExtras(nemo, 1).tokens).toEqual({ entropy: null, logprob: -2, mismatch: 0 });
  });

  it('reads a prime-rl trace: its last call\'s finish reason and its sampled nodes\' tokens', () => {
    const record = { traces: [{ calls: [{ finish_reason: 'length' }], nodes: [{ sampled: false, logprobs: [-9] }, { sampled: true, logprobs: [-1, -2], entropy: [0.5, 1.5] }] }] };
    expect(responseExtras(record, 0)).toEqual({ truncated: true, tokens: { entropy: 1, logprob: -1.5, mismatch: null } });
  });
});

describe('the onset rule', () => {
  const noisy = (n: number, seed: number, at: number | null, shift: number): number[] => {
    const rand = mulberry32(seed);
    return Array.from({ length: n }, (_, i) => 0.2 + (rand() - 0.5) * 0.04 + (at !== null && i >= at ? shift : 0));
  };

  it('finds a lasting step shift within one step, for shifts at many places', () => {
    for (const at of [11, 14, 17, 21, 25, 28]) {
      for (const seed of [1, 2, 3]) {
        const onset = findOnset(noisy(30, seed, at, 0.1), { direction: 'up', minEffect: 0.05 });
        expect(Math.abs((onset?.at ?? -9) - at), `shift at ${at}, seed ${seed}`).toBeLessThanOrEqual(1);
      }
    }
  });

  it('finds none in noise, in a fall when a rise is looked for, in a one-step spike, or in too short a series', () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) expect(findOnset(noisy(40, seed, null, 0), { direction: 'up', minEffect: 0.05 })).toBeNull();
    expect(findOnset(noisy(30, 1, 15, -0.1), { direction: 'up', minEffect: 0.05 })).toBeNull();
    const spike = noisy(30, 1, null, 0);
    spike[20] = 0.9;
    expect(findOnset(spike, { direction: 'up', minEffect: 0.05 })).toBeNull();
    // A spike before a lasting shift does not hide the shift.
    const both = noisy(30, 2, 22, 0.1);
    both[15] = 0.9;
    expect(findOnset(both, { direction: 'up', minEffect: 0.05 })?.at).toBe(22);
    expect(findOnset([0, 0, 0, 1, 1], { direction: 'up', minEffect: 0.05 })).toBeNull();
  });
});

describe('bounded on hostile text', () => {
  it('reads 100 KB of unclosed tool calls, answer markers and boxes in linear time', () => {
    const texts = ['<tool_call>'.repeat(9000), '<tool_response>x reward=1 '.repeat(4000) + '#### 1', '#### 1\n'.repeat(14000), '\\boxed{'.repeat(14000)];
    const started = performance.now();
    for (const t of texts) {
      formatGamingIn(t);
      rewardVisibleIn(t, null);
      garbledIn(t);
      repetitionIn(t);
    }
    expect(performance.now() - started).toBeLessThan(3000);
  });
});
