/**
 * NeMo-RL's logs: `train_data_step{N}.jsonl` (`content` = [[prompt rendered with its template,
 * response, environment reply, …]], `rewards` = [r]) and `val_data_step{N}.jsonl` (the same with
 * `{role, content}` messages). The prompt's messages give the question; the response is the
 * assistant's turns with the replies between them as turns of their own.
 */
import type { SourceRecord } from '../../model';
import type { TrainerFormat } from '../trainers';
import type { AdaptResult } from '../formatDraft';
import { outcomeFromValue, type Json } from '../fields';
import { stepScoreFields } from '../stepScoreFields';
import { promptGroup, trainerDraft } from '../trainerDraft';
import { responseOf, type Part } from '../messageTurns';
import { questionOf } from '../../transcript/rolloutText';
import { taggedTemplateOf } from '../../transcript/tagged';
import { roleOf } from '../../transcript/turns';

export const FORMAT: TrainerFormat = {
  id: 'nemo-rl',
  name: 'NeMo-RL log',
  order: 40,
  owns: (value) => Array.isArray(value.content) && Array.isArray(value.rewards),
  adapt: adaptNemoRl,
};

/** NeMo-RL's training and validation logs. */
function adaptNemoRl(record: SourceRecord): AdaptResult | null {
  const value = record.value as Json;
  const messages = (value.content as unknown[])[0];
  if (!Array.isArray(messages) || messages.length === 0) return null;
  const parts = messages.every((m) => typeof m === 'string') ? trainParts(messages as string[]) : validationParts(messages);
  if (!parts) return null;
  const promptEnd = parts.findIndex((p) => p.role === 'assistant');
  if (promptEnd <= 0) return null;
  const prompt = parts.slice(0, promptEnd).map((p) => p.text).join('');
  const read = questionOf(prompt);
  const reward = (value.rewards as unknown[])[0];
  return {
    drafts: [trainerDraft('nemo-rl', {
      group: promptGroup(prompt, null, record.line),
      prompt: read.question,
      ...responseOf(parts.slice(promptEnd)),
      fileOutcome: outcomeFromValue(reward),
      outcomeField: 'rewards',
      ...stepScoreFields(value),
      promptReading: read.reading,
      rewards: [{ name: 'reward', value: typeof reward === 'number' || typeof reward === 'boolean' ? reward : null }],
    })],
    diagnostics: [],
  };
}

/**
 * A training log holds the messages' texts only: the leading ones rendered with the chat template
 * (its special tokens in them) are the prompt; then the assistant and the environment take turns.
 */
function trainParts(texts: readonly string[]): Part[] {
  let promptEnd = 0;
  while (promptEnd < texts.length - 1 && taggedTemplateOf(texts[promptEnd] as string) !== null) promptEnd++;
  promptEnd = Math.max(1, promptEnd);
  return texts.map((text, i): Part => ({
    role: i < promptEnd ? 'user' : (i - promptEnd) % 2 === 0 ? 'assistant' : 'tool',
    text,
    path: ['content', 0, i],
  }));
}

/** A validation log's `{role, content}` messages (the environment's replies are tool turns). */
function validationParts(messages: readonly unknown[]): Part[] | null {
  const parts: Part[] = [];
  for (const [i, m] of messages.entries()) {
    const message = m as Json;
    if (message === null || typeof message !== 'object' || typeof message.content !== 'string') return null;
    const role = message.role === 'environment' ? 'tool' : typeof message.role === 'string' ? roleOf(message.role) : null;
    if (role === null) return null;
    parts.push({ role, text: message.content, path: ['content', 0, i, 'content'] });
  }
  return parts;
}
