/**
 * Resample-on-Correct's two penalties of a response text (rStar2-Agent `down_sample/roc.py`:
 * `calc_error_ratio_penalty_weights`, `calc_format_penalty_weights`), as its patterns match.
 */

/** Share of `<tool_response>` blocks that mention "error" (any case); 0.5 when there is none. */
export function toolErrorRatio(text: string): number {
  const blocks = text.match(/<tool_response>[\s\S]*?<\/tool_response>/g) ?? [];
  if (blocks.length === 0) return 0.5;
  return blocks.filter((b) => b.toLowerCase().includes('error')).length / blocks.length;
}

/**
 * 1 when an `<answer>` or `</answer>` tag is missing, when the tags do not pair up, or when there is
 * no `<|im_start|>assistant … <|im_end|>` turn; else (closed answers − 1) / turns, at most 1.
 */
export function answerFormatPenalty(text: string): number {
  const tags = ['<answer>', '</answer>'];
  if (tags.some((t) => !text.includes(t))) return 1;
  const closed = (text.match(/<answer>[\s\S]*?<\/answer>/g) ?? []).length;
  if (tags.some((t) => text.split(t).length - 1 !== closed)) return 1;
  const turns = (text.match(/<\|im_start\|>assistant[\s\S]*?<\|im_end\|>/g) ?? []).length;
  if (turns === 0) return 1;
  return Math.min((closed - 1) / turns, 1);
}
