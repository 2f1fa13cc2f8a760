import { errorText } from '../errorText';
/**
 * JSON as Python writes it: `json.dumps` emits bare `NaN`, `Infinity` and `-Infinity` unless told
 * not to, and those are not JSON. They are read as `null` (a step score that is not a number is
 * an unscored step), and the caller is told so.
 */

export interface LenientParse {
  ok: true;
  value: unknown;
  /** True when NaN/Infinity literals were read as null. */
  hadNonFinite: boolean;
}

export interface LenientFailure {
  ok: false;
  message: string;
  /** 0-based position of the error in the text, when the engine says. */
  position: number | null;
}

const NON_FINITE = /NaN|Infinity/;

/** Parse one JSON text, tolerating Python's non-finite literals. */
export function parseLenient(text: string): LenientParse | LenientFailure {
  try {
    return { ok: true, value: JSON.parse(text), hadNonFinite: false };
  } catch (error) {
    if (NON_FINITE.test(text)) {
      const replaced = replaceNonFinite(text);
      if (replaced !== text) {
        try {
          return { ok: true, value: JSON.parse(replaced), hadNonFinite: true };
        } catch {
          // Fall through to the original error, which names the original text's position.
        }
      }
    }
    return failure(error);
  }
}

function failure(error: unknown): LenientFailure {
  const message = errorText(error);
  const match = /position (\d+)/.exec(message);
  return { ok: false, message: tidyMessage(message), position: match ? Number(match[1]) : null };
}

/** V8's messages quote a long snippet of the line; keep the part that says what went wrong. */
function tidyMessage(message: string): string {
  return message.replace(/, "[\s\S]*" is not valid JSON$/, ' is not valid JSON').slice(0, 200);
}

/** Replace bare NaN / Infinity / -Infinity outside string literals with null (same length is not needed). */
export function replaceNonFinite(text: string): string {
  let out = '';
  let last = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) {
      inString = true;
      continue;
    }
    const token = nonFiniteAt(text, i);
    if (token > 0) {
      out += text.slice(last, i) + 'null';
      i += token - 1;
      last = i + 1;
    }
  }
  return last === 0 ? text : out + text.slice(last);
}

function nonFiniteAt(text: string, i: number): number {
  if (text.startsWith('NaN', i)) return 3;
  if (text.startsWith('Infinity', i)) return 8;
  if (text.startsWith('-Infinity', i)) return 9;
  return 0;
}
