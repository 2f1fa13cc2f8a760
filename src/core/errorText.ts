/** An error as text: an Error's message, anything else thrown as a string. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
