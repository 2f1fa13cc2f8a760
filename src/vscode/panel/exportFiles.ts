/**
 * The panel's exports, byte for byte what `prof-lens filter` writes: kept rollouts as the original
 * bytes of their lines (a grouped line trimmed to its kept responses), and one decision line per
 * rollout. Decisions can be taken again under what-if settings first. Pure: no `vscode` import.
 */
import { NOT_SUSPECTED } from '../../core/rules/groups';
import { decideAll } from '../../core/rules/decideList';
import { rolloutFacts } from '../../core/presentation/rolloutFacts';
import { csvCell } from '../../core/presentation/csvCell';
import { decisionLine, groupIds } from '../../core/lines/decisionLines';
import { keptElementText, keptLineBytes, keptLineText, lineBytesOf, rolloutsOfRecord } from '../../core/lines/keptLines';
import { splitByteLines } from '../../core/read/byteLines';
import { readText } from '../../core/read/reader';
import type { ProfSettings } from '../../core/profSettings';
import type { RolloutSummary } from '../../protocol/analysis';
import { rankScores } from './panelData';

/** The rollouts with their decisions taken again under `settings`, in the same order. */
export function decideFile(rollouts: readonly RolloutSummary[], settings: ProfSettings): RolloutSummary[] {
  const members = rollouts.map((r) => ({
    id: r.id,
    group: r.group,
    correct: r.outcome.kind === 'correct' ? true : r.outcome.kind === 'incorrect' ? false : null,
    nonBinary: r.outcome.kind === 'non-binary',
    scores: rankScores(r),
  }));
  const decided = decideAll(members, settings);
  return rollouts.map((r, i) => {
    const decision = decided.decisions[i] ?? r.decision;
    const falsePositive = decided.falsePositives[i] ?? r.falsePositive;
    const facts = rolloutFacts({ stepScores: r.stepScores, stepNotes: r.stepNotes, isScored: r.isScored, steps: decision.steps, falsePositive }, settings);
    return { ...r, ...facts, decision, falsePositive };
  });
}

function records(rollouts: readonly RolloutSummary[]): Record<string, unknown>[] {
  const labels = groupIds(rollouts);
  return rollouts.map((r) => ({ ...decisionLine(r, labels.get(r.group) ?? '') }));
}

/** Decision lines as JSONL, the same text as `prof-lens filter --decisions`. */
export function decisionsJsonl(rollouts: readonly RolloutSummary[]): string {
  return records(rollouts).map((record) => JSON.stringify(record) + '\n').join('');
}

/** Decision lines as CSV with a header row; list fields are space-separated. */
export function decisionsCsv(rollouts: readonly RolloutSummary[]): string {
  const rows = records(rollouts);
  const columns = Object.keys(decisionLine(rollouts[0] ?? emptyRollout(), ''));
  const lines = [columns.join(','), ...rows.map((row) => columns.map((c) => csvCell(row[c])).join(','))];
  return lines.map((l) => l + '\r\n').join('');
}

function emptyRollout(): RolloutSummary {
  return {
    id: 0, line: 0, index: 0, group: '', gold: null, rawSteps: null, stepScores: [], stepNotes: [], scorer: '',
    outcome: { kind: 'unknown', source: 'none' }, falsePositive: NOT_SUSPECTED,
    lowSteps: [], firstLowStep: null, weakestStep: null, isScored: false, evidence: null,
    decision: { id: 0, kept: false, reason: 'not-ranked-no-outcome', steps: 0, score: null, consistency: null, penalised: false, rank: null },
  };
}

/** The kept rollouts' lines and how many lines that is. */
export interface KeptOutput {
  bytes: Uint8Array;
  lines: number;
}

function byLine(rollouts: readonly RolloutSummary[]): Map<number, RolloutSummary[]> {
  const lines = new Map<number, RolloutSummary[]>();
  for (const r of rollouts) {
    const list = lines.get(r.line);
    if (list) list.push(r);
    else lines.set(r.line, [r]);
  }
  return lines;
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/**
 * Kept rollouts of a file given as its bytes: the same bytes `prof-lens filter` writes (`.json`
 * arrays: one line per kept element, from its own text). `fields`: the analysis's field mapping.
 */
export function keptBytes(bytes: Uint8Array, rollouts: readonly RolloutSummary[], fileName: string, fields: ProfSettings['fields'] = {}): KeptOutput {
  const lines = byLine(rollouts);
  const encoder = new TextEncoder();
  const decoder = new TextDecoder('utf-8');
  const chunks: Uint8Array[] = [];
  if (/\.json$/i.test(fileName)) {
    // Several elements may start on one line: each takes the rollouts it gave, in file order.
    const ordered = [...rollouts].sort((a, b) => a.id - b.id);
    let next = 0;
    for (const record of readText(decoder.decode(bytes), fileName).records) {
      const count = rolloutsOfRecord(record, fields);
      const own = ordered.slice(next, next + count);
      next += count;
      const text = keptElementText(record.raw, own.length > 0 ? own : undefined, fields);
      if (text !== null) chunks.push(encoder.encode(text + '\n'));
    }
    return { bytes: concat(chunks), lines: chunks.length };
  }
  // Lines are split as the analysis split them (the one line reader), so line numbers match; as
  // in `filter`, a line's text is decoded only when some of its rollouts are kept and others not.
  for (const line of splitByteLines(bytes, { keepBytes: true, textOnDemand: true })) {
    const rollouts = lines.get(line.line);
    if (!rollouts || !line.bytes) continue;
    const kept = keptLineBytes(lineBytesOf(line, line.bytes), rollouts, fields);
    if (kept !== null) chunks.push(kept);
  }
  return { bytes: concat(chunks), lines: chunks.length };
}

/** Kept rows of a parquet file (each row a line of JSON): the lines `prof-lens filter` writes for them. */
export function keptRowBytes(rows: readonly { line: number; raw: string }[], rollouts: readonly RolloutSummary[], fields: ProfSettings['fields'] = {}): KeptOutput {
  const lines = byLine(rollouts);
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [];
  for (const row of rows) {
    const text = keptLineText(row.raw, lines.get(row.line), fields);
    if (text !== null) chunks.push(encoder.encode(text + '\n'));
  }
  return { bytes: concat(chunks), lines: chunks.length };
}
