/**
 * The one way PROF Lens writes a CSV cell, for every CSV it writes (`trend --csv`, the editor's
 * decision export). Text comes from files and folder names the user did not write (a run folder
 * named `=HYPERLINK(…)`, a group id): a spreadsheet runs a cell that starts with `=`, `+`, `-` or
 * `@` (or a tab or carriage return before one) as a formula, so such text gets a leading
 * apostrophe, which spreadsheets show as text and do not display. Numbers are written as numbers.
 */

/** Characters that make a spreadsheet read a text cell as a formula (full-width forms included). */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** A CSV cell (RFC 4180): quoted when it holds a comma, quote or line break; formulas neutralised. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return csvCell(value.map((v) => (v === null ? '' : String(v))).join(' '));
  let text = String(value);
  if (typeof value !== 'number' && typeof value !== 'bigint' && typeof value !== 'boolean' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
