/** A JSON object (not null, not an array): the one test every reader and guard of plain data uses. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
