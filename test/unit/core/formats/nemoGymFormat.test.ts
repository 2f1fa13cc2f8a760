/**
 * NeMo Gym's Responses API rollouts read with no options: the question from the request's last user
 * message (its `instructions` kept apart as the system prompt), the response from the last assistant
 * message of the output (reasoning items, tool calls and tool outputs are not the answer), the gold
 * from `expected_answer`, the outcome from `reward`, and a rollout with no assistant message named.
 * The shapes follow the Responses API's documented items (`message` with `output_text` parts,
 * `function_call`, `function_call_output`, `reasoning`).
 */
import { describe, expect, it } from 'vitest';
import type { PreparedRollout } from '../../../../src/core/formats/prepareRollout';
import { prepareText } from './prepareText';
import type { Diagnostic } from '../../../../src/core/model';
import { analyseText } from '../../../../src/scoring/analysis/analyse';
import { eachRollout } from '../../../../src/core/report/fileAnalysis';

function read(lines: unknown[]): { rollouts: PreparedRollout[]; diagnostics: Diagnostic[] } {
  return prepareText(lines.map((l) => JSON.stringify(l)).join('\n') + '\n', 'gym.jsonl');
}

const message = (text: string) => ({ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] });
const rollout = (question: string, output: unknown[], extra: Record<string, unknown> = {}) => ({
  responses_create_params: { instructions: 'Put the final answer in \\boxed{}.', input: [{ role: 'user', type: 'message', content: [{ type: 'input_text', text: question }] }], tools: [] },
  response: { id: 'resp_1', object: 'response', output },
  ...extra,
});

describe('NeMo Gym rollouts (responses_create_params + response)', () => {
  it('reads a multi-turn tool rollout: the last assistant message is the response, the tool turns are not', () => {
    const output = [
      { type: 'reasoning', id: 'rs_1', summary: [] },
      { type: 'function_call', name: 'python', arguments: '{"code": "print(6*7)"}', call_id: 'c1' },
      { type: 'function_call_output', call_id: 'c1', output: '42' },
      message('Six sevens are 42.\n\nThe answer is \\boxed{42}.'),
    ];
    const { rollouts, diagnostics } = read([
      rollout('What is 6 times 7?', output, { reward: 1.0, expected_answer: '42' }),
      rollout('What is 6 times 7?', [message('It is \\boxed{41}.')], { reward: 0.0, expected_answer: '42' }),
    ]);
    expect(diagnostics).toEqual([]);
    expect(rollouts.map((r) => r.rollout.format)).toEqual(['nemo-gym', 'nemo-gym']);
    expect(rollouts.map((r) => r.rollout.prompt)).toEqual(['What is 6 times 7?', 'What is 6 times 7?']);
    expect(rollouts[0]!.rollout.response).toBe('Six sevens are 42.\n\nThe answer is \\boxed{42}.');
    expect(rollouts.map((r) => r.rollout.gold)).toEqual(['42', '42']);
    expect(rollouts.map((r) => r.rollout.fileOutcome.kind)).toEqual(['correct', 'incorrect']);
    expect(rollouts[0]!.rollout.group).toBe(rollouts[1]!.rollout.group);
  });

  it('grades against expected_answer when the reward is not in the record', async () => {
    const lines = [rollout('What is 6 times 7?', [message('So \\boxed{42}.')], { expected_answer: '42' }), rollout('What is 6 times 7?', [message('So \\boxed{41}.')], { expected_answer: '42' })];
    const a = await analyseText(lines.map((l) => JSON.stringify(l)).join('\n') + '\n', { fileName: 'gym.jsonl', scorer: 'checker' });
    expect([...eachRollout(a)].map((r) => r.outcome.kind)).toEqual(['correct', 'incorrect']);
  });

  it('names the line of a rollout whose output holds no assistant message', () => {
    const { rollouts, diagnostics } = read([rollout('What is 6 times 7?', [{ type: 'reasoning', id: 'rs_1', summary: [] }], { reward: 0 })]);
    expect(diagnostics.map((d) => d.message)).toContainEqual(expect.stringContaining('line 1: a NeMo Gym rollout whose response has no assistant message'));
    expect(rollouts.every((r) => r.rollout.response === '')).toBe(true);
  });
});
