/**
 * GSM8K calculator notes: `16 - 3 - 4 = <<16-3-4=9>>9`. The note is itself a claim (the expression
 * equals its result), and so is the number written right after it (it should be that result,
 * perhaps rounded). The rest of the sentence is checked as ordinary text with the note removed.
 */
import { SCALE_WORDS, type Claim } from './claims';
import { tokenize, type Token } from './tokens';

const NOTE = /<<([^<>]*)>>/g;

/** The number written right after a note: `$18`, `9`, `2.5%`, not `3rd` or `9.5.2`. */
const DISPLAY = /^\$?\s?(-?\d[\d,]*(?:\.\d+)?%?)(?![\p{L}\d]|\.\d)/u;

/** Claims in a step's calculator notes, and the step's text with the notes taken out. */
export function extractCalculatorNotes(text: string): { claims: Claim[]; rest: string } {
  if (!text.includes('<<')) return { claims: [], rest: text };
  const claims: Claim[] = [];
  for (const match of text.matchAll(NOTE)) {
    const inner = match[1] ?? '';
    const parts = inner.split('=');
    for (let k = 0; k + 1 < parts.length; k++) {
      claims.push(noteClaim(parts[k] ?? '', parts[k + 1] ?? '', 'calculator', `${parts[k]}=${parts[k + 1]}`));
    }
    const result = parts[parts.length - 1] ?? '';
    const after = text.slice((match.index ?? 0) + match[0].length);
    const shown = DISPLAY.exec(after);
    const display = shown?.[1];
    const nextWord = /^\s*([\p{L}]+)/u.exec(after.slice(shown?.[0].length ?? 0))?.[1]?.toLowerCase() ?? '';
    if (parts.length >= 2 && display !== undefined && !SCALE_WORDS.has(nextWord)) {
      claims.push(noteClaim(result, display, 'display', `<<${inner}>>${display}`));
    }
  }
  return { claims, rest: text.replace(NOTE, '') };
}

function noteClaim(lhs: string, rhs: string, origin: Claim['origin'], text: string): Claim {
  return { lhs: significantTokens(lhs), rhs: significantTokens(rhs), relation: 'eq', origin, text };
}

function significantTokens(text: string): Token[] {
  return tokenize(text).filter((t) => t.kind !== 'space');
}
