/** Types of settings-table.mjs, for the unit test that checks the README's table. */

/** The markdown table of every setting a manifest contributes, by section. */
export function settingsTable(manifest: unknown): string;
