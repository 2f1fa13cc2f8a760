/**
 * What the computer algebra system is allowed to see. The engine evaluates exactly where it can,
 * so `9^{9^{9^{9}}}` or `100000!` costs it minutes and hundreds of MB. These checks run before an
 * expression is sent (and again inside the CAS worker, before it parses anything); what fails them
 * is "not decided", with the reason shown to the user. The worker's time budget stays the backstop
 * for whatever slips through.
 */

/** The limits; each is far above what a real answer or step needs. */
export const CAS_LIMITS = {
  /** Characters of LaTeX in one expression. */
  maxChars: 1000,
  /** Digits of one written number. */
  maxDigits: 300,
  /** Largest value an exponent may have (estimated from its numbers). */
  maxExponent: 10_000,
  /** Largest integer a factorial may be taken of. */
  maxFactorial: 1000,
  /** Largest number inside a binomial coefficient. */
  maxBinomial: 100_000,
} as const;

/** Why `latex` must not reach the CAS, or null when it may. */
export function casScreen(latex: string): string | null {
  if (latex.length > CAS_LIMITS.maxChars) {
    return `${latex.length.toLocaleString('en-US')} characters long (the limit is ${CAS_LIMITS.maxChars.toLocaleString('en-US')})`;
  }
  // From here the text is short, so a scan per exponent is cheap.
  return digitsProblem(latex) ?? exponentProblem(latex) ?? factorialProblem(latex) ?? binomialProblem(latex);
}

function digitsProblem(latex: string): string | null {
  let run = 0;
  for (let i = 0; i <= latex.length; i++) {
    const isDigit = i < latex.length && latex.charCodeAt(i) >= 48 && latex.charCodeAt(i) <= 57;
    run = isDigit ? run + 1 : 0;
    if (run > CAS_LIMITS.maxDigits) return `a number of more than ${CAS_LIMITS.maxDigits} digits`;
  }
  return null;
}

interface Exponent {
  text: string;
  end: number;
  /** The upper limit of a `\sum` or `\prod` rather than a power. */
  isBound: boolean;
}

const BIG_OPERATOR = /\\(?:sum|prod)\s*(?:_\s*(?:\{[^{}]*\}|\S))?\s*$/;

/** Each exponent's text: a braced group, a command, or one character after `^`. */
function exponents(latex: string): Exponent[] {
  const found: Exponent[] = [];
  for (let i = latex.indexOf('^'); i >= 0; i = latex.indexOf('^', i + 1)) {
    const isBound = BIG_OPERATOR.test(latex.slice(Math.max(0, i - 60), i));
    let j = i + 1;
    while (latex[j] === ' ') j++;
    if (latex[j] === '{') {
      const close = closingBrace(latex, j);
      found.push({ text: latex.slice(j + 1, close), end: close + 1, isBound });
    } else if (latex[j] === '\\') {
      const name = /^\\(?:[A-Za-z]+|.)/.exec(latex.slice(j))?.[0] ?? '\\';
      found.push({ text: name, end: j + name.length, isBound });
    } else {
      // `9^99` is `9^9 9` to TeX, but an engine may read every digit as the exponent.
      const digits = /^\d+/.exec(latex.slice(j))?.[0] ?? latex[j] ?? '';
      found.push({ text: digits, end: j + digits.length, isBound });
    }
  }
  return found;
}

function closingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return text.length;
}

function exponentProblem(latex: string): string | null {
  for (const { text, end, isBound } of exponents(latex)) {
    if (isBound) {
      if (log10Estimate(text) > Math.log10(CAS_LIMITS.maxExponent)) return `a sum or product up to ${shorten(text)} (the limit is ${CAS_LIMITS.maxExponent.toLocaleString('en-US')} terms)`;
    } else if (text.includes('^')) {
      const inner = exponents(text);
      if (inner.some((e) => e.text.includes('^'))) return 'a power tower (an exponent of an exponent of an exponent)';
      // `2^{2^{10}}` is 2^1024, fine; `9^{9^9}` has an exponent of 387,420,489.
      const size = log10Estimate(text);
      if (size > Math.log10(CAS_LIMITS.maxExponent)) return `a power tower whose exponent ${shorten(text)} exceeds ${CAS_LIMITS.maxExponent.toLocaleString('en-US')}`;
    } else if (log10Estimate(text) > Math.log10(CAS_LIMITS.maxExponent)) {
      return `an exponent of ${shorten(text)} (the limit is ${CAS_LIMITS.maxExponent.toLocaleString('en-US')})`;
    }
    // `a^b^c` without braces is a tower too.
    if (latex[end] === '^' || (latex[end] === ' ' && latex.slice(end).trimStart().startsWith('^'))) {
      return 'a power tower (an exponent of an exponent)';
    }
  }
  return null;
}

/**
 * A rough upper bound of log10 of an exponent's value: its largest number, raised to the largest
 * number after a `^` inside it. Symbols count as small (the CAS samples variables below 3).
 */
function log10Estimate(text: string): number {
  const largest = (s: string): number =>
    Math.max(1, /[A-Za-z]/.test(s) ? 3 : 1, ...(s.match(/\d+(?:\.\d+)?/g) ?? []).map(Number));
  const at = text.indexOf('^');
  if (at < 0) return Math.log10(largest(text));
  const base = largest(text.slice(0, at));
  const power = largest(text.slice(at + 1));
  return power * Math.log10(base);
}

function factorialProblem(latex: string): string | null {
  for (const m of latex.matchAll(/(\d+)[\s)}]*!/g)) {
    const n = Number(m[1]);
    if (n > CAS_LIMITS.maxFactorial) return `a factorial of ${shorten(m[1] ?? '')} (the limit is ${CAS_LIMITS.maxFactorial.toLocaleString('en-US')})`;
  }
  return null;
}

function binomialProblem(latex: string): string | null {
  for (const m of latex.matchAll(/\\[dt]?binom\s*\{([^{}]*)\}/g)) {
    const n = Math.max(0, ...(m[1]?.match(/\d+/g) ?? []).map(Number));
    if (n > CAS_LIMITS.maxBinomial) return `a binomial coefficient of ${shorten(String(n))} (the limit is ${CAS_LIMITS.maxBinomial.toLocaleString('en-US')})`;
  }
  return null;
}

/** A piece of an expression for a message: never a wall of text. */
export function shorten(text: string, max = 40): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
