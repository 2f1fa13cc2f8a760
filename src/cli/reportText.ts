/**
 * The report as a person reads it in a terminal: the totals first, then why rollouts were dropped,
 * then each group, then the suspected false positives worth opening.
 */
import { eachRollout, eachSuspected, groupIdsOfAnalysis, groupNamesOfAnalysis, type AnalysedRollout, type FileAnalysis, type RolloutBrief } from '../core/report/fileAnalysis';
import { formatPercent, formatScore } from '../core/presentation/numbers';
import { falsePositiveRulesText, reasonLabel } from '../core/presentation/reasonWords';
import { capText } from '../core/presentation/capText';
import { strongestFirst } from '../core/rules/flagStrength';
import { rolloutLocation } from '../core/presentation/locationWords';
import { thresholdText } from '../core/evaluation/thresholdWords';
import { gradingAgreementText } from '../core/presentation/outcomeWords';
import type { ThresholdSource } from '../core/evaluation/thresholdChoice';
import { ruleLine } from '../core/rules/ruleWords';

/** Render the whole report; `threshold` says where the threshold came from (calibrated, given …). */
export function renderReport(a: FileAnalysis, width = 100, threshold?: ThresholdSource): string {
  const r = a.report;
  const s = a.settings;
  const filter = s.remove !== null ? `remove=${s.remove}` : `m=${s.m}`;
  const lines = [
    `PROF report: ${a.fileName}`,
    `scorer: ${a.scorer.label}   ${filter} variant=${s.variant} penalty=${s.penalty} λ=${s.lambda} Hλ=${s.maxSteps} aggregate=${s.aggregate}`,
    ...(ruleLine(s) === null ? [] : [ruleLine(s) as string]),
    threshold ? thresholdText(threshold) : `threshold ${s.threshold}`,
    ...Object.entries(r.readAs ?? {}).map(([how, n]) => `${how}${Object.keys(r.readAs).length > 1 ? ` (${n} rollouts)` : ''}`),
    '',
    `rollouts ${r.rollouts} in ${r.groups} groups · kept ${r.kept} · dropped ${r.dropped - r.notRanked} · not ranked ${r.notRanked} · unreadable lines ${r.unreadableLines}`,
    `outcomes: correct ${r.outcomes.correct} (${formatPercent(r.accuracy)} of rollouts) · incorrect ${r.outcomes.incorrect} · unknown ${r.outcomes.unknown} · non-binary ${r.outcomes['non-binary']}`,
    ...(r.gradingAgreement ? [gradingAgreementText(r.gradingAgreement)] : []),
    `suspected false positives: ${r.suspectedFalsePositives} (${formatPercent(r.falsePositiveRate)} of ranked correct) — rules fired: ${ruleCounts(r.byFalsePositiveRule)}`,
    `step-count penalty: ${r.penalised} rollout${r.penalised === 1 ? '' : 's'} · AUROC of ${s.aggregate} step score vs outcome: ${r.auroc === null ? 'n/a' : r.auroc.toFixed(3)}`,
    `scored by: ${Object.entries(r.scorers).map(([k, v]) => `${k} ${v}`).join(' · ')}`,
    '',
    'decisions',
    ...Object.entries(r.byReason).map(([k, v]) => `  ${String(v).padStart(7)}  ${reasonLabel(k)}`),
    '',
    ...groupTable(a, width),
    ...falsePositiveList(a),
  ];
  return lines.join('\n') + '\n';
}

function ruleCounts(rules: Record<string, number | undefined>): string {
  const parts = Object.entries(rules).map(([k, v]) => `${falsePositiveRulesText([k])} ${v}`);
  return parts.length ? parts.join(' · ') : 'none';
}

/** Groups shown in the terminal; the rest are counted (`--json` and `filter --decisions` have them all). */
const GROUPS_SHOWN = 40;

