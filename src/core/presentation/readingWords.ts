/**
 * How a record was read, in words, for the hover, the Rollout View, the panel and the report
 * header: which trainer's format (`read as: TRL completions`), how the question came out of the
 * prompt (`question read from a chat transcript (ChatML, special tokens stripped)`), and the
 * reward fields the file carries beside the outcome. Never silent about a guess.
 */
import type { FormatId, ReadFormatId, RewardField } from '../model';
import { TRAINER_FORMAT_NAMES } from '../catalogWords';
import type { QuestionReading } from '../transcript/promptReading';
import { TEMPLATE_NAMES, type TurnRole } from '../transcript/turns';
import { capText } from './capText';

/** The names of the formats that are not a trainer's dump; each trainer's format declares its own. */
const READ_FORMAT_NAMES: Readonly<Record<ReadFormatId, string>> = {
  verl: 'verl rollout dump',
  'verl-v1': 'verl v1 rollout dump',
  generic: 'flat rollouts',
  chat: 'chat messages',
  grouped: 'grouped responses',
  prm800k: 'PRM800K',
  processbench: 'ProcessBench',
  'math-shepherd': 'Math-Shepherd',
  mapped: 'your field mapping',
};

const FORMAT_NAMES: Readonly<Record<FormatId, string>> = { ...TRAINER_FORMAT_NAMES, ...READ_FORMAT_NAMES };

/** The format's name as users know it. */
export function formatName(format: FormatId): string {
  return FORMAT_NAMES[format];
}

/** How the question was read, or null when the prompt was the question as it stands. */
export function questionReadingText(reading: QuestionReading | undefined): string | null {
  if (!reading || reading.kind === 'plain') return null;
  if (reading.kind === 'messages') return "question: the chat messages' last user turn";
  const template = reading.template ? TEMPLATE_NAMES[reading.template] : 'chat';
  const tokens = reading.hasSpecialTokens ? 'with its special tokens' : 'special tokens stripped';
  if (reading.kind === 'transcript') return `question read from a chat transcript (${template}, ${tokens})`;
  return `prompt used whole: it looks like a ${template} transcript (${tokens}), but ${reading.problem ?? 'its turns could not be told apart'}`;
}

/** `read as: TRL completions; question read from a chat transcript (ChatML, special tokens stripped)`. */
export function readAsText(format: FormatId | undefined, reading: QuestionReading | undefined): string | null {
  const parts = [format ? `read as: ${formatName(format)}` : null, questionReadingText(reading)].filter((p) => p !== null);
  return parts.length ? parts.join('; ') : null;
}

/** The same, as a sentence that opens a line (`Read as: …`). */
export function readAsSentence(format: FormatId | undefined, reading: QuestionReading | undefined): string | null {
  const text = readAsText(format, reading);
  return text === null ? null : `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

function rewardValue(value: RewardField['value']): string {
  if (value === null) return '—';
  if (typeof value === 'boolean') return String(value);
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(4)));
}

/** `accuracy_reward 1 (the outcome) · format_reward 0 · advantage 0.866`; null when the file has none. */
export function rewardsText(rewards: readonly RewardField[] | null | undefined, outcomeField: string | null | undefined): string | null {
  if (!rewards || rewards.length === 0) return null;
  // Names are the file's keys: quoted capped, as every message that quotes input.
  return rewards.map((r) => `${capText(r.name, 80)} ${rewardValue(r.value)}${r.name === outcomeField ? ' (the outcome)' : ''}`).join(' · ');
}

const TURN_LABELS: Readonly<Record<TurnRole, string>> = {
  system: 'System prompt',
  user: 'User turn',
  assistant: 'Assistant turn',
  tool: 'Tool reply',
  'tool-call': 'Tool call',
};

/** A turn's heading in the Rollout View and the panel. */
export function turnLabel(role: TurnRole): string {
  return TURN_LABELS[role];
}
