/**
 * What the critic is asked: the ProcessBench critique protocol (the solution as paragraphs indexed
 * from 0; the index of the earliest wrong paragraph, or −1, in a final `\boxed{}`), in PROF Lens's
 * own words, plus one sentence saying what is wrong so the editor can show why a step was flagged.
 * The version id is part of the text and of every cache key: changing the wording means new answers.
 */

/** Bump whenever the wording below changes. */
export const CRITIC_PROMPT_VERSION = 'prof-lens-critic-v1';

/** One chat message of the OpenAI chat-completions contract. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

const INSTRUCTIONS = [
  'Check the solution one paragraph at a time, in order. For each paragraph ask whether its arithmetic and algebra are right,',
  'and whether its reasoning follows from the problem and from the paragraphs before it. Stop at the first paragraph that',
  'contains a mistake of any kind.',
  '',
  'If you find one, write a single sentence that begins with "Error:" and says what is wrong in that paragraph, then give',
  'the paragraph\'s index as your final answer in \\boxed{}, for example \\boxed{2}.',
  'If no paragraph contains a mistake, give \\boxed{-1} as your final answer.',
].join('\n');

/** The solution's paragraphs, each between numbered tags, numbered from 0. */
export function taggedParagraphs(steps: readonly string[]): string {
  return steps.map((step, i) => `<paragraph_${i}>\n${step.trim()}\n</paragraph_${i}>`).join('\n\n');
}

/** The user message for one rollout. */
export function criticPrompt(problem: string, steps: readonly string[]): string {
  return [
    `[${CRITIC_PROMPT_VERSION}]`,
    'Below are a math problem and a proposed solution. The solution is split into paragraphs, each wrapped in',
    '<paragraph_i> ... </paragraph_i> tags and numbered from 0.',
    '',
    '[Problem]',
    problem.trim(),
    '',
    '[Solution]',
    taggedParagraphs(steps),
    '',
    INSTRUCTIONS,
  ].join('\n');
}

/** The messages sent for one rollout. */
export function criticMessages(problem: string, steps: readonly string[]): ChatMessage[] {
  return [{ role: 'user', content: criticPrompt(problem, steps) }];
}

/** Rough token count of a text (about four characters a token for English and LaTeX). */
export function approximateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
