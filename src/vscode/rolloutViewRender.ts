/**
 * Renders rollouts as readable text for the Rollout View: a header per rollout, the prompt, one
 * block per numbered step, the final answer and the gold. Returns where each piece landed so the
 * view can carry the raw file's decorations, hovers and navigation. Pure: no `vscode` import.
 */
import type { ProfSettings } from '../core/profSettings';
import type { RolloutDetail } from '../protocol/analysis';
import { formatScore } from '../core/presentation/numbers';
import { clip } from '../core/presentation/numbers';
import { outcomeLine } from '../core/presentation/outcomeWords';
import { readAsSentence, rewardsText, turnLabel } from '../core/presentation/readingWords';
import { penaltyText } from '../core/presentation/penaltyWords';
import { falsePositiveRulesText, reasonLabel } from '../core/presentation/reasonWords';
import { splitTextLines } from '../core/read/lineBreaks';
import { rolloutLocation } from '../core/presentation/locationWords';

/**
 * The Rollout View's language (package.json: found by the view's first line, `# Rollout N · line
 * L`). Not Markdown: the rollout text in it is untrusted, and Markdown would turn
 * `[label](command:…)` and file links in it into links; `editor.links` is off for it as well.
 */
export const ROLLOUT_VIEW_LANGUAGE = 'prof-lens-rollout';

/** Where one step's text sits in the rendered document (0-based lines, end exclusive). */
export interface RenderedStep {
  step: number;
  /** The `[k] score` header line. */
  headerLine: number;
  startLine: number;
  endLine: number;
}

/** Where one rollout sits in the rendered document. */
export interface RenderedRollout {
  rolloutId: number;
  headerLine: number;
  steps: RenderedStep[];
}

export interface RenderedView {
  text: string;
  rollouts: RenderedRollout[];
}

/** What the renderer needs besides the rollouts. */
export interface RenderOptions {
  fileLabel: string;
  settings: Pick<ProfSettings, 'lambda' | 'maxSteps' | 'penalty'>;
  /** The user's label of a rollout in words (`labelled: first wrong step 2`), or null. */
  labelOf?: (rolloutId: number) => string | null;
  /** How many rollouts a line of the source holds (a grouped line holds several), for `response k of n`. */
  responsesOnLine?: (line: number) => number;
}

class LineWriter {
  readonly lines: string[] = [];
  get next(): number {
    return this.lines.length;
  }
  /** Splits as VS Code will (`\r\n`, `\n`, lone `\r`), so the recorded line numbers are the editor's. */
  write(...lines: string[]): void {
    // A loop, not push(...): a step can have more lines than a call may take arguments.
    for (const line of lines) for (const part of splitTextLines(line)) this.lines.push(part);
  }
}

function writeHeader(out: LineWriter, rollout: RolloutDetail, options: RenderOptions): void {
  const d = rollout.decision;
  out.write(
    `# Rollout ${rollout.id + 1} · ${rolloutLocation({ line: rollout.line, index: rollout.index, count: options.responsesOnLine?.(rollout.line), isGrouped: rollout.format === 'grouped' })} · ${options.fileLabel}`,
    '',
    `- Outcome: ${outcomeLine(rollout.outcome, rollout.gold, rollout.outcomeField ?? null)}`,
    `- PROF: ${reasonLabel(d.reason)} · consistency ${formatScore(d.consistency)} · H = ${d.steps} · penalty ${penaltyText(d, options.settings)}`,
    `- Scorer: ${rollout.scorer}`,
  );
  const rewards = rewardsText(rollout.rewards, rollout.outcomeField);
  if (rewards !== null) out.write(`- Rewards in the file: ${rewards}`);
  const readAs = readAsSentence(rollout.format, rollout.questionReading);
  if (readAs !== null) out.write(`- ${readAs}`);
  const label = options.labelOf?.(rollout.id) ?? null;
  if (label !== null) out.write(`- ${label.charAt(0).toUpperCase()}${label.slice(1)}`);
  if (rollout.falsePositive.suspected) {
    out.write(`- ⚠ Suspected false positive (${falsePositiveRulesText(rollout.falsePositive.rules)}): ${rollout.evidence ?? ''}`);
  }
}

