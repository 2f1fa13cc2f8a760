import type { CasService } from '../core/cas/casService';

/** What a CLI command may touch of the outside world, so tests can run commands in-process. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** True when stderr is a terminal: progress is only drawn then. */
  isStderrTty: boolean;
  cwd: string;
  /** Where `PROF_LENS_API_KEY` is read; default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Asks the user a question on the terminal and returns the answer; absent when stdin is not a terminal. */
  ask?: (question: string) => Promise<string | null>;
  /** The command's CAS worker (`runCli` starts one per command and stops it when the command ends). */
  cas?: CasService;
}

/** Exit codes of docs/cli.md §Exit codes. */
export const EXIT_OK = 0;
export const EXIT_UNREADABLE_LINES = 1;
export const EXIT_USAGE = 2;

/** A command: parses its own arguments, returns an exit code. */
export type Command = (argv: string[], io: CliIo) => Promise<number>;
