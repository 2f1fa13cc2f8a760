/**
 * prime-rl's episodes: one episode per line, each trace a rollout (`traces[].nodes[].message`,
 * `group.id`, the gold in `task.data.answer`). The prompt's messages give the question; the
 * response is the assistant's turns with the replies between them as turns of their own.
 */
import type { SourceRecord } from '../../model';
import type { TrainerFormat } from '../trainers';
import type { AdaptResult, RolloutDraft } from '../formatDraft';
import { asText, outcomeFromValue, readScores, type Json } from '../fields';
import { idText, scoreFields } from '../generic';
import { STEP_SCORE_KEYS } from '../stepScoreFields';
import { promptGroup, trainerDraft } from '../trainerDraft';
import { responseOf, TURN_SEPARATOR, type Part } from '../messageTurns';
import { readMessages, type PromptTurn } from '../../transcript/promptReading';
import { roleOf } from '../../transcript/turns';

export const FORMAT: TrainerFormat = {
  id: 'prime-rl',
  name: 'prime-rl traces',
  order: 30,
  owns: (value) => Array.isArray(value.traces) && value.task !== null && typeof value.task === 'object',
  adapt: adaptPrimeRl,
};

/** prime-rl's episodes: one rollout per trace. */
function adaptPrimeRl(record: SourceRecord): AdaptResult | null {
  const episode = record.value as Json;
  const traces = episode.traces as unknown[];
  // A 64-bit group id is read as written (as a double, distinct ids would merge).
  const groupId = idText((episode.group as Json | undefined)?.id, record.raw, ['group', 'id']);
  // Step scores `prof-lens score` wrote: one list per trace, under the first name it uses.
  const scoresKey = STEP_SCORE_KEYS.find((k) => Array.isArray(episode[k]));
  const scores = scoresKey ? (episode[scoresKey] as unknown[]) : null;
  const drafts: RolloutDraft[] = [];
  traces.forEach((t, index) => {
    const trace = t as Json;
    if (trace === null || typeof trace !== 'object' || !Array.isArray(trace.nodes)) return;
    const draft = primeTrace(trace, index, { episode, groupId, line: record.line });
    if (scores) Object.assign(draft, scoreFields(readScores(scores[index], `${scoresKey}[${index}]`)));
    drafts.push(draft);
  });
  if (drafts.length === 0 && traces.length > 0) return null;
  // Each trace is one rollout: filter keeps an episode's kept traces (and their scores) and nothing else changes.
  return { drafts, diagnostics: [], perResponse: { responses: ['traces'], ...(scores ? { stepScores: [scoresKey!] } : {}) } };
}

function primeTrace(trace: Json, index: number, at: { episode: Json; groupId: string | null; line: number }): RolloutDraft {
  const task = (trace.task ?? at.episode.task) as Json | undefined;
  const data = (task?.data ?? {}) as Json;
  const gold = asText(data.answer) ?? asText(data.ground_truth);
  const prompt: PromptTurn[] = [];
  const after: Part[] = [];
  (trace.nodes as unknown[]).forEach((n, k) => {
    const node = n as Json;
    const message = (node?.message ?? {}) as Json;
    const role = typeof message.role === 'string' ? roleOf(message.role) : null;
    if (role === null) return;
    const isReply = node.sampled === true || after.length > 0;
    if (!isReply) return void prompt.push({ role, text: contentText(message.content) });
    if (role !== 'assistant') return void after.push({ role, text: contentText(message.content), path: null });
    after.push(...assistantParts(message, ['traces', index, 'nodes', k, 'message', 'content']));
  });
  const read = readMessages(prompt);
  const question = read?.question ?? prompt.map((p) => p.text).join(TURN_SEPARATOR);
  const reward = traceReward(trace.rewards);
  return trainerDraft('prime-rl', {
    index,
    group: at.groupId !== null ? `group=${at.groupId}` : promptGroup(question, gold, at.line),
    prompt: question,
    ...responseOf(after),
    gold,
    fileOutcome: outcomeFromValue(reward.value),
    outcomeField: reward.field,
    ...(read ? { promptReading: read.reading } : {}),
    rewards: reward.fields,
  });
}

/** An assistant message's reasoning and text as turns, and its tool calls as tool-call turns. */
function assistantParts(message: Json, path: (string | number)[]): Part[] {
  const parts: Part[] = [];
  if (typeof message.reasoning_content === 'string' && message.reasoning_content.trim() !== '') parts.push({ role: 'assistant', text: message.reasoning_content, path: null });
  const text = contentText(message.content);
  if (text !== '' || parts.length === 0) parts.push({ role: 'assistant', text, path: parts.length === 0 ? path : null });
  for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
    const c = call as Json;
    parts.push({ role: 'tool-call', text: `${String(c?.name ?? 'tool')}(${String(c?.arguments ?? '')})`, path: null });
  }
  return parts;
}

/** A message's text: a string, or the text parts of a list of content parts. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => (p !== null && typeof p === 'object' && typeof (p as Json).text === 'string' ? (p as Json).text as string : '')).filter((t) => t !== '').join('\n');
}

/**
 * A trace's reward as prime-rl sums it (score × weight over its named rewards); unknown when a
 * reward did not run (null). One named reward is the outcome under its own name.
 */
function traceReward(rewards: unknown): { value: number | null; field: string; fields: RolloutDraft['rewards'] } {
  if (rewards === null || typeof rewards !== 'object') return { value: null, field: 'rewards', fields: null };
  const entries = Object.entries(rewards as Json);
  let total = 0;
  let isComplete = entries.length > 0;
  const fields = entries.map(([name, r]) => {
    const reward = r as Json | null;
    const score = typeof reward?.score === 'number' ? reward.score : null;
    const weight = typeof reward?.weight === 'number' ? reward.weight : 1;
    if (score === null) isComplete = false;
    else total += score * weight;
    return { name, value: score };
  });
  const field = entries.length === 1 ? `rewards.${entries[0]![0]}` : 'rewards (score × weight, summed)';
  return { value: isComplete ? total : null, field, fields: fields.length ? fields : null };
}
