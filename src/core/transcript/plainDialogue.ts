/**
 * The plain-text dialogue template of R1-Zero-style training ("A conversation between User and
 * Assistant. … User: <question>\nAssistant: <think>"), which many first GRPO loops use instead of a
 * chat template: an instruction preamble, one `User:` turn, and the generation prompt `Assistant:`
 * (often with the opening `<think>`). Read like a chat template: the preamble is the system prompt,
 * the user turn is the question. Linear: a few native searches.
 */
import type { Turn } from './turns';

const USER = 'User:';
const ASSISTANT = 'Assistant:';
/** What may follow the generation prompt: an opening think tag, spaces. */
const GENERATION_TAIL = /^\s*(?:<think>)?\s*$/;

/**
 * The turns of an R1-Zero-style prompt, or null when `prompt` is not one: it must end with
 * `Assistant:` (and at most `<think>`) on its own line, and hold exactly one `User:` turn start.
 */
export function readPlainDialogue(prompt: string): Turn[] | null {
  const assistant = prompt.lastIndexOf(`\n${ASSISTANT}`);
  if (assistant < 0 || !GENERATION_TAIL.test(prompt.slice(assistant + 1 + ASSISTANT.length))) return null;
  const user = userTurnStart(prompt, assistant);
  if (user < 0) return null;
  const turns: Turn[] = [];
  if (user > 0) turns.push({ role: 'system', start: 0, end: user });
  turns.push({ role: 'user', start: user + USER.length, end: assistant });
  turns.push({ role: 'assistant', start: assistant + 1 + ASSISTANT.length, end: prompt.length });
  return turns;
}

/** Where the only `User:` turn starts (at the text's start or a line's), or -1. */
function userTurnStart(prompt: string, before: number): number {
  const atStart = prompt.startsWith(USER) ? 0 : -1;
  const onLine = prompt.indexOf(`\n${USER}`);
  const start = onLine >= 0 && onLine < before ? onLine + 1 : atStart;
  if (start < 0) return -1;
  // A second `User:` turn is a longer dialogue than this template: not read here.
  const again = prompt.indexOf(`\n${USER}`, start + USER.length);
  return again >= 0 && again < before ? -1 : start;
}
