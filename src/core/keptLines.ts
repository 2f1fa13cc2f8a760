/**
 * What offline PROF curation writes for one input line: the line itself when all its rollouts are
 * kept, the line trimmed to its kept responses when some are (grouped lines, keyed solutions), and
 * nothing when none is. Shared by `prof-lens filter` and the panel's export.
 */
import { adaptRecord } from './formats';
import { parseLenient } from './lenientJson';
import { keepResponses } from './rawEdit';

/** The text to write for `raw`, or null to leave the line out. */
export function keptLineText(raw: string, rollouts: readonly { index: number; decision: { kept: boolean } }[] | undefined): string | null {
  if (!rollouts || rollouts.length === 0) return null;
  const kept = new Set(rollouts.filter((r) => r.decision.kept).map((r) => r.index));
  if (kept.size === 0) return null;
  if (kept.size === rollouts.length) return raw;
  const parsed = parseLenient(raw);
  if (!parsed.ok) return null;
  const drafts = adaptRecord({ line: 0, raw, value: parsed.value }).drafts;
  const first = drafts[0]?.responsePath;
  if (!first) return raw;
  const isKeyed = first.length === 2 && first[1] === 'solution';
  return isKeyed
    ? keepResponses(raw, kept, { keyedMembers: drafts.map((d) => String(d.responsePath?.[0])) })
    : keepResponses(raw, kept, { responsesKey: String(first[0]) });
}
