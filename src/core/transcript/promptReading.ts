/**
 * The question a prompt asks. Trainers write the prompt as the policy saw it: a rendered chat
 * (ChatML, Llama 3, …), often with the special tokens stripped by the decoder. A process reward
 * model is asked about the question alone (its card's input), so the question is the last user
 * turn's content, the system prompt is kept apart, and how the question was read is recorded for
 * the hover. A transcript that cannot be read unambiguously is used whole, and says so.
 */
import { readGluedPrompt, readStrippedPrompt, type StrippedResult } from './stripped';
import { mayHoldTags, readTagged, taggedTemplateOf } from './tagged';
import { trimSpan } from './textSpan';
import { readPlainDialogue } from './plainDialogue';
import { MAX_ROLE_WORD, roleOf, type TemplateId, type Turn, type TurnRole } from './turns';

/** A turn of the prompt as the panel and the Rollout View show it. */
export interface PromptTurn {
  role: TurnRole;
  text: string;
}

/** How the question was read from a record's prompt. */
export interface PromptReading {
  /**
   * `plain`: the prompt is the question; `transcript`: read from a rendered chat; `messages`: from
   * a record's chat messages; `whole`: a transcript whose turns could not be told apart, used whole.
   */
  kind: 'plain' | 'transcript' | 'messages' | 'whole';
  template?: TemplateId;
  /** For a transcript: whether its special tokens were in the text or stripped by the decoder. */
  hasSpecialTokens?: boolean;
  /** For `whole`: what made the reading ambiguous. */
  problem?: string;
  /** The system prompt, kept apart from the question. */
  system: string | null;
  /** Every turn of the prompt, in order (empty for a plain prompt). */
  turns: PromptTurn[];
}

/** The reading of a plain prompt: one shared frozen value. */
export const PLAIN_PROMPT: PromptReading = Object.freeze({ kind: 'plain', system: null, turns: Object.freeze([]) as unknown as PromptTurn[] });

/** A prompt's question and how it was read. */
export interface ReadPrompt {
  question: string;
  reading: PromptReading;
}

/** The question of `prompt`: its last user turn when it is a rendered chat, else the prompt itself. */
export function readPrompt(prompt: string): ReadPrompt {
  if (isPlainPrompt(prompt)) return { question: prompt, reading: PLAIN_PROMPT };
  const tagged = taggedTemplateOf(prompt);
  if (tagged !== null) {
    const read = readTagged(prompt, tagged);
    if ('problem' in read) return whole(prompt, tagged, true, read.problem);
    return fromTurns(prompt, read.turns, tagged, true);
  }
  const stripped: StrippedResult = readStrippedPrompt(prompt);
  if (stripped !== null) return fromStripped(prompt, stripped, 'chatml');
  const glued = readGluedPrompt(prompt);
  if (glued !== null) return fromStripped(prompt, glued, 'llama3');
  const dialogue = readPlainDialogue(prompt);
  if (dialogue !== null) return fromTurns(prompt, dialogue, 'r1-zero', false);
  return { question: prompt, reading: PLAIN_PROMPT };
}

/** Most prompts are plain: no template tag, no role word on their first line, no `Assistant:` generation prompt (cheap to tell). */
export function isPlainPrompt(prompt: string): boolean {
  return !mayHoldTags(prompt) && !opensWithRoleWord(prompt) && !endsWithAssistantPrompt(prompt);
}

/**
 * A prompt told plain at a glance: no `<` or `[` (every template tag starts with one) and no role
 * word on its first line. Cheaper than looking it up in a cache (hashing a new string); a prompt
 * that holds either is read, and cached, as before.
 */
export function isPlainAtAGlance(prompt: string): boolean {
  return prompt.indexOf('<') === -1 && prompt.indexOf('[') === -1 && !opensWithRoleWord(prompt) && !endsWithAssistantPrompt(prompt);
}

/** Whether the prompt ends with an R1-Zero-style `Assistant:` generation prompt (its last 40 characters). */
function endsWithAssistantPrompt(prompt: string): boolean {
  return (prompt.length <= 40 ? prompt : prompt.slice(-40)).includes('Assistant:') && prompt.includes('User:');
}

/** Whether the first line is a role word (`system`, `user` …), as a stripped transcript's is. */
function opensWithRoleWord(prompt: string): boolean {
  const end = prompt.indexOf('\n');
  return end > 0 && end <= MAX_ROLE_WORD + 1 && roleOf(prompt.slice(0, end).replace(/\r$/, '')) !== null;
}

function fromStripped(prompt: string, result: Exclude<StrippedResult, null>, template: TemplateId): ReadPrompt {
  if ('problem' in result) return whole(prompt, template, false, result.problem);
  return fromTurns(prompt, result.turns, result.usesModelWord ? 'gemma' : template, false);
}

function fromTurns(prompt: string, turns: readonly Turn[], template: TemplateId, hasSpecialTokens: boolean): ReadPrompt {
  const shown: PromptTurn[] = [];
  let question: string | null = null;
  let system: string | null = null;
  for (const turn of turns) {
    const span = trimSpan(prompt, turn.start, turn.end);
    const text = prompt.slice(span.start, span.end);
    // The generation prompt (an empty assistant turn at the end) is the template's, not a turn.
    if (text === '' && turn.role === 'assistant') continue;
    shown.push({ role: turn.role, text });
    if (turn.role === 'user') question = text;
    if (turn.role === 'system' && system === null) system = text;
  }
  if (question === null || question === '') return whole(prompt, template, hasSpecialTokens, 'no user turn with words in it');
  return { question, reading: { kind: 'transcript', template, hasSpecialTokens, system, turns: shown } };
}

function whole(prompt: string, template: TemplateId, hasSpecialTokens: boolean, problem: string): ReadPrompt {
  return { question: prompt, reading: { kind: 'whole', template, hasSpecialTokens, problem, system: null, turns: [] } };
}

/** The reading of chat `messages`: the last user message is the question, a system message kept apart. */
export function readMessages(messages: readonly PromptTurn[]): ReadPrompt | null {
  let question: string | null = null;
  let system: string | null = null;
  for (const m of messages) {
    if (m.role === 'user') question = m.text;
    if (m.role === 'system' && system === null) system = m.text;
  }
  if (question === null) return null;
  return { question, reading: { kind: 'messages', system, turns: [...messages] } };
}

/** How the question was read, without the texts: what every rollout's hover and summary carry. */
export type QuestionReading = Pick<PromptReading, 'kind' | 'template' | 'hasSpecialTokens' | 'problem'>;

const questionReadings = new WeakMap<PromptReading, QuestionReading>();
const PLAIN_QUESTION: QuestionReading = Object.freeze({ kind: 'plain' });
/** The reading asked about last (rollouts of one prompt come together). */
let lastReading: { reading: PromptReading; light: QuestionReading } = { reading: PLAIN_PROMPT, light: PLAIN_QUESTION };

/** The reading without its texts; one object per reading, shared by the rollouts of one prompt. */
export function questionReadingOf(reading: PromptReading): QuestionReading {
  if (reading === PLAIN_PROMPT) return PLAIN_QUESTION;
  if (reading === lastReading.reading) return lastReading.light;
  let light = questionReadings.get(reading);
  if (light) lastReading = { reading, light };
  else {
    const { kind, template, hasSpecialTokens, problem } = reading;
    light = Object.freeze({ kind, ...(template ? { template } : {}), ...(hasSpecialTokens !== undefined ? { hasSpecialTokens } : {}), ...(problem ? { problem } : {}) });
    questionReadings.set(reading, light);
    lastReading = { reading, light };
  }
  return light;
}
