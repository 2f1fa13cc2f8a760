/** The set-up report's lines and sections, and the helpers every section's check writes them with. */
import type { StepScoring } from '../../core/model';
import { errorText } from '../../core/errorText';

/** How one line of the report came out. `info` is neither good nor bad. */
export type CheckStatus = 'ok' | 'warning' | 'error' | 'info';

/** One finding: a short label and what was found. */
export interface CheckLine {
  status: CheckStatus;
  label: string;
  detail: string;
}

/** A titled group of findings. */
export interface CheckSection {
  title: string;
  lines: CheckLine[];
}

/** Milliseconds since `since`, for a report line. */
export function elapsed(since: number): string {
  return `${Math.round(performance.now() - since)} ms`;
}

/** An error's first line without a trailing full stop, for a report line. */
export function messageOf(error: unknown): string {
  return errorText(error).split('\n')[0]!.replace(/\.$/, '');
}

/** A PRM smoke score as a report line. */
export function describeScoring(result: StepScoring | undefined, since: number): CheckLine {
  if (result?.kind !== 'scored') {
    return { status: 'error', label: 'smoke score', detail: `the rollout was not scored: ${result?.reason ?? 'no result'}` };
  }
  const scores = result.scores.map((s) => (s === null ? 'null' : s.toFixed(3))).join(', ');
  return { status: 'ok', label: 'smoke score', detail: `${result.scores.length} steps scored in ${elapsed(since)}: ${scores}` };
}
