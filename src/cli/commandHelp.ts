/** `prof-lens <command> --help`: that command's usage, and the shared sections that apply to it. */
import { HELP } from './help';

/** Commands that take no PROF or scorer options: their help leaves the Options section out. */
const WITHOUT_OPTIONS = new Set(['grade']);

/** The block of `HELP` between a line starting `heading` and the next section heading. */
function section(heading: string): string {
  const start = HELP.indexOf(`\n${heading}`);
  if (start < 0) return '';
  const next = HELP.slice(start + 1).search(/\n\n(?=\S)/);
  return HELP.slice(start + 1, next < 0 ? undefined : start + 1 + next + 1);
}

/** The usage lines of one command: its `  prof-lens <name> …` line and the indented lines under it. */
function usageBlock(name: string): string {
  const lines = HELP.split('\n');
  const first = lines.findIndex((l) => l.startsWith(`  prof-lens ${name} `) || l === `  prof-lens ${name}`);
  if (first < 0) return '';
  let end = first + 1;
  while (end < lines.length && /^ {4,}\S/.test(lines[end] ?? '')) end++;
  return lines.slice(first, end).join('\n');
}

/** The help of one command; the whole `HELP` for a name it does not know. */
export function commandHelp(name: string): string {
  const usage = usageBlock(name);
  if (!usage) return HELP;
  const parts = [HELP.slice(0, HELP.indexOf('\n')), '', 'Usage:', usage, ''];
  if (name !== 'grade' && name !== 'doctor') parts.push(section('Input:'));
  if (!WITHOUT_OPTIONS.has(name)) parts.push(section('Options:'));
  parts.push(section('Exit codes:'));
  const examples = HELP.slice(HELP.indexOf('\nExample:') + 1).split('\n').filter((l) => l.startsWith(`  prof-lens ${name} `));
  if (examples.length) parts.push(['Example:', ...examples].join('\n') + '\n');
  return `${parts.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}