/** The longest a system prompt is shown in the view: it is folded to its first words. */
const SYSTEM_SHOWN = 160;

/**
 * The prompt: a chat's turns before the question (the system prompt folded to one line), then the
 * question; a prompt that is not a chat as it stands.
 */
function writePrompt(out: LineWriter, rollout: RolloutDetail): void {
  const reading = rollout.promptReading;
  const turns = reading && (reading.kind === 'transcript' || reading.kind === 'messages') ? reading.turns : [];
  if (turns.length === 0) return void out.write('', '## Prompt', '', rollout.prompt.trim() || '(no prompt)');
  const lastUser = turns.map((t) => t.role).lastIndexOf('user');
  turns.forEach((turn, i) => {
    if (i === lastUser) return;
    if (turn.role === 'system') return void out.write('', `## System prompt (folded, ${turn.text.length.toLocaleString('en-US')} characters): ${clip(turn.text, SYSTEM_SHOWN)}`);
    out.write('', `## ${turnLabel(turn.role)}`, '', turn.text.trim() || '(empty)');
  });
  out.write('', '## Question', '', rollout.prompt.trim() || '(no prompt)');
}

/** The response's turns that are not the assistant's text, in order, to show between the steps. */
function replies(rollout: RolloutDetail): { start: number; label: string; text: string }[] {
  return (rollout.responseTurns ?? [])
    .filter((t) => t.role !== 'assistant')
    .map((t) => ({ start: t.start, label: turnLabel(t.role), text: rollout.response.slice(t.start, t.end).trim() }));
}

function writeSteps(out: LineWriter, rollout: RolloutDetail): RenderedStep[] {
  const rendered: RenderedStep[] = [];
  out.write('', '## Steps', '');
  const between = replies(rollout);
  const writeRepliesBefore = (offset: number): void => {
    while (between.length > 0 && between[0]!.start < offset) {
      const reply = between.shift()!;
      out.write(`### ${reply.label} (not a step, not scored)`, reply.text || '(empty)', '');
    }
  };
  rollout.steps.forEach((step, i) => {
    writeRepliesBefore(step.start);
    const score = rollout.stepScores[i];
    const isLow = rollout.lowSteps.includes(i);
    const note = rollout.stepNotes[i];
    const headerLine = out.next;
    out.write(`### [${i + 1}/${rollout.steps.length}] score ${formatScore(score)}${isLow ? ' — low' : ''}${note ? ` · ${note}` : ''}`);
    const startLine = out.next;
    out.write(step.text.trim() === '' ? '(empty step)' : step.text.trim());
    rendered.push({ step: i, headerLine, startLine, endLine: out.next });
    out.write('');
  });
  writeRepliesBefore(Number.POSITIVE_INFINITY);
  return rendered;
}

/** Renders one or more rollouts (a group) into one document. */
export function renderRollouts(rollouts: readonly RolloutDetail[], options: RenderOptions): RenderedView {
  const out = new LineWriter();
  const placed: RenderedRollout[] = [];
  rollouts.forEach((rollout, i) => {
    if (i > 0) out.write('', '---', '');
    const headerLine = out.next;
    writeHeader(out, rollout, options);
    writePrompt(out, rollout);
    const steps = writeSteps(out, rollout);
    out.write('## Final answer', '', rollout.outcome.extracted ?? '(none extracted)', '', '## Gold', '', rollout.gold ?? '(none)');
    placed.push({ rolloutId: rollout.id, headerLine, steps });
  });
  return { text: out.lines.join('\n') + '\n', rollouts: placed };
}
