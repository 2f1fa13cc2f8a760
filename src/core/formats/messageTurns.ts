/**
 * A response made of messages, as trainers that log whole message lists write it (NeMo-RL's logs,
 * prime-rl's episodes: `formats/catalog/nemoRl.ts`, `primeRl.ts`): the assistant's turns with the
 * replies between them as turns of their own.
 */
import type { RolloutDraft } from './formatDraft';
import type { Turn, TurnRole } from '../transcript/turns';

/** One message of a response: who says it, and where it is in the record (for raw offsets). */
export interface Part {
  role: TurnRole;
  text: string;
  path: (string | number)[] | null;
}

export const TURN_SEPARATOR = '\n\n';

/**
 * The response made of the messages after the prompt. One assistant message (with the
 * environment's verdict after it, maybe) is the response itself, as the record holds it; several
 * are joined, each message a turn, so the steps come from the assistant's turns only.
 */
export function responseOf(parts: readonly Part[]): Pick<RolloutDraft, 'response' | 'responseTurns' | 'responsePath'> {
  const assistant = parts.filter((p) => p.role === 'assistant');
  const only = assistant[0];
  if (assistant.length === 1 && only && parts[0] === only) {
    return { response: only.text, responsePath: only.path };
  }
  const turns: Turn[] = [];
  let response = '';
  for (const part of parts) {
    if (response !== '') response += TURN_SEPARATOR;
    turns.push({ role: part.role, start: response.length, end: response.length + part.text.length });
    response += part.text;
  }
  return { response, responseTurns: turns.length ? turns : null, responsePath: null };
}
