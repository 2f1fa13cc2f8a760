/**
 * Turning one side of a LaTeX equality into plain arithmetic (`\frac{3}{4}` → `((3)/(4))`,
 * `2 \cdot 3` → `2*3`, `\left( … \right)` → `( … )`) for the exact evaluator, and saying whether
 * the CAS could decide it instead (`\pi`, `\binom`, `\sqrt[3]{…}` of a non-cube).
 */
import { matchingBrace } from './latex';

/** The outcome of converting one side. */
export interface LatexArithmetic {
  /** Plain arithmetic, or null when the side uses something the evaluator does not know. */
  plain: string | null;
  /** Whether the side is numeric LaTeX the CAS can evaluate (no variables, no prose, no units). */
  casEligible: boolean;
}

interface State {
  /** Commands only the CAS understands. */
  casOnly: boolean;
  /** Anything neither can use: letters, subscripts, degrees, unknown commands. */
  unusable: boolean;
  /** Groups entered so far (each level rescans its group, so depth is bounded). */
  depth: number;
}

/** Nesting beyond any real arithmetic: deeper sides are not checked (and cost one scan per level). */
const MAX_DEPTH = 64;

const DROPPED = new Set([
  'left', 'right', 'big', 'Big', 'bigg', 'Bigg', 'bigl', 'bigr', 'Bigl', 'Bigr', 'displaystyle',
  'textstyle', 'biggl', 'biggr',
]);
const SPACES = new Set([',', ';', ':', '!', ' ', '>', 'quad', 'qquad']);
const PRODUCTS = new Set(['cdot', 'times', 'ast']);
const CAS_ONLY = new Set(['pi', 'binom', 'dbinom', 'tbinom', 'lfloor', 'rfloor', 'lceil', 'rceil']);
const FRACTIONS = new Set(['frac', 'dfrac', 'tfrac', 'cfrac']);

/** Convert one side. */
export function latexToArithmetic(latex: string): LatexArithmetic {
  const state: State = { casOnly: false, unusable: false, depth: 0 };
  const plain = convert(latex, state);
  if (state.unusable) return { plain: null, casEligible: false };
  return { plain: state.casOnly ? null : plain, casEligible: !/[%$]/.test(plain) };
}

function convert(s: string, state: State): string {
  if (state.depth >= MAX_DEPTH || state.unusable) {
    state.unusable = true;
    return '';
  }
  state.depth++;
  try {
    return convertGroup(s, state);
  } finally {
    state.depth--;
  }
}

function convertGroup(s: string, state: State): string {
  const out = new Output();
  for (let i = 0; i < s.length; ) {
    const c = s[i] ?? '';
    if (c === '\\') {
      // `2\frac{1}{2}` is a mixed number to some writers and a product to others.
      if (/^\\[dtc]?frac/.test(s.slice(i, i + 6)) && out.endsInDigit) state.unusable = true;
      const [text, next] = command(s, i, state);
      out.add(text);
      i = next;
    } else if (c === '{') {
      if (s.startsWith('{,}', i)) {
        out.add(',');
        i += 3;
        continue;
      }
      const close = matchingBrace(s, i);
      out.add(`(${convert(s.slice(i + 1, close), state)})`);
      i = close + 1;
    } else {
      out.add(character(c, state));
      i++;
    }
  }
  return out.text;
}

/**
 * The converted text, and whether it ends in a digit (spaces aside). Tracked as it grows: testing
 * the text itself with a `$`-anchored regex rescanned (and flattened) all of it at every command.
 */
class Output {
  text = '';
  endsInDigit = false;

  add(piece: string): void {
    this.text += piece;
    const trimmed = piece.trimEnd();
    if (trimmed !== '') this.endsInDigit = /\d/.test(trimmed[trimmed.length - 1] ?? '');
  }
}

function character(c: string, state: State): string {
  if (c === '~' || c === '&') return ' ';
  if (c === '_' || c === '}' || c === '\'' || /\p{L}/u.test(c)) state.unusable = true;
  return c;
}

/** Convert the command at `i`; returns the text and the index after it and its arguments. */
function command(s: string, i: number, state: State): [string, number] {
  const name = /^\\([A-Za-z]+|.)/.exec(s.slice(i))?.[1] ?? '';
  const next = i + 1 + name.length;
  if (DROPPED.has(name)) return ['', s[next] === '.' ? next + 1 : next];
  if (SPACES.has(name)) return [' ', next];
  if (PRODUCTS.has(name)) return ['*', next];
  if (name === 'div') return ['/', next];
  if (name === '%' || name === '$') return [name, next];
  if (FRACTIONS.has(name)) {
    const [num, afterNum] = argument(s, next);
    const [den, afterDen] = argument(s, afterNum);
    return [`((${convert(num, state)})/(${convert(den, state)}))`, afterDen];
  }
  if (name === 'sqrt') return squareRoot(s, next, state);
  if (name === 'boxed') {
    const [inner, after] = argument(s, next);
    return [`(${convert(inner, state)})`, after];
  }
  if (CAS_ONLY.has(name)) {
    state.casOnly = true;
    return [' ', next];
  }
  state.unusable = true;
  return ['', next];
}

function squareRoot(s: string, at: number, state: State): [string, number] {
  let next = at;
  let index: string | null = null;
  while (s[next] === ' ') next++;
  if (s[next] === '[') {
    const close = s.indexOf(']', next);
    if (close < 0) {
      state.unusable = true;
      return ['', s.length];
    }
    index = s.slice(next + 1, close);
    next = close + 1;
  }
  const [radicand, after] = argument(s, next);
  const inner = convert(radicand, state);
  if (index === null) return [`\u221a(${inner})`, after];
  return [`((${inner})^(1/(${convert(index, state)})))`, after];
}

/** A command's argument: a braced group, a command name, or one character. */
function argument(s: string, at: number): [string, number] {
  let i = at;
  while (s[i] === ' ') i++;
  if (s[i] === '{') {
    const close = matchingBrace(s, i);
    return [s.slice(i + 1, close), close + 1];
  }
  if (s[i] === '\\') {
    const name = /^\\([A-Za-z]+|.)/.exec(s.slice(i))?.[0] ?? '\\';
    return [name, i + name.length];
  }
  return [s[i] ?? '', i + 1];
}
