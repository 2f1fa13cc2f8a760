/**
 * Transcripts that still carry their template's special tokens: ChatML (`<|im_start|>user\n…
 * <|im_end|>`), Llama 3 (`<|start_header_id|>user<|end_header_id|>\n\n…<|eot_id|>`), Gemma
 * (`<start_of_turn>user\n…<end_of_turn>`), Phi-3 (`<|user|>\n…<|end|>`), DeepSeek (`<｜User｜>…
 * <｜Assistant｜>`) and Mistral (`[INST] … [/INST]`). Each tag is looked for with a cached
 * `indexOf`, so a text is read in one pass whatever it holds.
 */
import { Finder, MAX_ROLE_WORD, roleOf, type TemplateId, type Turn, type TurnRole } from './turns';

/** A tag of a template: it opens a turn of a fixed role, opens one whose role word follows, or closes one. */
type Tag =
  | { text: string; kind: 'role'; role: TurnRole }
  | { text: string; kind: 'header'; headerEnd: string }
  | { text: string; kind: 'close' };

interface TaggedTemplate {
  id: TemplateId;
  /** Tags whose presence names the template (any one of them). */
  signatures: readonly string[];
  /** End-of-turn tags that name it in a response, which starts inside the assistant's turn. */
  closers: readonly string[];
  tags: readonly Tag[];
}

const TEMPLATES: readonly TaggedTemplate[] = [
  {
    id: 'chatml',
    signatures: ['<|im_start|>'],
    closers: ['<|im_end|>'],
    tags: [
      { text: '<|im_start|>', kind: 'header', headerEnd: '\n' },
      { text: '<|im_end|>', kind: 'close' },
      { text: '<|endoftext|>', kind: 'close' },
    ],
  },
  {
    id: 'llama3',
    signatures: ['<|start_header_id|>'],
    closers: ['<|eot_id|>', '<|eom_id|>'],
    tags: [
      { text: '<|start_header_id|>', kind: 'header', headerEnd: '<|end_header_id|>' },
      { text: '<|eot_id|>', kind: 'close' },
      { text: '<|eom_id|>', kind: 'close' },
      { text: '<|begin_of_text|>', kind: 'close' },
    ],
  },
  {
    id: 'gemma',
    signatures: ['<start_of_turn>'],
    closers: ['<end_of_turn>'],
    tags: [
      { text: '<start_of_turn>', kind: 'header', headerEnd: '\n' },
      { text: '<end_of_turn>', kind: 'close' },
      { text: '<bos>', kind: 'close' },
    ],
  },
  {
    id: 'deepseek',
    signatures: ['<｜User｜>', '<｜Assistant｜>'],
    closers: ['<｜end▁of▁sentence｜>'],
    tags: [
      { text: '<｜begin▁of▁sentence｜>', kind: 'role', role: 'system' },
      { text: '<｜User｜>', kind: 'role', role: 'user' },
      { text: '<｜Assistant｜>', kind: 'role', role: 'assistant' },
      { text: '<｜end▁of▁sentence｜>', kind: 'close' },
    ],
  },
  {
    id: 'phi3',
    signatures: ['<|user|>', '<|assistant|>'],
    closers: ['<|end|>'],
    tags: [
      { text: '<|system|>', kind: 'role', role: 'system' },
      { text: '<|user|>', kind: 'role', role: 'user' },
      { text: '<|assistant|>', kind: 'role', role: 'assistant' },
      { text: '<|end|>', kind: 'close' },
      { text: '<|endoftext|>', kind: 'close' },
    ],
  },
  {
    id: 'mistral',
    signatures: ['[/INST]'],
    closers: [],
    tags: [
      { text: '[INST]', kind: 'role', role: 'user' },
      { text: '[/INST]', kind: 'role', role: 'assistant' },
      { text: '</s>', kind: 'close' },
      { text: '<s>', kind: 'close' },
    ],
  },
];

/**
 * The start of any template's tag: most texts hold none, and are then not searched for each of
 * every template's tags in turn.
 */
const ANY_TAG = ['<|', '<｜', '<start_of_turn>', '<end_of_turn>', '<bos>', '[INST]', '[/INST]', '</s>', '<s>'];

/** True when the text may hold a template's special tokens (literal searches, no regular expression). */
export function mayHoldTags(text: string): boolean {
  // Every tag starts with `<` or `[`; most reasoning text has neither.
  if (text.indexOf('<') === -1 && text.indexOf('[') === -1) return false;
  for (const tag of ANY_TAG) if (text.includes(tag)) return true;
  return false;
}

/**
 * The template whose special tokens the text holds, if any (first by the order above). A response
 * (`isResponse`) may hold only the end of the assistant's turn.
 */
export function taggedTemplateOf(text: string, isResponse = false): TemplateId | null {
  if (!mayHoldTags(text)) return null;
  for (const t of TEMPLATES) if (t.signatures.some((s) => text.includes(s))) return t.id;
  if (isResponse) for (const t of TEMPLATES) if (t.closers.some((s) => text.includes(s))) return t.id;
  return null;
}

/** What a tagged reading found: turns, or why the text is not a transcript of that template. */
export type TaggedResult = { turns: Turn[] } | { problem: string };

/**
 * The turns of `text` in template `id`. `startRole`: the role of text before the first tag (a
 * response starts inside the assistant's turn); without it such text is ignored (a BOS, spaces).
 */
export function readTagged(text: string, id: TemplateId, startRole?: TurnRole): TaggedResult {
  const template = TEMPLATES.find((t) => t.id === id);
  if (!template) return { problem: `no template ${id}` };
  const finders = template.tags.map((tag) => new Finder(text, tag.text));
  const turns: Turn[] = [];
  let role: TurnRole | null = startRole ?? null;
  let contentStart = 0;
  let pos = 0;
  for (;;) {
    const next = nextTag(template.tags, finders, pos);
    const end = next ? next.at : text.length;
    if (role !== null) turns.push({ role, start: contentStart, end });
    if (!next) break;
    const tag = next.tag;
    const after = next.at + tag.text.length;
    if (tag.kind === 'close') {
      role = null;
      pos = after;
      continue;
    }
    if (tag.kind === 'role') {
      role = tag.role;
      contentStart = pos = after;
      continue;
    }
    const header = readHeader(text, after, tag.headerEnd);
    if (header === null) return { problem: `a ${tag.text} tag without a role after it` };
    const named = roleOf(header.word.trim().toLowerCase());
    if (named === null) return { problem: `a turn of an unknown role "${header.word.slice(0, MAX_ROLE_WORD)}"` };
    role = named;
    contentStart = pos = header.end;
  }
  return { turns };
}

function nextTag(tags: readonly Tag[], finders: readonly Finder[], from: number): { tag: Tag; at: number } | null {
  let best: { tag: Tag; at: number } | null = null;
  for (let i = 0; i < tags.length; i++) {
    const at = (finders[i] as Finder).next(from);
    // On a tie the longer tag wins: `[/INST]` is not `[INST]`, and no tag is a prefix of another here.
    if (at !== -1 && (best === null || at < best.at)) best = { tag: tags[i] as Tag, at };
  }
  return best;
}

/** The role word after a header tag, up to `headerEnd` (looked for within a few characters only). */
function readHeader(text: string, from: number, headerEnd: string): { word: string; end: number } | null {
  const window = text.slice(from, from + MAX_ROLE_WORD + 2 + headerEnd.length);
  const at = window.indexOf(headerEnd);
  if (at <= 0) return null;
  return { word: window.slice(0, at), end: from + at + headerEnd.length };
}
