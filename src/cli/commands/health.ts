/**
 * `prof-lens health <run|file>... [--json]`: every detector of the run-health audit over each run
 * (a folder of step files) or file. On one file only the detectors that judge each rollout on its
 * own run; the text says which ones a run would add. Files are read one after another in the
 * command's own thread (each streamed in batches: memory stays that of one batch).
 */
import { resolve } from 'node:path';
import { healthReport } from '../../core/health/healthReport';
import type { HealthReport } from '../../core/health/healthTypes';
import type { StepHealth } from '../../core/health/stepHealth';
import { isModelChoice } from '../../core/scorerChoice';
import { healthOfFile } from '../../scoring/health/healthFile';
import { noFilesMessage, RunPathError, runFilesOf } from '../../scoring/run/runLayoutFiles';
import { parseArgs, UsageError, type ParsedArgs } from '../args';
import { EXIT_OK, EXIT_UNREADABLE_LINES, type CliIo } from '../io';
import { healthText } from '../health/healthText';
import { terminalJson, terminalText } from '../terminalText';

async function reportOf(path: string, args: ParsedArgs, io: CliIo): Promise<HealthReport> {
  const listed = await runFilesOf(resolve(io.cwd, path), { fields: args.settings.fields }).catch((error: unknown) => {
    throw error instanceof RunPathError ? new UsageError(error.message) : error;
  });
  const parts: StepHealth[] = [];
  const problems: string[] = [];
  if (listed.files.length === 0) problems.push(`${path}: ${noFilesMessage(listed, 'train')}`);
  for (const file of listed.files) {
    try {
      const health = await healthOfFile(file, { settings: args.settings, scorer: args.scorer, ...(io.cas ? { cas: io.cas } : {}) });
      parts.push(...health.parts);
      problems.push(...health.problems.map((p) => `${file}: ${p}`));
    } catch (error) {
      problems.push(`${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return healthReport({ path, kind: listed.layout === null ? 'file' : 'run', parts, problems });
}

export async function healthCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv);
  const paths = args.positionals;
  if (paths.length === 0) throw new UsageError('health needs a run or a file: prof-lens health <run folder or file>... [--json]');
  if (isModelChoice(args.scorer)) throw new UsageError(`health scores steps with the file's scores or the checker: --scorer ${args.scorer} is not supported here`);
  const reports: HealthReport[] = [];
  for (const path of paths) reports.push(await reportOf(path, args, io));
  if (args.flags.has('--json')) io.stdout(terminalJson(JSON.stringify({ reports })) + '\n');
  else io.stdout(terminalText(reports.map((r) => healthText(r, io.cwd)).join('\n')));
  const problems = reports.flatMap((r) => r.problems);
  for (const p of problems) io.stderr(terminalText(`${p}\n`));
  return problems.length > 0 ? EXIT_UNREADABLE_LINES : EXIT_OK;
}
