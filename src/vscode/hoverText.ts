/**
 * The hover on a step or a rollout, as Markdown. Pure (no `vscode` import); the hover provider
 * wraps it in a MarkdownString that trusts only the commands linked here.
 */
import type { ProfSettings } from '../core/settings';
import type { RolloutSummary } from '../protocol/analysis';
import { formatScore, outcomeText, penaltyText, rankText, reasonLabel } from './presentation';

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
}

/** Escapes text from the file so it renders as text, never as Markdown or HTML. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, (c) => `\\${c}`).replace(/\r?\n/g, ' ');
}

/** Text shown as inline code: escapes mean nothing inside a code span, so only backticks are replaced. */
function codeSpan(text: string): string {
  return `\`${text.replace(/[`\r\n]/g, ' ')}\``;
}

function commandLink(label: string, command: string, args: unknown): string {
  return `[${label}](command:${command}?${encodeURIComponent(JSON.stringify([args]))})`;
}

function stepLines(input: HoverInput, step: number): string[] {
  const { rollout, settings } = input;
  const score = rollout.stepScores[step];
  const isLow = typeof score === 'number' && score < settings.threshold;
  const note = rollout.stepNotes[step];
  const total = rollout.rawSteps?.length ?? rollout.stepScores.length;
  const lines = [
    `**PROF Lens — step ${step + 1} of ${total}** (H = ${rollout.decision.steps})`,
    '',
    `Score **${formatScore(score)}** from ${codeSpan(rollout.scorer)}${isLow ? ` — below the threshold ${settings.threshold}` : ''}`,
  ];
  if (note) lines.push('', `Note: ${escapeMarkdown(note)}`);
  return lines;
}

/** Builds the hover Markdown for a step (or, with `step: null`, for the rollout). */
export function hoverMarkdown(input: HoverInput): string {
  const { rollout, settings } = input;
  const d = rollout.decision;
  const lines = input.step === null
    ? [`**PROF Lens — rollout ${rollout.id + 1}** (line ${rollout.line}, H = ${d.steps})`]
    : stepLines(input, input.step);
  lines.push(
    '',
    `- Outcome: ${escapeMarkdown(outcomeText(rollout))}`,
    `- PROF: **${escapeMarkdown(reasonLabel(d.reason))}** · group rank ${escapeMarkdown(rankText(rollout, input.group))}`,
    `- Consistency ${formatScore(d.consistency)} · aggregate ${formatScore(d.score)} · penalty ${escapeMarkdown(penaltyText(rollout, settings))}`,
  );
  if (rollout.falsePositive.suspected) {
    lines.push(`- ⚠ Suspected false positive: ${escapeMarkdown(rollout.falsePositive.rules.join(', '))}`);
  }
  lines.push(
    '',
    `${commandLink('Open in Rollout View', input.commands.openRollout, { source: input.source, rolloutId: rollout.id })}`
      + ` · ${commandLink(`Show group (${input.group.length})`, input.commands.openGroup, { source: input.source, rolloutId: rollout.id })}`,
  );
  return lines.join('\n');
}
