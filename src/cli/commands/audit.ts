/**
 * `prof-lens audit <dump> (--critic URL | --labels FILE) [--sample N] [--seed N] [--json]`: the
 * paper's §3 audit (Figure 1) on the user's own dump. The correct answers (a seeded sample of N),
 * judged for a flawed step by a critic or by the user's labels: the flawed share with a 95% Wilson
 * interval, and what PROF (with the dump's step scores, or --model/--url, at the current m) does
 * with the flawed ones. The paper's figures: 26.28% of correct answers flawed; the bottom half by
 * consistency removed 65.88% of those.
 */
import { auditFigures, auditSample, type AuditResult } from '../../core/rules/flawAudit';
import { formatPercent } from '../../core/presentation/numbers';
import { thresholdText } from '../../core/evaluation/thresholdWords';
import { readLabelsFile } from '../../scoring/labels/labelFiles';
import { parseArgs, UsageError } from '../args';
import { judgeByCritic, judgeByLabels, type Judged } from '../auditJudges';
import { listed } from '../evalText';
import { analyseAtThreshold } from '../threshold';
import { withScorer } from '../scorerOptions';
import { printDiagnostics } from './report';
import { EXIT_OK, EXIT_UNREADABLE_LINES, type CliIo } from '../io';
import { terminalJson, terminalText } from '../terminalText';

const USAGE = 'audit needs a dump and a judge: prof-lens audit <dump> (--critic <url> | --labels <file>) [--sample N] [--seed N] [--json]';

export async function auditCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv);
  const file = args.positionals[0];
  const labelsPath = args.values.get('--labels');
  const hasCritic = (args.lists.get('--critic') ?? []).length > 0;
  if (!file || hasCritic === (labelsPath !== undefined)) throw new UsageError(USAGE);
  const size = args.values.has('--sample') ? sampleSize(args.values.get('--sample')!) : null;
  const labels = labelsPath ? await readLabelsFile(labelsPath) : null;
  if (labels && labels.store.labels.size === 0) throw new UsageError(`no labels read from ${labelsPath}: ${labels.problems.slice(0, 3).join('; ') || 'the file holds none'}`);
  for (const problem of labels?.problems.slice(0, 20) ?? []) io.stderr(`prof-lens: warning: ${problem}\n`);
  const { analysis, threshold } = await withScorer(args, io, (scoring) => analyseAtThreshold(file, args, io, scoring, { keepText: true, command: 'audit' }));
  printDiagnostics(analysis, io);
  const sample = auditSample(analysis.rollouts, size, args.settings.seed);
  const judged: Judged = labels ? judgeByLabels(sample, labels.store) : await judgeByCritic(sample, args, io);
  const result = auditFigures(labels ? 'labels' : 'critic', judged.verdicts, analysis.rollouts);
  if (args.flags.has('--json')) io.stdout(terminalJson(JSON.stringify(result)) + '\n');
  else io.stdout(terminalText(renderAudit(result, { file, sampled: sample.length, isSampled: size !== null, notJudged: judged.notJudged, scorer: analysis.scorer.label, threshold: thresholdText(threshold.source), m: args.settings.remove !== null ? `remove=${args.settings.remove}` : `m=${args.settings.m}` })));
  return analysis.report.unreadableLines > 0 ? EXIT_UNREADABLE_LINES : EXIT_OK;
}

function sampleSize(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--sample expects a whole number ≥ 1, got "${value}"`);
  return n;
}

interface AuditContext {
  file: string;
  sampled: number;
  isSampled: boolean;
  notJudged: string[];
  scorer: string;
  threshold: string;
  m: string;
}

function renderAudit(r: AuditResult, c: AuditContext): string {
  const interval = r.interval ? `95% interval ${formatPercent(r.interval[0])} – ${formatPercent(r.interval[1])}` : 'no interval';
  const rows = [
    `false-positive audit: ${c.file} (judge: ${r.judge === 'labels' ? 'your labels' : 'the critic'})`,
    `  correct answers judged: ${r.sample} of ${c.sampled}${c.isSampled ? ' sampled' : ''}${c.notJudged.length ? ` (${c.notJudged.length} not judged)` : ''}`,
    `  flawed (a wrong step on the way to a correct answer): ${r.flawed} = ${formatPercent(r.flawedShare)} (${interval}; the paper's base model: 26.28%)`,
    `  PROF with scorer ${c.scorer}, ${c.m}, ${c.threshold}:`,
    `    bottom half by consistency removes ${formatPercent(r.prof.bottomHalfRemovedOfFlawed)} of the flawed ones (the paper: 65.88%)`,
    `    its decisions drop ${formatPercent(r.prof.droppedOfFlawed)} of the flawed ones`,
    r.prof.soundOfRemoved === null
      ? '    it drops none of the judged correct answers'
      : `    of the judged correct answers it drops, ${formatPercent(r.prof.soundOfRemoved)} were sound`,
  ];
  if (c.notJudged.length > 0) rows.push('  not judged:', ...listed(c.notJudged));
  return rows.join('\n') + '\n';
}
