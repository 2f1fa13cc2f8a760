/**
 * What the command writes to a terminal: text from files, servers and file names may carry escape
 * sequences that a terminal obeys (OSC 52 writes the clipboard, OSC 0 the window title, CSI 2J
 * clears the screen, OSC 8 links one address to another text, bidi controls reorder what is read).
 * Human-readable output loses them; JSON keeps the data, with such characters as `\u` escapes.
 */
import { describe, expect, it } from 'vitest';
import { terminalJson, terminalText } from '../../../src/cli/terminalText';
import { capText, previewJson } from '../../../src/core/presentation/capText';

const ESC = '\u001b';
const HOSTILE = [
  `${ESC}]52;c;ZWNobyBwd25lZA==\u0007`, // clipboard write
  `${ESC}]0;you were hacked${ESC}\\`, // window title
  `${ESC}[2J${ESC}[H`, // clear screen, cursor home
  `${ESC}]8;;https://evil.example${ESC}\\click${ESC}]8;;${ESC}\\`, // hyperlink
  '\u009b31m', // 8-bit CSI
  '\u202eevil\u202c', // bidi override
  '\r\u0008\u007f', // carriage return, backspace, DEL
];

describe('terminal text', () => {
  it('escape sequences go whole, payload included; the readable text stays', () => {
    const out = terminalText(`before ${HOSTILE.join(' ')} after\tTAB\nnext line`);
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(out).not.toMatch(/ZWNob|hacked|evil\.example/);
    expect(out).toMatch(/^before .* after\tTAB\nnext line$/s);
    expect(out).toContain('click');
    expect(terminalText('progress\r', { keepCarriageReturn: true })).toBe('progress\r');
    expect(terminalText('plain text, ∫ é 😀')).toBe('plain text, ∫ é 😀');
  });

  it('a megabyte of unterminated sequences is removed in linear time', () => {
    const started = performance.now();
    expect(terminalText(`${ESC}]`.repeat(500_000) + 'x')).toBe('x');
    expect(terminalText(`${ESC}[`.repeat(500_000))).toBe('');
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it('JSON keeps the data exactly, writing C1, bidi and separators as \\u escapes', () => {
    const value = { key: `a\u009b31m\u202eb\u2028c${ESC}[2J` };
    const json = terminalJson(JSON.stringify(value));
    expect(json).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2028]/);
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe('quoting input in messages', () => {
  it('long text is cut with its size', () => {
    expect(capText('k'.repeat(20 * 1024 * 1024))).toMatch(/^k{300}… \(20 MB\)$/);
    expect(capText('short')).toBe('short');
    // Never half a surrogate pair.
    expect(capText(`${'a'.repeat(299)}😀tail`)).toBe(`${'a'.repeat(299)}… (305 characters)`);
  });

  it('a JSON value is previewed without recursion: 2M numbers or 1M-deep arrays cost a few hundred characters', () => {
    const started = performance.now();
    const wide = previewJson(Array.from({ length: 2_000_000 }, () => 0.5));
    let deep: unknown = [];
    for (let i = 0; i < 1_000_000; i++) deep = [deep];
    const nested = previewJson(deep);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(wide.length).toBeLessThan(200);
    expect(wide).toMatch(/^\[0\.5,0\.5,.*…$/);
    expect(nested).toMatch(/^\[\[\[\[.*…$/);
    expect(previewJson({ a: [1, 'x'], b: null })).toBe('{"a":[1,"x"],"b":null}');
  });
});
