/**
 * What the command writes to a terminal, made safe to show: file text, file names, server answers
 * and model ids are untrusted, and a terminal obeys the escape sequences in what it prints (OSC 52
 * writes the clipboard, OSC 0 sets the window title, CSI 2J clears the screen, OSC 8 makes a link
 * that shows one address and opens another; bidirectional overrides reorder what is read). Every
 * human-readable line the command writes goes through `terminalText` (the command line's own
 * wrapper of stderr, and the renderers of stdout); JSON goes through `terminalJson`, which keeps
 * the data exactly and only writes such characters as `\u` escapes.
 */

/**
 * Escape sequences: ESC `[` … final byte (CSI), ESC `]` … BEL or ESC `\` (OSC), ESC `P`/`X`/`^`/`_` …
 * ESC `\` (DCS and the other string controls), ESC and one more character; and the 8-bit forms
 * (U+009B CSI, U+009D OSC, U+0090 DCS … U+009C ST). Each is removed whole, payload included; a
 * string control never terminated (a message cut inside one) loses its introducer only, so the
 * text after it stays readable. A payload stops at the next ESC, so the scan is linear.
 */
// eslint-disable-next-line no-control-regex
const SEQUENCES = /\u001b\[[0-?]*[ -/]*[@-~]?|\u001b[\]PX^_][^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)|\u009b[0-?]*[ -/]*[@-~]?|[\u009d\u0090\u0098\u009e\u009f][^\u0007\u001b\u009c]*(?:\u0007|\u009c|\u001b\\)|\u001b[\s\S]?/g;

/** Control characters left after the sequences (C0 but tab and line feed, DEL, C1) and bidirectional controls. */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex
const CONTROLS_BUT_CR = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` without escape sequences, control characters (but tab and line feed) and bidirectional
 * controls. `keepCarriageReturn`: for the command's own progress line, which redraws itself.
 */
export function terminalText(text: string, options: { keepCarriageReturn?: boolean } = {}): string {
  if (!NEEDS_WORK.test(text)) return text;
  return text.replace(SEQUENCES, '').replace(options.keepCarriageReturn ? CONTROLS_BUT_CR : CONTROLS, '');
}

// eslint-disable-next-line no-control-regex
const NEEDS_WORK = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** Characters `JSON.stringify` writes raw that a terminal would act on: C1 controls, bidirectional controls, line and paragraph separators. */
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

/** JSON text (from `JSON.stringify`, which already escapes C0 controls) with those characters as `\u` escapes: the same data. */
export function terminalJson(json: string): string {
  return json.replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
