/**
 * What makes two rollouts of two dumps "the same prompt": the one function compare aligns by.
 * The rollout's prompt is its question as the analysis read it (for a rendered chat transcript,
 * the last user turn with the template and system prompt taken off, once the format reads it so),
 * so two dumps that wrap one question differently still align. Here it is only normalised:
 * Unicode NFC, runs of whitespace as one space, no leading or trailing whitespace.
 */

/** The alignment key of a question. */
export function questionKey(prompt: string): string {
  return prompt.normalize('NFC').replace(/\s+/g, ' ').trim();
}

/** A gold answer as compare tells golds apart: the same normalisation; null stays null. */
export function goldKey(gold: string | null): string | null {
  return gold === null ? null : questionKey(gold);
}
