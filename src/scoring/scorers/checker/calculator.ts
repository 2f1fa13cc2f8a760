/**
 * GSM8K calculator notes: `16 - 3 - 4 = <<16-3-4=9>>9`. The note is itself a claim (the expression
 * equals its result), and so is the number written right after it (it should be that result,
 * perhaps rounded). The rest of the sentence is checked as ordinary text with the note removed.
 *
 * Every step of a GSM8K-style dump holds a note, so this runs for most steps the checker sees: the
 * notes are found by hand (as `/<<([^<>]*)>>/g` finds them), each side is tokenized once (the
 * result of a note is the right side of its last claim and the left side of the display claim),
 * and what follows a note is read in place rather than from a copy of the rest of the step.
 */
import { SCALE_WORDS, type Claim } from './claims';
import { significantTokens } from './tokens';

/** The number written right after a note: `$18`, `9`, `2.5%`, not `3rd` or `9.5.2` (read from `lastIndex`). */
const DISPLAY = /\$?\s?(-?\d[\d,]*(?:\.\d+)?%?)(?![\p{L}\d]|\.\d)/uy;

/** The word after the displayed number, past any spaces (read from `lastIndex`). */
const NEXT_WORD = /\s*(\p{L}+)/uy;

/** Claims in a step's calculator notes, and the step's text with the notes taken out. */
export function extractCalculatorNotes(text: string): { claims: Claim[]; rest: string } {
  let open = nextNote(text, 0);
  if (open < 0) return { claims: [], rest: text };
  const claims: Claim[] = [];
  let rest = '';
  let from = 0;
  while (open >= 0) {
    // The note's inner text holds no `<` or `>`; the note ends at the first of them, which is `>>`.
    const innerEnd = noteEnd(text, open);
    addNoteClaims(text, open, innerEnd, claims);
    rest += text.slice(from, open);
    from = innerEnd + 2;
    open = nextNote(text, from);
  }
  return { claims, rest: rest + text.slice(from) };
}

/** Where the next note starts at or after `from` (its `<<`), or -1: a `<<` whose inner text ends at `>>`. */
function nextNote(text: string, from: number): number {
  for (let at = text.indexOf('<<', from); at >= 0; at = text.indexOf('<<', at + 1)) {
    const end = noteEnd(text, at);
    if (text.charCodeAt(end) === 62 && text.charCodeAt(end + 1) === 62) return at;
  }
  return -1;
}

/** The first `<` or `>` after the `<<` at `open` (the text's length when none). */
function noteEnd(text: string, open: number): number {
  let i = open + 2;
  for (let code = text.charCodeAt(i); i < text.length && code !== 60 && code !== 62; code = text.charCodeAt(++i));
  return i;
}

/** The claims of the note at `open`, whose inner text is `text[open + 2, innerEnd)`: each `a=b` in it, then the number shown after it. */
function addNoteClaims(text: string, open: number, innerEnd: number, claims: Claim[]): void {
  const inner = text.slice(open + 2, innerEnd);
  const parts = inner.split('=');
  if (parts.length < 2) return;
  let left = significantTokens(parts[0] as string);
  for (let k = 1; k < parts.length; k++) {
    const right = significantTokens(parts[k] as string);
    const claimText = parts.length === 2 ? inner : `${parts[k - 1]}=${parts[k]}`;
    claims.push({ lhs: left, rhs: right, relation: 'eq', origin: 'calculator', text: claimText });
    left = right;
  }
  const display = displayedAfter(text, innerEnd + 2);
  if (display !== null) {
    claims.push({ lhs: left, rhs: significantTokens(display), relation: 'eq', origin: 'display', text: `<<${inner}>>${display}` });
  }
}

/** The number shown right after a note ending at `at`, unless a scale word follows it (`<<3*1=3>>3 thousand`). */
function displayedAfter(text: string, at: number): string | null {
  let end = plainDigitsEnd(text, at);
  let display: string | undefined;
  if (end > at) display = text.slice(at, end);
  else {
    DISPLAY.lastIndex = at;
    const shown = DISPLAY.exec(text);
    display = shown?.[1];
    if (!shown || display === undefined) return null;
    end = at + shown[0].length;
  }
  return SCALE_WORDS.has(nextWordAt(text, end).toLowerCase()) ? null : display;
}

/**
 * Where `DISPLAY` would end when what follows the note is digits alone, then an ASCII character
 * that is not a letter, digit, `,`, `.` or `%` (or the text's end): there the regex matches the
 * digits, the first way it tries. `at` when the text is not of that kind (the regex decides).
 */
function plainDigitsEnd(text: string, at: number): number {
  let i = at;
  while (i < text.length && isDigitCode(text.charCodeAt(i))) i++;
  if (i === at || i === text.length) return i;
  const code = text.charCodeAt(i);
  const isLetter = (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  return code < 128 && !isLetter && code !== 44 && code !== 46 && code !== 37 ? i : at;
}

/** The word `NEXT_WORD` reads at `at` (`''` when none): ASCII letters after ASCII spaces read by hand, anything else by the regex. */
function nextWordAt(text: string, at: number): string {
  let i = at;
  while (i < text.length && isAsciiSpace(text.charCodeAt(i))) i++;
  let j = i;
  while (j < text.length && isAsciiLetter(text.charCodeAt(j))) j++;
  // Past the end, or stopped at an ASCII character that neither continues a word nor a space: decided.
  if (j === text.length || text.charCodeAt(j) < 128) return text.slice(i, j);
  NEXT_WORD.lastIndex = at;
  return NEXT_WORD.exec(text)?.[1] ?? '';
}

const isDigitCode = (code: number): boolean => code >= 48 && code <= 57;
const isAsciiLetter = (code: number): boolean => (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
const isAsciiSpace = (code: number): boolean => code === 32 || (code >= 9 && code <= 13);
