/**
 * ROLL's RLVR rollout dump (`rollout_dump_data.step_{N}.jsonl` in `rollout_dump_dir`): one JSON
 * object per file, column-oriented — every key holds a list with one entry per response:
 * `prompt` (the dataset's question text) and/or `messages` (the chat as a JSON string),
 * `ground_truth`, `responses` (decoded without special tokens), `scores` (the reward worker's
 * score), `id`, `tag`, `domain`, `sampling_params`, `global_step`. The rows of one dataset `id` are
 * one prompt's group; the step is the file name's (every row's `global_step` is the same).
 */
import type { Diagnostic, SourceRecord } from '../../model';
import type { TrainerFormat } from '../trainers';
import type { AdaptResult, RolloutDraft } from '../formatDraft';
import { asText, outcomeFromValue, type Json } from '../fields';
import { rewardValue } from '../rewardFields';
import { readRolloutTexts } from '../../transcript/rolloutText';
import { readMessages, type PromptTurn } from '../../transcript/promptReading';
import { roleOf } from '../../transcript/turns';
import { promptGroup, trainerDraft } from '../trainerDraft';

export const FORMAT: TrainerFormat = {
  id: 'roll',
  name: 'ROLL rollout dump',
  order: 60,
  owns: isRollDump,
  adapt: adaptRoll,
};

/** A ROLL dump: the columns its writer always adds (`responses`, `scores`, `global_step`) as lists. */
function isRollDump(value: Json): boolean {
  return Array.isArray(value.responses) && Array.isArray(value.scores) && Array.isArray(value.global_step) && (Array.isArray(value.prompt) || Array.isArray(value.messages));
}

/** The list under `key`, or null. */
function column(value: Json, key: string): unknown[] | null {
  const list = value[key];
  return Array.isArray(list) ? list : null;
}

/** The question of row `i`: its `prompt` text, else the last user turn of its `messages`. */
function promptOf(prompt: unknown, messages: unknown): Pick<RolloutDraft, 'prompt' | 'promptReading'> & { text: string } {
  if (typeof prompt === 'string') {
    const texts = readRolloutTexts(prompt);
    return { text: prompt, prompt: texts.question, promptReading: texts.promptReading };
  }
  const turns = typeof messages === 'string' ? chatTurns(messages) : null;
  const read = turns ? readMessages(turns) : null;
  return read ? { text: messages as string, prompt: read.question, promptReading: read.reading } : { text: '', prompt: '' };
}

/** The `{role, content}` messages of a JSON string, or null. */
function chatTurns(messages: string): PromptTurn[] | null {
  try {
    const parsed: unknown = JSON.parse(messages);
    if (!Array.isArray(parsed)) return null;
    const turns: PromptTurn[] = [];
    for (const m of parsed as Json[]) {
      const role = typeof m?.role === 'string' ? roleOf(m.role) : null;
      if (role !== null && typeof m.content === 'string') turns.push({ role, text: m.content });
    }
    return turns;
  } catch {
    return null;
  }
}

/** Every response of a ROLL dump, one rollout each. */
function adaptRoll(record: SourceRecord): AdaptResult {
  const value = record.value as Json;
  const responses = value.responses as unknown[];
  const scores = value.scores as unknown[];
  const prompts = column(value, 'prompt');
  const messages = column(value, 'messages');
  const golds = column(value, 'ground_truth');
  const ids = column(value, 'id');
  const diagnostics: Diagnostic[] = [];
  for (const [key, list] of [['scores', scores], ['prompt', prompts], ['messages', messages], ['ground_truth', golds], ['id', ids]] as const) {
    if (list && list.length !== responses.length) {
      diagnostics.push({ line: record.line, severity: 'warning', code: 'array-length-mismatch', message: `line ${record.line}: ROLL dump: ${key} has ${list.length} entries but responses has ${responses.length}` });
    }
  }
  const drafts = responses.map((response, i) => {
    const read = promptOf(prompts?.[i], messages?.[i]);
    const gold = asText(golds?.[i]);
    const id = asText(ids?.[i]);
    const score = rewardValue(scores[i]);
    return trainerDraft('roll', {
      index: i,
      group: id !== null ? `id=${id}` : promptGroup(read.text, gold, record.line),
      prompt: read.prompt,
      ...(read.promptReading ? { promptReading: read.promptReading } : {}),
      response: typeof response === 'string' ? response : '',
      gold,
      fileOutcome: outcomeFromValue(scores[i]),
      outcomeField: 'scores',
      responsePath: typeof response === 'string' ? ['responses', i] : null,
      rewards: score === undefined ? null : [{ name: 'scores', value: score }],
    });
  });
  // Filtering keeps some responses of the file: every column is cut to the same rows.
  const others = Object.keys(value).filter((key) => key !== 'responses' && key !== 'scores' && Array.isArray(value[key]) && (value[key] as unknown[]).length === responses.length).map((key) => [key]);
  return { drafts, diagnostics, perResponse: { responses: ['responses'], outcomes: ['scores'], others } };
}
