/**
 * The Qwen PRM prompt as plain text, for servers that tokenize it themselves with the PRM's own
 * tokenizer (where `<extra_0>` is a special token, so the text form yields exactly one separator
 * id per step).
 */

import { QWEN_PRM_SYSTEM_PROMPT } from '../profiles/profile';

export { QWEN_PRM_SYSTEM_PROMPT };

/** The step separator of the Qwen PRMs, as text. */
export const QWEN_PRM_SEPARATOR_TEXT = '<extra_0>';

/** Token id of `<extra_0>` in the Qwen PRM vocabularies. */
export const QWEN_PRM_SEPARATOR_ID = 151651;

/** Context length the Qwen2.5-Math PRMs were trained with. */
export const QWEN_PRM_MAX_TOKENS = 4096;

/**
 * ChatML text the Qwen PRM scores: system prompt, the question as the user turn, and the steps as
 * the assistant turn with `<extra_0>` after each step (the chat template's output with no
 * generation prompt).
 */
export function buildQwenPrmText(prompt: string, steps: readonly string[]): string {
  const assistant = steps.map((step) => step + QWEN_PRM_SEPARATOR_TEXT).join('');
  return (
    `<|im_start|>system\n${QWEN_PRM_SYSTEM_PROMPT}<|im_end|>\n` +
    `<|im_start|>user\n${prompt}<|im_end|>\n` +
    `<|im_start|>assistant\n${assistant}<|im_end|>\n`
  );
}

/**
 * Why a rollout cannot be sent as text, or null when it can. A separator written inside the
 * rollout itself would be tokenized as an extra step boundary and shift every later score.
 */
export function textInputProblem(prompt: string, steps: readonly string[]): string | null {
  if (prompt.includes(QWEN_PRM_SEPARATOR_TEXT)) {
    return `the prompt contains the separator text ${QWEN_PRM_SEPARATOR_TEXT}`;
  }
  const index = steps.findIndex((step) => step.includes(QWEN_PRM_SEPARATOR_TEXT));
  if (index >= 0) {
    return `step ${index + 1} contains the separator text ${QWEN_PRM_SEPARATOR_TEXT}`;
  }
  return null;
}
