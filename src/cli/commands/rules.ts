/**
 * `prof-lens rules <file> [--json]`: every curation rule on the file, side by side — what each keeps
 * and drops, the balance it keeps, the suspected false positives it lets through, the groups it
 * drops whole, what it could not read, and how far every two rules agree on what they keep.
 * `--rule-param RULE.k=v` sets a rule's parameter (`--rule-param roc.down_sample_to_n=4`).
 */
import { eachRollout } from '../../core/report/fileAnalysis';
import { compareRules, figuresOf, memberOf, type RulesComparison } from '../../core/rules/compareRules';
import type { GroupMember } from '../../core/rules/groups';
import { tieText } from '../../core/rules/ruleWords';
import { parseRuleParam, ruleNamed, RULE_NAMES } from '../../core/rules/registry';
import type { ParamValue } from '../../core/rules/rule';
import { parseArgs, UsageError } from '../args';
import { analyseAtThreshold } from '../threshold';
import { withScorer } from '../scorerOptions';
import { EXIT_OK, EXIT_UNREADABLE_LINES, type CliIo } from '../io';
import { terminalJson, terminalText } from '../terminalText';
import { printDiagnostics } from './report';

export async function rulesCommand(argv: string[], io: CliIo): Promise<number> {
  const { rest, params } = ruleParams(argv);
  const args = parseArgs(rest);
  if (args.values.has('--rule')) throw new UsageError('rules shows every rule; --rule is for report, filter, trend and compare');
  const file = args.positionals[0];
  if (!file) throw new UsageError('rules needs a file: prof-lens rules <file> [--json]');
  const { analysis } = await withScorer(args, io, (scoring) => analyseAtThreshold(file, args, io, scoring, { keepText: true, command: 'rules' }));
  const members: GroupMember[] = [];
  for (const r of eachRollout(analysis)) members.push(memberOf(r, true));
  const comparison = compareRules(members, analysis.settings, params);
  if (args.flags.has('--json')) io.stdout(terminalJson(JSON.stringify({ file: analysis.fileName, ...figuresOf(comparison), params })) + '\n');
  else io.stdout(terminalText(rulesText(analysis.fileName, comparison)));
  printDiagnostics(analysis, io);
  return analysis.report.unreadableLines > 0 ? EXIT_UNREADABLE_LINES : EXIT_OK;
}

/** `--rule-param RULE.k=v` taken out of argv (the other options are the shared ones). */
function ruleParams(argv: readonly string[]): { rest: string[]; params: Record<string, Record<string, ParamValue>> } {
  const rest: string[] = [];
  const params: Record<string, Record<string, ParamValue>> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg !== '--rule-param' && !arg.startsWith('--rule-param=')) {
      rest.push(arg);
      continue;
    }
    const text = arg.includes('=') && arg.startsWith('--rule-param=') ? arg.slice('--rule-param='.length) : argv[++i];
    if (text === undefined) throw new UsageError('--rule-param needs a value: RULE.name=value');
    const dot = text.indexOf('.');
    const rule = ruleNamed(text.slice(0, Math.max(0, dot)));
    if (!rule) throw new UsageError(`--rule-param in rules takes RULE.name=value with RULE one of ${RULE_NAMES.join(', ')}, got "${text}"`);
    const parsed = parseRuleParam(rule, text.slice(dot + 1));
    if (typeof parsed === 'string') throw new UsageError(parsed);
    (params[rule.name] ??= {})[parsed.name] = parsed.value;
  }
  return { rest, params };
}

/** The comparison as a person reads it in a terminal. */
export function rulesText(fileName: string, c: RulesComparison): string {
  const pad = (s: string | number, n: number): string => String(s).padStart(n);
  // Columns as wide as the longest rule name (a rule added to the catalog may have a long one).
  const nameWidth = Math.max(6, ...c.rules.map((r) => r.rule.length));
  const pairWidth = Math.max(14, ...c.overlaps.map((o) => `${o.a} & ${o.b}`.length));
  const lines = [
    `curation rules: ${fileName}`,
    `rollouts ${c.rollouts} in ${c.groups} groups · suspected false positives ${c.suspected} (flags under the current scorer and flag rules)`,
    '',
    `  ${'rule'.padEnd(nameWidth)}    kept  dropped  kept correct  kept incorrect  suspected kept  groups dropped whole`,
    ...c.rules.map((r) => `  ${r.rule.padEnd(nameWidth)} ${pad(r.kept, 7)} ${pad(r.dropped, 8)} ${pad(r.keptCorrect, 13)} ${pad(r.keptIncorrect, 15)} ${pad(r.falsePositivesKept, 15)} ${pad(r.groupsDroppedWhole, 21)}`),
    ...c.rules.flatMap((r) => r.missing.map((m) => `  ${r.rule}: ${m}`)),
    ...c.rules.filter((r) => r.groupsTieBroken > 0).map((r) => `  ${r.rule}: ${tieText(r.groupsTieBroken)}`),
    '',
    'kept by both (only the first · only the second)',
    ...c.overlaps.map((o) => `  ${`${o.a} & ${o.b}`.padEnd(pairWidth)} ${pad(o.both, 7)}  (${o.onlyA} · ${o.onlyB})`),
  ];
  return `${lines.join('\n')}\n`;
}
