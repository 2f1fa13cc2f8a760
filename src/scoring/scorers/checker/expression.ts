/**
 * Exact evaluation of a plain arithmetic expression given as tokens. Anything that is not pure
 * arithmetic (a word, a stray symbol, two numbers side by side) is a syntax failure, which the
 * checker treats as "nothing to check" rather than as an error in the step.
 */
import type { Token } from './tokens';
import {
  NotExactError, add, div, factorial, mul, neg, parseDecimal, pow, rational, sub, type Rational,
} from './rational';

/** How to read a `%`: as a hundredth (`20% = 0.2`) or as a label on the number (`25%` next to `15/60*100`). */
export type PercentReading = 'fraction' | 'label';

export type Evaluation =
  | { ok: true; value: Rational }
  | { ok: false; reason: 'syntax' | 'inexact' };

class SyntaxFailure extends Error {}

/**
 * Evaluate tokens (spaces and currency signs are ignored). `values` replaces the value of some
 * number tokens (a written decimal read at the edge of its rounding).
 */
export function evaluate(tokens: readonly Token[], percent: PercentReading = 'fraction', values?: ReadonlyMap<Token, Rational>): Evaluation {
  const significant = tokens.filter((t) => t.kind !== 'space' && t.kind !== 'money');
  if (significant.length === 0) return { ok: false, reason: 'syntax' };
  const parser = new Parser(significant, percent, values);
  try {
    const value = parser.expression();
    if (!parser.atEnd()) return { ok: false, reason: 'syntax' };
    return { ok: true, value };
  } catch (error) {
    if (error instanceof NotExactError) return { ok: false, reason: 'inexact' };
    if (error instanceof SyntaxFailure) return { ok: false, reason: 'syntax' };
    throw error;
  }
}

class Parser {
  private at = 0;

  constructor(
    private readonly tokens: readonly Token[],
    private readonly percent: PercentReading,
    private readonly values?: ReadonlyMap<Token, Rational>,
  ) {}

  atEnd(): boolean {
    return this.at >= this.tokens.length;
  }

  private peek(): Token | undefined {
    return this.tokens[this.at];
  }

  private isOp(...ops: string[]): boolean {
    const t = this.peek();
    return t?.kind === 'op' && ops.includes(t.text);
  }

  expression(): Rational {
    let value = this.term();
    while (this.isOp('+', '-')) {
      const op = this.tokens[this.at++]?.text;
      const right = this.term();
      value = op === '+' ? add(value, right) : sub(value, right);
    }
    return value;
  }

  /** Products, including the implicit ones people write: `2(3 + 4)`, `(2)(3)`, `2√9`. */
  private term(): Rational {
    let value = this.unary();
    for (;;) {
      if (this.isOp('*', '/')) {
        const op = this.tokens[this.at++]?.text;
        const right = this.unary();
        value = op === '*' ? mul(value, right) : div(value, right);
      } else if (this.peek()?.kind === 'lparen' || this.peek()?.kind === 'sqrt') {
        value = mul(value, this.power());
      } else {
        return value;
      }
    }
  }

  private unary(): Rational {
    if (this.isOp('-')) {
      this.at++;
      return neg(this.unary());
    }
    if (this.isOp('+')) {
      this.at++;
      return this.unary();
    }
    return this.power();
  }

  private power(): Rational {
    const base = this.postfix();
    if (!this.isOp('^')) return base;
    this.at++;
    return pow(base, this.unary());
  }

  private postfix(): Rational {
    let value = this.primary();
    for (let t = this.peek(); t; t = this.peek()) {
      if (t.kind === 'bang') value = factorial(value);
      else if (t.kind === 'percent') value = this.percent === 'fraction' ? div(value, rational(100n)) : value;
      else if (t.kind === 'sup') value = pow(value, parseDecimal(t.text));
      else break;
      this.at++;
    }
    return value;
  }

  private primary(): Rational {
    const t = this.tokens[this.at++];
    if (!t) throw new SyntaxFailure('unexpected end');
    if (t.kind === 'num') return this.values?.get(t) ?? parseDecimal(t.text);
    // The radical binds a primary: people write `√16` and `√(16)`, not `√16!`.
    if (t.kind === 'sqrt') return pow(this.primary(), rational(1n, 2n));
    if (t.kind === 'lparen') {
      const inner = this.expression();
      if (this.tokens[this.at++]?.kind !== 'rparen') throw new SyntaxFailure('unclosed parenthesis');
      return inner;
    }
    throw new SyntaxFailure(`unexpected ${t.text}`);
  }
}
