/**
 * The hover on a step or a rollout, as Markdown. Pure (no `vscode` import); the hover provider
 * wraps it in a MarkdownString that trusts only the commands linked here. Every piece of text that
 * comes from the file (answers, gold, the scorer's notes, which quote steps) is escaped, so it
 * renders as the text it is: never a link, an image, HTML or a heading.
 */
import type { ProfSettings } from '../core/profSettings';
import { clip, formatScore, formatScoreBeside } from '../core/presentation/numbers';
import { outcomeLine } from '../core/presentation/outcomeWords';
import { readAsSentence, rewardsText } from '../core/presentation/readingWords';
import { penaltyText } from '../core/presentation/penaltyWords';
import { falsePositiveRulesText, reasonLabel } from '../core/presentation/reasonWords';
import { rankText } from '../core/presentation/summaryWords';
import type { RolloutSummary } from '../protocol/analysis';
import { rolloutLocation } from '../core/presentation/locationWords';

/** Commands a hover may link to. */
export interface HoverCommands {
  openRollout: string;
  openGroup: string;
}

/** Everything one hover shows. */
export interface HoverInput {
  rollout: RolloutSummary;
  /** 0-based step under the pointer, or null for the rollout as a whole. */
  step: number | null;
  /** The rollout's group, for its rank. */
  group: readonly RolloutSummary[];
  settings: Pick<ProfSettings, 'threshold' | 'lambda' | 'maxSteps' | 'penalty'>;
  /** The source file's URI (as a string), for the command links. */
  source: string;
  commands: HoverCommands;
  /** The token heat of the step (or rollout) in words (`core/tokens/heatWords.ts`), when the tint is on. */
  heat?: readonly string[];
}

/** The token heat lines as one block, each line as written (they quote no file text, but are escaped all the same). */
function heatBlock(heat: readonly string[] | undefined): string[] {
  return heat && heat.length > 0 ? ['', `Token heat — ${heat.map(escapeMarkdown).join('  \n')}`] : [];
}

/** The longest note or evidence line a hover repeats (they quote steps, which can be long). */
const MAX_QUOTED = 300;

/**
 * Escapes text so it renders as text, never as Markdown or HTML: every ASCII punctuation mark is
 * backslash-escaped (CommonMark renders each as itself), which also keeps `https://…`, `www.…`
 * and `a@b.c` from becoming autolinks and `&…;` from becoming entities; line breaks become spaces.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`).replace(/[\r\n\u2028\u2029]+/g, ' ');
}

/** Text shown as inline code: escapes mean nothing inside a code span, so only backticks and breaks are replaced. */
function codeSpan(text: string): string {
  return `\`${text.replace(/[`\r\n\u2028\u2029]/g, ' ')}\``;
}

/** A Markdown link that runs `command` with `args` (the hover trusts only the commands it links). */
export function commandLink(label: string, command: string, args: unknown): string {
  return `[${label}](command:${command}?${encodeURIComponent(JSON.stringify([args]))})`;
}

function stepLines(input: HoverInput, step: number): string[] {
  const { rollout, settings } = input;
  const score = rollout.stepScores[step];
  const isLow = rollout.lowSteps.includes(step);
  const note = rollout.stepNotes[step];
  const total = rollout.rawSteps?.length ?? rollout.stepScores.length;
  // The step's score and the scorer's verdict first: the editor may put other hovers (Problems) above this one.
  const lines = [
    `Score **${formatScoreBeside(score, settings.threshold)}** from ${codeSpan(rollout.scorer)}${isLow ? ` — below the threshold ${settings.threshold}` : ''}`,
  ];
  if (note) lines.push('', `Note: ${escapeMarkdown(clip(note, MAX_QUOTED))}`);
  lines.push(...heatBlock(input.heat));
  lines.push('', `**PROF Lens — step ${step + 1} of ${total}** (${placeOf(input)}, H = ${rollout.decision.steps})`);
  return lines;
}

/** `line 17`, or `line 17, response 4 of 16` on a grouped line (its responses are in the rollout's group). */
function placeOf(input: Pick<HoverInput, 'rollout' | 'group'>): string {
  const { line, index } = input.rollout;
  return rolloutLocation({ line, index, count: input.group.filter((r) => r.line === line).length });
}

/** Builds the hover Markdown for a step (or, with `step: null`, for the rollout). */
export function hoverMarkdown(input: HoverInput): string {
  const { rollout, settings } = input;
  const d = rollout.decision;
  const lines = input.step === null
    ? [`**PROF Lens — rollout ${rollout.id + 1}** (${placeOf(input)}, H = ${d.steps})`, ...heatBlock(input.heat)]
    : stepLines(input, input.step);
  lines.push(
    '',
    `- Outcome: ${escapeMarkdown(outcomeLine(rollout.outcome, rollout.gold, rollout.outcomeField ?? null))}`,
    // Reason, rank and penalty are this module's own words (no file text): shown as written.
    `- PROF: **${reasonLabel(d.reason)}** · group rank ${rankText(rollout, input.group)}`,
    `- Consistency ${formatScore(d.consistency)} · aggregate ${formatScore(d.score)} · penalty ${penaltyText(d, settings)}`,
  );
  const rewards = rewardsText(rollout.rewards, rollout.outcomeField);
  if (rewards !== null) lines.push(`- Rewards in the file: ${escapeMarkdown(clip(rewards, MAX_QUOTED))}`);
  const readAs = readAsSentence(rollout.format, rollout.questionReading);
  if (readAs !== null) lines.push(`- ${escapeMarkdown(readAs)}`);
  if (rollout.falsePositive.suspected) {
    const evidence = rollout.evidence ? ` — ${escapeMarkdown(clip(rollout.evidence, MAX_QUOTED))}` : '';
    lines.push(`- ⚠ Suspected false positive (${falsePositiveRulesText(rollout.falsePositive.rules)})${evidence}`);
  }
  lines.push(
    '',
    `${commandLink('Open in Rollout View', input.commands.openRollout, { source: input.source, rolloutId: rollout.id })}`
      + ` · ${commandLink(`Show group (${input.group.length})`, input.commands.openGroup, { source: input.source, rolloutId: rollout.id })}`,
  );
  return lines.join('\n');
}
