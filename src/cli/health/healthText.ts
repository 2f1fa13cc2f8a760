/**
 * `prof-lens health` as text: one block per detector (fired, quiet, not available, needs a run),
 * with its onset, severity, a sparkline of its series over the steps, and its examples as
 * `file:line` with the span that showed it.
 */
import { relative } from 'node:path';
import { DETECTOR_NAMES, type DetectorResult, type HealthReport, type HealthSeries } from '../../core/health/healthTypes';
import { RUN_ONLY_DETECTORS } from '../../core/health/healthReport';

const BARS = '▁▂▃▄▅▆▇█';
const MAX_SPARK = 60;

const STATUS_WORDS: Readonly<Record<DetectorResult['status'], string>> = {
  fired: 'FIRED',
  quiet: 'quiet',
  'not-available': 'not available',
  'needs-run': 'needs a run',
};

/** A series as one bar per step (every k-th step past 60 steps), blank where a step has no value. */
export function sparkline(series: HealthSeries): string {
  const values = series.points.map((p) => p.value);
  const known = values.filter((v): v is number => v !== null);
  if (known.length === 0) return '';
  const lo = Math.min(...known);
  const hi = Math.max(...known);
  const every = Math.max(1, Math.ceil(values.length / MAX_SPARK));
  let out = '';
  for (let i = 0; i < values.length; i += every) {
    const v = values[i];
    out += v === null || v === undefined ? ' ' : BARS[hi > lo ? Math.round(((v - lo) / (hi - lo)) * 7) : 0];
  }
  return out;
}

function seriesLines(d: DetectorResult): string[] {
  return d.series.flatMap((s) => {
    const line = sparkline(s);
    if (line === '') return [];
    const first = s.points[0]!.step;
    const last = s.points[s.points.length - 1]!.step;
    return [`    ${s.label}: ${line}  (steps ${first}–${last})`];
  });
}

function block(d: DetectorResult, cwd: string, isRun: boolean): string[] {
  const head = [STATUS_WORDS[d.status], d.name, d.severity ? `severity ${d.severity}` : null, d.onset !== null ? `onset step ${d.onset}` : null].filter((x) => x !== null).join(' · ');
  const lines = [head, `    ${d.summary}`];
  if (isRun && d.status !== 'not-available') lines.push(...seriesLines(d));
  for (const e of d.examples) {
    const where = `${relative(cwd, e.file) || e.file}:${e.line}${e.index > 0 ? ` [response ${e.index}]` : ''}${isRun ? ` step ${e.step}` : ''}`;
    lines.push(`    ${where} — ${e.note}`);
    lines.push(`      chars ${e.span.start}–${e.span.end}: ${JSON.stringify(e.span.text)}`);
  }
  return lines;
}

/** The text of one report. */
export function healthText(report: HealthReport, cwd: string): string {
  const isRun = report.kind === 'run';
  const what = isRun ? `run: ${report.steps} step${report.steps === 1 ? '' : 's'}` : 'one file';
  const out = [`PROF health: ${report.path} (${what}, ${report.rollouts.toLocaleString('en-US')} rollouts)`, ''];
  for (const d of report.detectors) out.push(...block(d, cwd, isRun), '');
  if (!isRun) out.push(`a run (a folder of step files) would add: ${RUN_ONLY_DETECTORS.map((id) => DETECTOR_NAMES[id]).join('; ')}; and the growth of response length over steps`, '');
  const fired = report.detectors.filter((d) => d.status === 'fired').length;
  out.push(`${fired} of ${report.detectors.length} detectors fired`);
  return out.join('\n') + '\n';
}