/** One row per group: sizes, what was kept, and the decisions in file order as a strip. */
function groupTable(a: FileAnalysis, width: number): string[] {
  const ids = groupIdsOfAnalysis(a);
  const names = groupNamesOfAnalysis(a, GROUPS_SHOWN + 1);
  // Only the groups shown keep their rollouts (a dump's millions are walked once, not held), and
  // with columns only theirs are made.
  const byGroup = new Map<string, AnalysedRollout[]>();
  const rows = a.rows;
  const count = rows ? rows.count : a.rollouts.length;
  const into = { group: '', outcome: { kind: 'unknown', source: 'none' }, decision: null, responseChars: 0 } as unknown as RolloutBrief;
  for (let row = 0; row < count; row++) {
    const group = rows ? rows.brief(row, into).group : a.rollouts[row]!.group;
    const members = byGroup.get(group);
    if (!members && byGroup.size >= GROUPS_SHOWN + 1) continue;
    const r = rows ? rows.at(row) : a.rollouts[row]!;
    if (members) members.push(r);
    else byGroup.set(group, [r]);
  }
  const lines = [
    'groups   (strip, file order: K kept correct · k kept incorrect · D dropped correct · d dropped incorrect · T/t dropped by a tie (file order) · ? not ranked)',
    '  group      line     n  n+  n−  kept  strip      question',
  ];
  const limit = GROUPS_SHOWN;
  let shown = 0;
  for (const [key, members] of byGroup) {
    if (shown++ === limit) {
      lines.push(`  … ${ids.size - limit} more groups (use --json or filter --decisions for all)`);
      break;
    }
    const nPlus = members.filter((m) => m.outcome.kind === 'correct').length;
    const nMinus = members.filter((m) => m.outcome.kind === 'incorrect').length;
    const kept = members.filter((m) => m.decision.kept).length;
    const strip = members.map(stripChar).join('');
    const prompt = (names.get(members[0]!.id) || members[0]!.prompt || key.split('\u0000')[0]!).replace(/\s+/g, ' ');
    const head = `  ${capText(ids.get(key)!, 40).padEnd(9)} ${String(members[0]!.line).padStart(5)} ${String(members.length).padStart(5)} ${String(nPlus).padStart(3)} ${String(nMinus).padStart(3)} ${String(kept).padStart(5)}  ${strip.padEnd(10)} `;
    lines.push(head + prompt.slice(0, Math.max(10, width - head.length)));
  }
  return [...lines, ''];
}

function stripChar(r: AnalysedRollout): string {
  if (r.decision.rank === null) return '?';
  const correct = r.outcome.kind === 'correct';
  if (r.decision.kept) return correct ? 'K' : 'k';
  if (r.decision.reason === 'dropped-tie') return correct ? 'T' : 't';
  return correct ? 'D' : 'd';
}

function recordKey(r: Pick<AnalysedRollout, 'line' | 'item'>): string {
  return `${r.line}:${r.item ?? ''}`;
}

/** How many rollouts each listed rollout's record holds, counted only for grouped records (one pass). */
function responsesPerRecord(a: FileAnalysis, listed: readonly AnalysedRollout[]): Map<string, number> {
  const counts = new Map<string, number>();
  const wanted = new Set(listed.filter((r) => r.index > 0 || r.format === 'grouped').map(recordKey));
  if (wanted.size === 0) return counts;
  for (const r of eachRollout(a)) {
    const key = recordKey(r);
    if (wanted.has(key)) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** The suspected false positives, strongest evidence first (see core/flagStrength); only they are held. */
function falsePositiveList(a: FileAnalysis): string[] {
  const suspected = strongestFirst([...eachSuspected(a)]);
  if (suspected.length === 0) return ['no suspected false positives'];
  const rows = [`suspected false positives (correct answers with distrusted steps), strongest ${Math.min(20, suspected.length)} of ${suspected.length}`];
  const listed = suspected.slice(0, 20);
  const counts = responsesPerRecord(a, listed);
  for (const r of listed) {
    const where = rolloutLocation({ line: r.line, item: r.item, index: r.index, count: counts.get(recordKey(r)) });
    const strength = `strength ${formatScore(r.falsePositive.strength?.value)}`;
    rows.push(`  ${where.padEnd(22)} ${strength} · ${r.evidence ?? `weakest ${formatScore(r.weakestStep?.score)}`} · ${falsePositiveRulesText(r.falsePositive.rules)}`);
  }
  return rows;
}
