/**
 * The labels' part of a hover: the rollout's label as a badge, and links to label it (this step as
 * the first wrong one, the rollout as sound) or to clear its label. Pure (no `vscode` import); the
 * hover trusts exactly the commands named in `LABEL_HOVER_COMMANDS`.
 */
import { escapeMarkdown, commandLink } from '../hoverText';
import { commandIds } from '../commandIds';

/** The commands the labels' hover links run. */
export const LABEL_HOVER_COMMANDS: readonly string[] = [commandIds.markFirstWrongStep, commandIds.markRolloutSound, commandIds.clearLabel];

/** What the labels' lines are made from. */
export interface LabelHoverInput {
  source: string;
  rolloutId: number;
  /** 0-based step under the pointer, or null for the rollout as a whole. */
  step: number | null;
  /** The label in words (`labelBadge`), or null. */
  badge: string | null;
  /** False for a file that is not saved on disk: there is nowhere to keep a label. */
  canLabel: boolean;
}

/** Markdown lines to add to the hover (starting with a blank line). */
export function labelHoverLines(input: LabelHoverInput): string[] {
  const lines = [''];
  if (input.badge) lines.push(`**${escapeMarkdown(input.badge)}**`, '');
  if (!input.canLabel) return input.badge ? lines : [];
  const target = { source: input.source, rolloutId: input.rolloutId };
  const links: string[] = [];
  if (input.step !== null) links.push(commandLink(`Mark step ${input.step + 1} as First Wrong Step`, commandIds.markFirstWrongStep, { ...target, step: input.step }));
  links.push(commandLink('Mark Rollout as Sound', commandIds.markRolloutSound, target));
  if (input.badge) links.push(commandLink('Clear Label', commandIds.clearLabel, target));
  lines.push(links.join(' · '));
  return lines;
}
