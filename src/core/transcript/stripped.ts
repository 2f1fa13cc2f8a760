/**
 * Transcripts decoded with the template's special tokens stripped, as verl, TRL and NeMo-RL write
 * their texts (`skip_special_tokens=True`): ChatML then reads `system\n…\nuser\n…\nassistant\n`,
 * Gemma `user\n…\nmodel\n`, each role word alone on its line; Llama 3 reads
 * `system\n\n…user\n\n…assistant\n\n`, each role word glued to the end of the turn before it.
 * Only the role words are left, so a line saying just "user" inside a turn looks like a marker:
 * a reading whose turns do not follow each other as a chat does is refused, never guessed.
 */
import { Finder, MAX_ROLE_WORD, mayStartRoleWord, roleOf, type Turn, type TurnRole } from './turns';

/** A role word alone on a line: where the line starts and where the turn's content starts. */
interface RoleLine {
  role: TurnRole;
  word: string;
  lineStart: number;
  contentStart: number;
}

/** Every line of `text` that is a role word and nothing else, in one pass. */
export function roleLines(text: string): RoleLine[] {
  const found: RoleLine[] = [];
  let start = 0;
  while (start <= text.length) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    if (end - start <= MAX_ROLE_WORD + 1 && end > start && mayStartRoleWord(text, start)) {
      const word = text.slice(start, end).replace(/\r$/, '');
      const role = roleOf(word);
      if (role !== null) found.push({ role, word, lineStart: start, contentStart: newline === -1 ? end : newline + 1 });
    }
    if (newline === -1) break;
    start = newline + 1;
  }
  return found;
}

/** What a stripped reading found. */
export type StrippedResult = { turns: Turn[]; usesModelWord: boolean } | { problem: string } | null;

/**
 * A prompt in the line form (ChatML, Gemma), or null when it is not one: it must open with a role
 * line and end with the assistant's empty turn (the generation prompt, maybe with an empty
 * `<think></think>`). A problem is returned when it is one but its turns cannot be told apart.
 */
export function readStrippedPrompt(text: string): StrippedResult {
  const lines = roleLines(text);
  const first = lines[0];
  const last = lines[lines.length - 1];
  if (!first || first.lineStart !== 0 || first.role === 'assistant' || !last || last.role !== 'assistant' || lines.length < 2) return null;
  if (!isEmptyGenerationTurn(text.slice(last.contentStart))) return null;
  const turns: Turn[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as RoleLine;
    const next = lines[i + 1];
    // The content ends at the newline before the next role line (the one `<|im_end|>\n` became).
    const end = next ? Math.max(line.contentStart, next.lineStart - 1) : text.length;
    turns.push({ role: line.role, start: line.contentStart, end });
  }
  const problem = orderProblem(turns);
  if (problem) return { problem };
  return { turns, usesModelWord: lines.some((l) => l.word === 'model') };
}

/** The generation prompt's turn holds nothing, or an empty think block (Qwen3 with thinking off). */
function isEmptyGenerationTurn(rest: string): boolean {
  const trimmed = rest.trim();
  return trimmed === '' || trimmed === '<think>' || /^<think>\s*<\/think>$/.test(trimmed);
}

/**
 * Why these turns are not a chat, or null: the system prompt comes first only, and two turns of
 * the same speaker do not follow each other (a template joins them into one).
 */
function orderProblem(turns: readonly Turn[]): string | null {
  for (let i = 0; i < turns.length; i++) {
    const turn = turns[i] as Turn;
    const before = turns[i - 1];
    if (turn.role === 'system' && i > 0) return 'a line saying only "system" after the first turn: it cannot be told apart from a role word';
    if (before && before.role === turn.role && turn.role !== 'tool') {
      return `two "${turn.role}" role words in a row: a line saying only "${turn.role}" inside a turn cannot be told apart from a role word`;
    }
  }
  return null;
}

const GLUED_MARKERS: readonly { text: string; role: TurnRole }[] = [
  { text: 'system\n\n', role: 'system' },
  { text: 'user\n\n', role: 'user' },
  { text: 'assistant\n\n', role: 'assistant' },
  { text: 'ipython\n\n', role: 'tool' },
];

/**
 * A Llama 3 prompt decoded without its header tokens: `system\n\n…user\n\n…assistant\n\n`. Accepted
 * only when every marker found alternates as a chat does and the text ends with the assistant's.
 */
export function readGluedPrompt(text: string): StrippedResult {
  const opener = GLUED_MARKERS.find((m) => text.startsWith(m.text));
  if (!opener || opener.role === 'assistant' || !text.endsWith('assistant\n\n')) return null;
  const finders = GLUED_MARKERS.map((m) => new Finder(text, m.text));
  const marks: { role: TurnRole; at: number; contentStart: number }[] = [];
  let pos = 0;
  for (;;) {
    let best: { role: TurnRole; at: number; length: number } | null = null;
    GLUED_MARKERS.forEach((m, i) => {
      const at = (finders[i] as Finder).next(pos);
      if (at !== -1 && (best === null || at < best.at)) best = { role: m.role, at, length: m.text.length };
    });
    if (best === null) break;
    const found: { role: TurnRole; at: number; length: number } = best;
    marks.push({ role: found.role, at: found.at, contentStart: found.at + found.length });
    pos = found.at + found.length;
  }
  const turns = marks.map((m, i): Turn => ({ role: m.role, start: m.contentStart, end: marks[i + 1]?.at ?? text.length }));
  const problem = orderProblem(turns);
  if (problem) return { problem };
  return { turns, usesModelWord: false };
}
