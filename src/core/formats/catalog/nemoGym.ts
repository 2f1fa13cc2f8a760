/**
 * NeMo Gym's rollouts (`ng_collect_rollouts`): one line per rollout, an OpenAI Responses API
 * exchange — `responses_create_params` (the request: `input` messages, `instructions`) and
 * `response` (its `output` items: `reasoning`, `message` with `output_text` parts, `function_call`,
 * `function_call_output`) — beside what the resources server's `verify` returned: `reward`, and for
 * math servers `expected_answer` (the gold), `extracted_answer`, `library_reward`, the judge's calls.
 * The question is the last user message; the response is the last assistant message's text, as the
 * chat reader takes it. Rollouts of one question are its group.
 */
import type { SourceRecord } from '../../model';
import type { TrainerFormat } from '../trainers';
import type { AdaptResult } from '../formatDraft';
import { asText, outcomeFromValue, type Json } from '../fields';
import { rewardValue } from '../rewardFields';
import { promptGroup, trainerDraft } from '../trainerDraft';
import { readMessages, type PromptTurn } from '../../transcript/promptReading';
import { roleOf } from '../../transcript/turns';

export const FORMAT: TrainerFormat = {
  id: 'nemo-gym',
  name: 'NeMo Gym rollouts',
  order: 90,
  owns: isNemoGymRollout,
  adapt: adaptNemoGym,
};

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A NeMo Gym rollout line: a Responses API request and its response. */
function isNemoGymRollout(value: Json): boolean {
  return isObject(value.responses_create_params) && isObject(value.response) && Array.isArray((value.response as Json).output);
}

/** A message's text: a string, or its text parts (`input_text` / `output_text`) joined. */
function textOf(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  const parts = content.filter((p): p is Json => isObject(p) && typeof p.text === 'string').map((p) => p.text as string);
  return parts.length ? parts.join('') : null;
}

/** The request's turns: `instructions` as the system prompt, then its `input` (a string is one user message). */
function requestTurns(request: Json): PromptTurn[] {
  const turns: PromptTurn[] = [];
  if (typeof request.instructions === 'string' && request.instructions !== '') turns.push({ role: 'system', text: request.instructions });
  if (typeof request.input === 'string') turns.push({ role: 'user', text: request.input });
  else if (Array.isArray(request.input)) {
    for (const item of request.input) {
      if (!isObject(item) || typeof item.role !== 'string') continue;
      const role = roleOf(item.role);
      const text = textOf(item.content);
      if (role !== null && text !== null) turns.push({ role, text });
    }
  }
  return turns;
}

/** The last assistant message of the output: its text and, when it is one part, its path. */
function lastAnswer(output: readonly unknown[]): { text: string; path: (string | number)[] | null } | null {
  for (let i = output.length - 1; i >= 0; i--) {
    const item = output[i];
    if (!isObject(item) || item.type !== 'message' || (item.role !== undefined && item.role !== 'assistant')) continue;
    const text = textOf(item.content);
    if (text === null) continue;
    const parts = item.content as unknown[];
    const path = typeof item.content === 'string' ? ['response', 'output', i, 'content'] : parts.length === 1 ? ['response', 'output', i, 'content', 0, 'text'] : null;
    return { text, path };
  }
  return null;
}

function adaptNemoGym(record: SourceRecord): AdaptResult {
  const value = record.value as Json;
  const turns = requestTurns(value.responses_create_params as Json);
  const read = readMessages(turns);
  const question = read?.question ?? '';
  const answer = lastAnswer((value.response as Json).output as unknown[]);
  const gold = asText(value.expected_answer);
  const rewards = ['reward', 'library_reward']
    .map((name) => ({ name, value: rewardValue(value[name]) }))
    .filter((r): r is { name: string; value: number } => typeof r.value === 'number');
  const diagnostics = answer === null
    ? [{ line: record.line, severity: 'warning' as const, code: 'no-response', message: `line ${record.line}: a NeMo Gym rollout whose response has no assistant message (expected an output item of type "message" with text)` }]
    : [];
  return {
    drafts: [trainerDraft('nemo-gym', {
      group: promptGroup(turns.filter((t) => t.role !== 'assistant').map((t) => t.text).join('\n\n'), gold, record.line),
      prompt: question,
      ...(read ? { promptReading: read.reading } : {}),
      response: answer?.text ?? '',
      gold,
      fileOutcome: outcomeFromValue(value.reward),
      outcomeField: 'reward',
      responsePath: answer?.path ?? null,
      rewards: rewards.length ? rewards : null,
    })],
    diagnostics,
  };
}
