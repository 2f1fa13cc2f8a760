/**
 * The reward visible to the policy: a reply the policy reads before its final answer (a tool
 * reply, or a user or system turn inside the response of a multi-turn rollout) that shows a reward,
 * a score or a verdict. Only replies are read, never the policy's own words: a policy writing
 * "the reward is 1" has not been shown one. "Before the final answer" means before the last answer
 * marker (`####`, `\boxed{}`); a response with no answer marker never answered, and is not counted.
 */
import { findBoxes } from '../answer/boxed';
import type { Turn } from '../transcript/turns';
import { spanOf, type Finding } from './healthTypes';
import { answerMarkers, blocks, scanned } from './textScan';

/** A number shown as a reward or score: `reward=0.0`, `score: 1`, `accuracy = 0.5`. */
const REWARD = /\b(?:reward|score|accuracy|advantage)\s*[=:]\s*[-+]?\d+(?:\.\d+)?/i;
/** A verdict in words: "your answer is correct", "the answer is incorrect", "Correct!". */
const VERDICT = /\b(?:(?:your|the) (?:answer|solution) is (?:correct|incorrect|wrong|right)|(?:correct|incorrect|wrong)!)/i;

/** The spans of `text` a reply occupies: `<tool_response>` blocks, and non-assistant turns. */
function replies(text: string, turns: readonly Turn[] | null): { start: number; end: number }[] {
  const tagged = blocks(text, '<tool_response>', '</tool_response>');
  const out = [...tagged];
  // Turns in order, blocks in order: one sweep finds the turns that hold no tagged block.
  let b = 0;
  for (const t of [...(turns ?? [])].sort((x, y) => x.start - y.start)) {
    if (t.role === 'assistant' || t.role === 'tool-call') continue;
    while (b < tagged.length && tagged[b]!.end <= t.start) b++;
    const block = tagged[b];
    if (block && block.start < t.end) continue;
    out.push({ start: t.start, end: Math.min(t.end, text.length) });
  }
  return out.sort((x, y) => x.start - y.start);
}

/** The replies of `response` that show a reward before its final answer, or null; strength is how many. */
export function rewardVisibleIn(response: string, turns: readonly Turn[] | null): Finding | null {
  const text = scanned(response);
  const markers = answerMarkers(text, findBoxes(text));
  const last = markers[markers.length - 1];
  if (!last) return null;
  let count = 0;
  let first: { start: number; end: number; shown: string } | null = null;
  for (const r of replies(text, turns)) {
    if (r.start >= last.start) break;
    const reply = text.slice(r.start, Math.min(r.end, last.start));
    const m = REWARD.exec(reply) ?? VERDICT.exec(reply);
    if (!m) continue;
    count++;
    first ??= { start: r.start, end: r.end, shown: m[0] };
  }
  if (!first) return null;
  const span = spanOf(text, first.start, first.end);
  span.text = span.text.trim();
  return { strength: count, span, note: `${count} repl${count === 1 ? 'y shows' : 'ies show'} the reward before the final answer ("${first.shown}")` };
}
