/** The `prof-lens` command: dispatch to a command, map errors to exit codes. */
import { gradeCommand } from './commands/grade';
import { filterCommand } from './commands/filter';
import { reportCommand } from './commands/report';
import { scoreCommand } from './commands/score';
import { evalCommand } from './commands/evaluate';
import { doctorCommand } from './commands/doctor';
import { trendCommand } from './commands/trend';
import { auditCommand } from './commands/audit';
import { createInterface } from 'node:readline/promises';
import { HELP } from './help';
import { releaseSharedCas } from '../scoring/cas/casClient';
import { EXIT_OK, EXIT_USAGE, type CliIo, type Command } from './io';

const COMMANDS: Record<string, Command> = { report: reportCommand, filter: filterCommand, score: scoreCommand, grade: gradeCommand, eval: evalCommand, doctor: doctorCommand, trend: trendCommand, audit: auditCommand };

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
    io.stderr(`prof-lens ${name}: ${errorMessage(error)}\n`);
    return EXIT_USAGE;
  } finally {
    // The CAS worker ends with the command, so the process can exit.
    await releaseSharedCas();
  }
}

/** Set to 1 to have errors printed with their stack trace (for a bug report). */
const DEBUG_VARIABLE = 'PROF_LENS_DEBUG';
const FILE_ERRORS = new Set(['ENOENT', 'EISDIR', 'EACCES', 'EPERM', 'ENOTDIR']);

/**
 * What the user reads when a command fails: the message, never a stack trace (unless
 * PROF_LENS_DEBUG=1). Usage errors, refused outputs and failures of a model or a server already
 * say what was expected; file errors name the file.
 */
export function errorMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (process.env[DEBUG_VARIABLE] === '1' && error.stack) return error.stack;
  const { code, path } = error as NodeJS.ErrnoException;
  if (code && FILE_ERRORS.has(code) && path) return `cannot read or write ${path}: ${code}`;
  return error.message || error.name;
}

/** Entry point for the `prof-lens` binary. */
export function main(): void {
  const io: CliIo = {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    isStderrTty: Boolean(process.stderr.isTTY),
    cwd: process.cwd(),
    ...(process.stdin.isTTY ? { ask: askOnTerminal } : {}),
  };
  // `prof-lens … | head`: the reader left, which is not an error; stop quietly.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(EXIT_OK);
    fail(error);
  });
  // Whatever escapes a command (a stream's error event, a rejection nobody awaited) is a message too.
  process.on('uncaughtException', fail);
  process.on('unhandledRejection', fail);
  runCli(process.argv.slice(2), io).then((code) => {
    process.exitCode = code;
  });
}

/** One line typed on the terminal, the question on stderr (stdout may be a pipe). */
async function askOnTerminal(question: string): Promise<string | null> {
  const lines = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await lines.question(question);
  } finally {
    lines.close();
  }
}

function fail(error: unknown): void {
  process.stderr.write(`prof-lens: ${errorMessage(error)}\n`);
  process.exit(EXIT_USAGE);
}

if (require.main === module) main();
