/**
 * The turns of a chat transcript rendered as text: who speaks, and where their words sit in the
 * text. Shared by the prompt reading (which turn is the question) and the response reading (which
 * spans are the assistant's own reasoning).
 */

/** Who a turn belongs to; `tool-call` is a call the assistant wrote inside its own turn. */
export type TurnRole = 'system' | 'user' | 'assistant' | 'tool' | 'tool-call';

/** One turn: `[start, end)` is its content in the text (role markers excluded). */
export interface Turn {
  role: TurnRole;
  start: number;
  end: number;
}

/** The chat templates a transcript is recognised in. */
export type TemplateId = 'chatml' | 'llama3' | 'gemma' | 'phi3' | 'deepseek' | 'mistral' | 'r1-zero';

/** Template names as people know them. */
export const TEMPLATE_NAMES: Readonly<Record<TemplateId, string>> = {
  chatml: 'ChatML',
  llama3: 'Llama 3',
  gemma: 'Gemma',
  phi3: 'Phi-3',
  deepseek: 'DeepSeek',
  mistral: 'Mistral [INST]',
  'r1-zero': 'R1-Zero "User: … Assistant:"',
};

/** A transcript found in a text. */
export interface Transcript {
  template: TemplateId;
  /** Whether the template's special tokens are in the text (false: decoded with them stripped). */
  hasSpecialTokens: boolean;
  turns: Turn[];
}

/** Role words as templates write them; `model` is Gemma's assistant, `ipython` Llama 3's tool. */
const ROLE_WORDS: ReadonlyMap<string, TurnRole> = new Map<string, TurnRole>([
  ['system', 'system'],
  ['developer', 'system'],
  ['user', 'user'],
  ['human', 'user'],
  ['assistant', 'assistant'],
  ['model', 'assistant'],
  ['tool', 'tool'],
  ['ipython', 'tool'],
  ['function', 'tool'],
  ['observation', 'tool'],
]);

/** The role a template's role word names, or null for a word that is not one. */
export function roleOf(word: string): TurnRole | null {
  return ROLE_WORDS.get(word) ?? null;
}

/** First letters of the role words: a line starting otherwise is not looked at further. */
const ROLE_INITIALS = new Set([...ROLE_WORDS.keys()].map((w) => w.charCodeAt(0)));

/** Whether a line starting at `at` may be a role word (its first letter is one's). */
export function mayStartRoleWord(text: string, at: number): boolean {
  return ROLE_INITIALS.has(text.charCodeAt(at));
}

/** The longest role word: a longer line or header is never a role marker (bounds every comparison). */
export const MAX_ROLE_WORD = 11;

/**
 * `text.indexOf(needle, from)` answered from a cache: callers ask with growing `from`, and a needle
 * that is absent is looked for once, not once per turn (which made long transcripts quadratic).
 */
export class Finder {
  private at = -2;

  constructor(private readonly text: string, private readonly needle: string) {}

  next(from: number): number {
    if (this.at === -1) return -1;
    if (this.at < from) this.at = this.text.indexOf(this.needle, from);
    return this.at;
  }
}
