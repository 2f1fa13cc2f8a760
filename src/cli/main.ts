/** The `prof-lens` command: dispatch to a command, map errors to exit codes. */
import { gradeCommand } from './commands/grade';
import { filterCommand } from './commands/filter';
import { reportCommand } from './commands/report';
import { scoreCommand } from './commands/score';
import { evalCommand } from './commands/evaluate';
import { doctorCommand } from './commands/doctor';
import { HELP } from './help';
import { releaseSharedCas } from '../scoring/cas/casClient';
import { UsageError } from './args';
import { EXIT_USAGE, type CliIo, type Command } from './io';

const COMMANDS: Record<string, Command> = { report: reportCommand, filter: filterCommand, score: scoreCommand, grade: gradeCommand, eval: evalCommand, doctor: doctorCommand };

/** Run the CLI with `argv` (without node and script); returns the exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(HELP);
    return name ? 0 : EXIT_USAGE;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.stderr(`prof-lens: unknown command "${name}" (commands: ${Object.keys(COMMANDS).join(', ')}; see prof-lens --help)\n`);
    return EXIT_USAGE;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(HELP);
    return 0;
  }
  try {
    return await command(rest, io);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const code = (error as NodeJS.ErrnoException).code;
    if (error instanceof UsageError) io.stderr(`prof-lens ${name}: ${message}\n`);
    else if (code === 'ENOENT' || code === 'EISDIR' || code === 'EACCES') io.stderr(`prof-lens ${name}: cannot read or write ${(error as NodeJS.ErrnoException).path ?? 'a file'}: ${code}\n`);
    else io.stderr(`prof-lens ${name}: ${error instanceof Error && error.stack ? error.stack : message}\n`);
    return EXIT_USAGE;
  } finally {
    // The CAS worker ends with the command, so the process can exit.
    await releaseSharedCas();
  }
}

/** Entry point for the `prof-lens` binary. */
export function main(): void {
  const io: CliIo = {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    isStderrTty: Boolean(process.stderr.isTTY),
    cwd: process.cwd(),
  };
  runCli(process.argv.slice(2), io).then((code) => {
    process.exitCode = code;
  });
}

if (require.main === module) main();
