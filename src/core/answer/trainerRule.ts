/**
 * A trainer's own answer rule, where the file says which trainer wrote it and the prompt says which
 * rule applies. verl's GSM8K reward (its `gsm8k` reward score, method `strict`) reads only the last
 * 300 characters of the decoded response, takes the last `#### ` followed by a number (digits,
 * `-`, `.`, `,`), removes `,` and `$`, and compares the text with the gold as written: `17.00` is
 * not `17`, and a `####` further back than 300 characters is not seen. On a real verl GSM8K dump
 * this rule reproduces the trainer's `score` on every one of 1,024 rollouts; graded by mathematical
 * equivalence instead, the outcomes differ from the reward the policy was trained on.
 */

/** How far from the end the rule reads. */
export const VERL_GSM8K_CLIP = 300;
const VERL_GSM8K_ANSWER = /#### (-?[0-9.,]+)/g;

/** The answer verl's GSM8K rule reads, or null when it finds none (the rule then gives 0). */
export function verlGsm8kAnswer(response: string): string | null {
  const tail = response.length > VERL_GSM8K_CLIP ? response.slice(response.length - VERL_GSM8K_CLIP) : response;
  let last: string | null = null;
  VERL_GSM8K_ANSWER.lastIndex = 0;
  for (let m = VERL_GSM8K_ANSWER.exec(tail); m !== null; m = VERL_GSM8K_ANSWER.exec(tail)) last = m[1] ?? null;
  return last === null ? null : last.replace(/[,$]/g, '');
}

/** Whether the answer the rule read is the gold, as the rule compares them (text equality). */
export function verlGsm8kEqual(answer: string, gold: string): boolean {
  return answer === gold.trim().replace(/,/g, '');
}
