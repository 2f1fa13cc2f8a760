/** The `prof-lens` command: dispatch to a command, map errors to exit codes. */
import { commandHelp } from './commandHelp';
import { writeStdout } from './stdout';
import { HELP } from './help';
import { CasClient } from '../scoring/cas/casClient';
import { removeTemporaryFiles } from '../scoring/output/outputFiles';
import { EXIT_USAGE, type CliIo, type Command } from './io';
import { terminalText } from './terminalText';
import { capText } from '../core/presentation/capText';

/**
 * Each command's module is loaded when it runs: `report` never loads the model scorers, the
 * servers' clients or the trend workers.
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  report: async () => (await import('./commands/report')).reportCommand,
  filter: async () => (await import('./commands/filter')).filterCommand,
  score: async () => (await import('./commands/score')).scoreCommand,
  grade: async () => (await import('./commands/grade')).gradeCommand,
  eval: async () => (await import('./commands/evaluate')).evalCommand,
  doctor: async () => (await import('./commands/doctor')).doctorCommand,
  trend: async () => (await import('./commands/trend')).trendCommand,
  compare: async () => (await import('./commands/compare')).compareCommand,
  audit: async () => (await import('./commands/audit')).auditCommand,
  health: async () => (await import('./commands/health')).healthCommand,
  rules: async () => (await import('./commands/rules')).rulesCommand,
};

/** Run the CLI with `argv` (without node and script); returns the exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(HELP);
    return name ? 0 : EXIT_USAGE;
  }
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) {
    io.stderr(terminalText(`prof-lens: unknown command "${capText(name)}" (commands: ${Object.keys(COMMANDS).join(', ')}; see prof-lens --help)\n`));
    return EXIT_USAGE;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(commandHelp(name));
    return 0;
  }
  // Every message on stderr quotes only what a terminal shows as text (file names, keys and server
  // answers may hold escape sequences); the progress line keeps its carriage return.
  // The command's CAS worker starts on the first answer or claim that needs it.
  const cas = new CasClient();
  // Its properties copied as they are, not spread: a spread would read `isStderrTty` and `ask` now,
  // making the streams they look at.
  const safeIo = Object.defineProperties({}, Object.getOwnPropertyDescriptors(io)) as CliIo;
  safeIo.cas = cas;
  safeIo.stderr = (t) => io.stderr(terminalText(t, { keepCarriageReturn: true }));
  try {
    const command = await load();
    return await command(rest, safeIo);
  } catch (error) {
    safeIo.stderr(`prof-lens ${name}: ${capText(errorMessage(error), MAX_ERROR_CHARS)}\n`);
    return EXIT_USAGE;
  } finally {
    // The CAS worker ends with the command, so the process can exit.
    await cas.dispose();
  }
}

/** Longest error message printed: it may quote input (a path, a server's words). */
const MAX_ERROR_CHARS = 2000;

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
  // Looked at when first needed: looking at `process.stderr` or `process.stdin` makes the stream,
  // which a command that never writes to it or asks does without (a few milliseconds of its start).
  const io: CliIo = {
    stdout: writeStdout,
    stderr: (t) => process.stderr.write(t),
    get isStderrTty() {
      return Boolean(process.stderr.isTTY);
    },
    cwd: process.cwd(),
    get ask() {
      return process.stdin.isTTY ? askOnTerminal : undefined;
    },
  };
  // Whatever escapes a command (a stream's error event, a rejection nobody awaited) is a message too.
  process.on('uncaughtException', fail);
  process.on('unhandledRejection', fail);
  // Ctrl-C (or a kill) while an output is being written: its temporary file goes, the old output stays.
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]] as const) {
    process.once(signal, () => {
      removeTemporaryFiles();
      process.exit(code);
    });
  }
  runCli(process.argv.slice(2), io).then((code) => {
    process.exitCode = code;
  });
}

/** One line typed on the terminal, the question on stderr (stdout may be a pipe). */
async function askOnTerminal(question: string): Promise<string | null> {
  // Loaded here: a command that asks nothing starts without the readline module.
  const { createInterface } = require('node:readline/promises') as typeof import('node:readline/promises');
  const lines = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await lines.question(question);
  } finally {
    lines.close();
  }
}

function fail(error: unknown): void {
  process.stderr.write(terminalText(`prof-lens: ${capText(errorMessage(error), MAX_ERROR_CHARS)}\n`));
  process.exit(EXIT_USAGE);
}

if (require.main === module) main();
