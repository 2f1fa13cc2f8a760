/**
 * The report as a person reads it in a terminal: the totals first, then why rollouts were dropped,
 * then each group, then the suspected false positives worth opening.
 */
import type { AnalysedRollout, FileAnalysis } from '../core/analysis';
import { groupIds } from '../core/decisionLines';
import { formatPercent, formatScore } from '../core/presentation/numbers';
import { falsePositiveRulesText, reasonLabel } from '../core/presentation/reasonWords';

/** Render the whole report. */
export function renderReport(a: FileAnalysis, width = 100): string {
  const r = a.report;
  const s = a.settings;
  const filter = s.remove !== null ? `remove=${s.remove}` : `m=${s.m}`;
  const lines = [
    `PROF report: ${a.fileName}`,
    `scorer: ${a.scorer.label}   ${filter} variant=${s.variant} penalty=${s.penalty} λ=${s.lambda} Hλ=${s.maxSteps} aggregate=${s.aggregate} threshold=${s.threshold}`,
    ...Object.entries(r.readAs ?? {}).map(([how, n]) => `${how}${Object.keys(r.readAs).length > 1 ? ` (${n} rollouts)` : ''}`),
    '',
    `rollouts ${r.rollouts} in ${r.groups} groups · kept ${r.kept} · dropped ${r.dropped - r.notRanked} · not ranked ${r.notRanked} · unreadable lines ${r.unreadableLines}`,
    `outcomes: correct ${r.outcomes.correct} (${formatPercent(r.accuracy)} of rollouts) · incorrect ${r.outcomes.incorrect} · unknown ${r.outcomes.unknown} · non-binary ${r.outcomes['non-binary']}`,
    `suspected false positives: ${r.suspectedFalsePositives} (${formatPercent(r.falsePositiveRate)} of ranked correct) — rules fired: ${ruleCounts(r.byFalsePositiveRule)}`,
    `step-count penalty: ${r.penalised} rollout${r.penalised === 1 ? '' : 's'} · AUROC of ${s.aggregate} step score vs outcome: ${r.auroc === null ? 'n/a' : r.auroc.toFixed(3)}`,
    `scored by: ${Object.entries(r.scorers).map(([k, v]) => `${k} ${v}`).join(' · ')}`,
    '',
    'decisions',
    ...Object.entries(r.byReason).map(([k, v]) => `  ${String(v).padStart(7)}  ${reasonLabel(k)}`),
    '',
    ...groupTable(a, width),
    ...falsePositiveList(a.rollouts),
  ];
  return lines.join('\n') + '\n';
}

function ruleCounts(rules: Record<string, number | undefined>): string {
  const parts = Object.entries(rules).map(([k, v]) => `${falsePositiveRulesText([k])} ${v}`);
  return parts.length ? parts.join(' · ') : 'none';
}

/** One row per group: sizes, what was kept, and the decisions in file order as a strip. */
function groupTable(a: FileAnalysis, width: number): string[] {
  const ids = groupIds(a.rollouts);
  const byGroup = new Map<string, AnalysedRollout[]>();
  for (const r of a.rollouts) (byGroup.get(r.group) ?? byGroup.set(r.group, []).get(r.group)!).push(r);
  const rows = [
    'groups   (strip, file order: K kept correct · k kept incorrect · D dropped correct · d dropped incorrect · T/t dropped by a tie (file order) · ? not ranked)',
    '  group      line     n  n+  n−  kept  strip      prompt',
  ];
  const limit = 40;
  let shown = 0;
  for (const [key, members] of byGroup) {
    if (shown++ === limit) {
      rows.push(`  … ${byGroup.size - limit} more groups (use --json or filter --decisions for all)`);
      break;
    }
    const nPlus = members.filter((m) => m.outcome.kind === 'correct').length;
    const nMinus = members.filter((m) => m.outcome.kind === 'incorrect').length;
    const kept = members.filter((m) => m.decision.kept).length;
    const strip = members.map(stripChar).join('');
    const prompt = (members[0]!.prompt || key.split('\u0000')[0]!).replace(/\s+/g, ' ');
    const head = `  ${ids.get(key)!.padEnd(9)} ${String(members[0]!.line).padStart(5)} ${String(members.length).padStart(5)} ${String(nPlus).padStart(3)} ${String(nMinus).padStart(3)} ${String(kept).padStart(5)}  ${strip.padEnd(10)} `;
    rows.push(head + prompt.slice(0, Math.max(10, width - head.length)));
  }
  return [...rows, ''];
}

function stripChar(r: AnalysedRollout): string {
  if (r.decision.rank === null) return '?';
  const correct = r.outcome.kind === 'correct';
  if (r.decision.kept) return correct ? 'K' : 'k';
  if (r.decision.reason === 'dropped-tie') return correct ? 'T' : 't';
  return correct ? 'D' : 'd';
}

function falsePositiveList(rollouts: readonly AnalysedRollout[]): string[] {
  const suspected = rollouts.filter((r) => r.falsePositive.suspected);
  if (suspected.length === 0) return ['no suspected false positives'];
  const rows = [`suspected false positives (correct answers with distrusted steps), first ${Math.min(20, suspected.length)} of ${suspected.length}`];
  for (const r of suspected.slice(0, 20)) {
    const where = r.index > 0 || r.format === 'grouped' ? `line ${r.line} response ${r.index}` : `line ${r.line}`;
    rows.push(`  ${where.padEnd(22)} ${r.evidence ?? `weakest ${formatScore(r.weakestStep?.score)}`} · ${falsePositiveRulesText(r.falsePositive.rules)}`);
  }
  return rows;
}
