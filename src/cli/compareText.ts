/**
 * `prof-lens compare` on a terminal: the totals, then the prompts whose pass rate fell (largest
 * fall first), then those whose rose (largest rise first), each with both sides' pass rates,
 * rollouts, best kept consistency and suspected false positives. Scripts use `--json`.
 */
import type { Comparison, PromptComparison } from '../core/compare/comparison';
import { clip, formatPercent, formatScore } from '../core/presentation/numbers';

/** Prompts listed per direction; `--json` has them all. */
const SHOWN = 25;

function signedPoints(delta: number): string {
  const points = delta * 100;
  return `${points > 0 ? '+' : points < 0 ? '−' : '±'}${Math.abs(points).toFixed(1)}`;
}

const HEAD = ['Δ pass', 'pass a → b', 'n a/b', 'consistency a → b', 'FP a/b', 'group a/b', 'prompt'];

function row(p: PromptComparison, promptWidth: number): string[] {
  return [
    signedPoints(p.delta),
    `${formatPercent(p.passRateA)} → ${formatPercent(p.passRateB)}`,
    `${p.nA}/${p.nB}`,
    `${formatScore(p.consistencyA)} → ${formatScore(p.consistencyB)}`,
    `${p.suspectedFalsePositivesA}/${p.suspectedFalsePositivesB}`,
    `${clip(p.groupA, 16)}/${clip(p.groupB, 16)}`,
    clip(p.prompt, promptWidth),
  ];
}

function table(prompts: readonly PromptComparison[], promptWidth: number): string[] {
  const rows = prompts.map((p) => row(p, promptWidth));
  const widths = HEAD.map((h, i) => Math.max([...h].length, ...rows.map((r) => [...r[i]!].length)));
  // Numbers right-aligned, the prompt left-aligned and last.
  const pad = (cells: readonly string[]): string => cells.map((cell, i) => (i === cells.length - 1 ? cell : ' '.repeat(widths[i]! - [...cell].length) + cell)).join('  ');
  return [pad(HEAD), ...rows.map(pad)].map((line) => `  ${line}`);
}

/** The comparison as a person reads it; `rule`: the curation rule's line when it is not PROF (as `report` prints it). */
export function renderComparison(a: string, b: string, c: Comparison, width = 120, rule: string | null = null): string {
  const t = c.totals;
  const promptWidth = Math.max(30, width - 80);
  // Sorted by change, falls first: the first `regressed` prompts fell, the last `improved` rose.
  const regressed = c.prompts.slice(0, t.regressed);
  const improved = c.prompts.slice(c.prompts.length - t.improved).reverse();
  const out = [
    `PROF compare: a = ${a}`,
    `              b = ${b}`,
    ...(rule === null ? [] : [rule]),
    '',
    `prompts: ${t.aligned} on both sides · ${c.onlyA} only in a · ${c.onlyB} only in b`,
    `pass rate on the prompts both have: ${formatPercent(t.passRateA)} → ${formatPercent(t.passRateB)}${t.delta === null ? '' : ` (${signedPoints(t.delta)} points)`}`,
    `per prompt: ${t.regressed} fell · ${t.improved} rose · ${t.unchanged} unchanged`,
    `suspected false positives on those prompts: ${t.suspectedFalsePositivesA} → ${t.suspectedFalsePositivesB}`,
    `rollouts: ${t.rolloutsA} in a · ${t.rolloutsB} in b${t.unreadableLinesA + t.unreadableLinesB > 0 ? ` · unreadable lines ${t.unreadableLinesA} in a, ${t.unreadableLinesB} in b` : ''}`,
    '',
  ];
  for (const [title, list] of [['largest falls', regressed], ['largest rises', improved]] as const) {
    if (list.length === 0) continue;
    out.push(list.length > SHOWN ? `${title} (${SHOWN} of ${list.length})` : title, ...table(list.slice(0, SHOWN), promptWidth));
    if (list.length > SHOWN) out.push(`  … and ${list.length - SHOWN} more (--json lists every prompt)`);
    out.push('');
  }
  if (t.aligned === 0) out.push('no prompt is on both sides: are these dumps of the same prompts?', '');
  out.push('pass = correct rollouts / rollouts of the prompt; consistency = the best kept rollout\'s; FP = suspected false positives.');
  return out.join('\n') + '\n';
}
