/**
 * Groups named by their question. A group's key is what groups it (a uid, or the whole prompt as
 * the policy saw it: chat template, system prompt and all), and a trainer's prompts usually wrap
 * every question in the same instruction ("… Let's think step by step and output the final answer
 * after `####`."). Named by the key, every group of a dump reads the same; named by the question
 * with the instruction every group of the file shares taken away, each reads as its problem.
 */

/** A group and the question its first rollout asks (the question already read out of any chat template). */
export interface GroupQuestion {
  group: string;
  question: string;
}

/** The longest name kept: names are labels, the question itself is one click away. */
export const MAX_GROUP_NAME = 160;
/**
 * A group's name shortened for a tab title or a table cell: one line, at most `max` characters,
 * cut after a whole word where one ends in its last third, an ellipsis where it is cut; its readable
 * id when the analysis named it nothing.
 */
export function shortGroupName(name: string | null | undefined, id: string, max: number): string {
  const line = (name ?? '').slice(0, max * 4).replace(/\s+/g, ' ').trim();
  if (line === '') return id;
  if (line.length <= max) return line;
  // Never half of a surrogate pair at the cut.
  const end = /[\ud800-\udbff]/.test(line[max - 2] ?? '') ? max - 2 : max - 1;
  const cut = line.slice(0, end);
  const space = cut.lastIndexOf(' ');
  // `tray.…` reads as a typo: the cut drops the punctuation it ends on.
  return `${(space >= (max * 2) / 3 ? cut.slice(0, space) : cut).replace(/[\s.,;:]+$/, '')}…`;
}

/** Only the ends of questions are compared: the shared instruction sits at one end or the other. */
const ENDS = 2000;
/** A shared stretch shorter than this is coincidence (every question ends with `?`), not an instruction. */
const MIN_SHARED = 12;

/** Each group's name: its question without the text every group's question shares at its start or end. */
export function groupNamesOf(groups: Iterable<GroupQuestion>): Map<string, string> {
  const questions = new Map<string, string>();
  for (const g of groups) if (!questions.has(g.group)) questions.set(g.group, g.question);
  const name = questionNamer(questions.values());
  const names = new Map<string, string>();
  for (const [group, question] of questions) names.set(group, name(question));
  return names;
}

/**
 * Names questions as `groupNamesOf` does, the shared instruction found once: for a caller that holds
 * every group's question already and names a few at a time.
 */
export function questionNamer(questions: Iterable<string>): (question: string) => string {
  const { prefix, suffix } = sharedInstruction([...new Set(questions)]);
  return (question) => nameOf(question, prefix, suffix);
}

/** A question without the shared instruction, on one line, clipped. */
function nameOf(question: string, prefix: number, suffix: number): string {
  const core = question.length > prefix + suffix ? question.slice(prefix, question.length - suffix) : question;
  const line = core.slice(0, MAX_GROUP_NAME * 4).replace(/\s+/g, ' ').trim();
  return line.length <= MAX_GROUP_NAME ? line : `${line.slice(0, MAX_GROUP_NAME - 1)}…`;
}

/**
 * How many characters every distinct question shares at its start and at its end, cut back to a
 * sentence or line boundary so no question loses part of its own first or last sentence. Nothing
 * is shared with fewer than two distinct questions.
 */
export function sharedInstruction(questions: readonly string[]): { prefix: number; suffix: number } {
  if (questions.length < 2) return { prefix: 0, suffix: 0 };
  const first = questions[0] as string;
  let prefix = Math.min(first.length, ENDS);
  let suffix = Math.min(first.length, ENDS);
  for (const q of questions) {
    prefix = Math.min(prefix, commonStart(first, q, prefix));
    suffix = Math.min(suffix, commonEnd(first, q, suffix));
    if (prefix === 0 && suffix === 0) break;
  }
  prefix = prefixBoundary(first, prefix);
  suffix = suffixBoundary(first, suffix);
  // What is left of the shortest question must still say something.
  const shortest = Math.min(...questions.map((q) => q.length));
  if (prefix + suffix >= shortest) return { prefix: 0, suffix: 0 };
  return { prefix: prefix >= MIN_SHARED ? prefix : 0, suffix: suffix >= MIN_SHARED ? suffix : 0 };
}

function commonStart(a: string, b: string, limit: number): number {
  let n = 0;
  while (n < limit && n < b.length && a.charCodeAt(n) === b.charCodeAt(n)) n++;
  return n;
}

function commonEnd(a: string, b: string, limit: number): number {
  let n = 0;
  while (n < limit && n < b.length && a.charCodeAt(a.length - 1 - n) === b.charCodeAt(b.length - 1 - n)) n++;
  return n;
}

/** Where a sentence or a line begins: after `.`, `?`, `!`, `:` and a space, or after a line break. */
function isSentenceStart(text: string, at: number): boolean {
  if (at === 0) return true;
  const before = text[at - 1] ?? '';
  if (before === '\n') return true;
  return /\s/.test(before) && /[.?!:]/.test(text[at - 2] ?? '');
}

/** The shared start cut back to the last sentence start within it. */
function prefixBoundary(text: string, shared: number): number {
  for (let at = shared; at > 0; at--) if (isSentenceStart(text, at)) return at;
  return 0;
}

/** The shared end cut forward to the first sentence start within it. */
function suffixBoundary(text: string, shared: number): number {
  const from = text.length - shared;
  for (let at = from; at < text.length; at++) {
    if (isSentenceStart(text, at)) return text.length - at;
  }
  return 0;
}
