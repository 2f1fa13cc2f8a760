/**
 * Splitting text into plain runs and TeX math (`$…$`, `$$…$$`, `\(…\)`, `\[…\]`) so the panel can
 * render math with KaTeX and everything else as plain text. Pure: no DOM.
 */

/** A run of text: plain, or math to typeset (inline or display). */
export type TextPart =
  | { kind: 'text'; text: string }
  | { kind: 'math'; tex: string; isDisplay: boolean; source: string };

/** Formulas longer than this are shown as their source: typesetting them costs more than it helps. */
export const MAX_FORMULA_LENGTH = 2_000;
/** At most this many formulas per text are typeset; the rest stay as source. */
export const MAX_FORMULAS = 200;

const DELIMITERS: { open: string; close: string; isDisplay: boolean }[] = [
  { open: '$$', close: '$$', isDisplay: true },
  { open: '\\[', close: '\\]', isDisplay: true },
  { open: '\\(', close: '\\)', isDisplay: false },
  { open: '$', close: '$', isDisplay: false },
];

function isEscaped(text: string, at: number): boolean {
  let backslashes = 0;
  for (let i = at - 1; i >= 0 && text[i] === '\\'; i--) backslashes++;
  return backslashes % 2 === 1;
}

/**
 * Inline `$` math follows pandoc's rule so prices are not typeset: the opening `$` is followed by
 * a non-space, the closing one preceded by a non-space and not followed by a digit.
 */
function findInlineDollarClose(text: string, from: number): number {
  if (from >= text.length || /\s/.test(text[from] as string)) return -1;
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\n' && text[i + 1] === '\n') return -1;
    if (text[i] !== '$' || isEscaped(text, i)) continue;
    if (/\s/.test(text[i - 1] as string) || /[0-9]/.test(text[i + 1] ?? '')) return -1;
    return i;
  }
  return -1;
}

/**
 * Closing delimiters already searched for in vain, with where that search started: a later opener
 * finds none either. Without it a text of unclosed `\[` searched to its end once per opener.
 */
type Misses = Map<string, number>;

function findClose(text: string, delimiter: (typeof DELIMITERS)[number], from: number, misses: Misses): number {
  if (delimiter.open === '$') return findInlineDollarClose(text, from);
  const missedFrom = misses.get(delimiter.close);
  if (missedFrom !== undefined && missedFrom <= from) return -1;
  for (let i = text.indexOf(delimiter.close, from); i !== -1; i = text.indexOf(delimiter.close, i + 1)) {
    if (delimiter.close !== '$$' || !isEscaped(text, i)) return i;
  }
  misses.set(delimiter.close, from);
  return -1;
}

function pushText(parts: TextPart[], text: string): void {
  if (text === '') return;
  const last = parts[parts.length - 1];
  if (last?.kind === 'text') last.text += text;
  else parts.push({ kind: 'text', text });
}

/** The parts of a text, in order; concatenating their `text`/`source` gives the input back. */
export function splitMath(text: string): TextPart[] {
  const parts: TextPart[] = [];
  const misses: Misses = new Map();
  let formulas = 0;
  let plainFrom = 0;
  let i = 0;
  while (i < text.length) {
    const delimiter = DELIMITERS.find((d) => text.startsWith(d.open, i) && !isEscaped(text, i));
    const close = delimiter ? findClose(text, delimiter, i + delimiter.open.length, misses) : -1;
    if (!delimiter || close === -1) {
      i += delimiter ? delimiter.open.length : 1;
      continue;
    }
    const end = close + delimiter.close.length;
    const tex = text.slice(i + delimiter.open.length, close);
    pushText(parts, text.slice(plainFrom, i));
    const source = text.slice(i, end);
    if (tex.trim() === '' || tex.length > MAX_FORMULA_LENGTH || formulas >= MAX_FORMULAS) pushText(parts, source);
    else {
      parts.push({ kind: 'math', tex, isDisplay: delimiter.isDisplay, source });
      formulas++;
    }
    i = end;
    plainFrom = end;
  }
  pushText(parts, text.slice(plainFrom));
  return parts;
}

/** Whether a short answer (a gold or extracted answer) reads as TeX and is worth typesetting whole. */
export function looksLikeTex(answer: string): boolean {
  return answer.length <= MAX_FORMULA_LENGTH && /\\[a-zA-Z]+|[\^_{}]/.test(answer);
}

/**
 * Whether any of `texts` (prose) or `answers` (typeset whole when they read as TeX) has a formula
 * to typeset: a panel whose first paint has none need not wait for the typesetter.
 */
export function hasFormula({ texts, answers }: { texts: readonly string[]; answers: readonly (string | null)[] }): boolean {
  return answers.some((a) => a !== null && a !== '' && looksLikeTex(a)) || texts.some((t) => splitMath(t).some((p) => p.kind === 'math'));
}
