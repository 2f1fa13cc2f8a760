/**
 * What a label is attached to: the content of a rollout, not its place in a file. A rollout's key
 * is a 64-bit hash of its prompt and response with every run of whitespace read as one space and
 * the ends trimmed, so a reorder, a re-dump, CRLF line ends or a response re-split into steps
 * (steps joined by blank lines) keep their labels. Two rollouts with the same text share a key, and
 * so a label: the same text earns the same judgement. A step's key is the same hash of its text.
 */

/** Keys carry their scheme, so a later change of normalisation cannot match old keys by accident. */
export const KEY_PREFIX = 'c1:';

/** Two independent 32-bit lanes over the normalised characters. */
class ContentHash {
  private a = 0x811c9dc5;
  private b = 0x2545f491;
  private pendingSpace = false;
  private emitted = false;

  /** Feeds `text` normalised: whitespace runs become one space, none at the ends. */
  feed(text: string): this {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x2028 || c === 0x2029 || c === 0xfeff) {
        this.pendingSpace = this.emitted;
        continue;
      }
      if (this.pendingSpace) this.mix(32);
      this.pendingSpace = false;
      this.emitted = true;
      this.mix(c);
    }
    return this;
  }

  /** A boundary between two texts (prompt | response): never produced by `feed`. */
  separate(): this {
    this.pendingSpace = false;
    this.emitted = false;
    this.mix(0);
    return this;
  }

  digest(): string {
    const a = Math.imul(this.a ^ (this.a >>> 16), 0x7feb352d) >>> 0;
    const b = Math.imul(this.b ^ (this.b >>> 15), 0x846ca68b) >>> 0;
    return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
  }

  private mix(c: number): void {
    this.a = Math.imul(this.a ^ c, 0x01000193);
    this.b = Math.imul(this.b ^ c, 0x5bd1e995);
    this.b ^= this.b >>> 13;
  }
}

/** The key of a rollout: `c1:` and 16 hex digits. */
export function rolloutKey(prompt: string, response: string): string {
  return KEY_PREFIX + new ContentHash().feed(prompt).separate().feed(response).digest();
}

/** The key of one step's text. */
export function stepKey(text: string): string {
  return KEY_PREFIX + new ContentHash().feed(text).digest();
}

/** Whether a string has the shape of a key. */
export function isContentKey(value: unknown): value is string {
  return typeof value === 'string' && /^c1:[0-9a-f]{16}$/.test(value);
}
