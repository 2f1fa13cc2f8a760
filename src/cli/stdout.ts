/**
 * The CLI's standard output, written with `fs.writeSync` on descriptor 1 rather than through
 * `process.stdout`: making that stream for a pipe loads Node's socket modules, a few milliseconds
 * of every start, and a command writes its output whole anyway. A pipe another program opened
 * non-blocking answers EAGAIN while it is full: the write waits a millisecond and goes on. A
 * reader that left (`prof-lens … | head`) is not an error: the command stops quietly, exit 0.
 */
import { writeSync } from 'node:fs';
import { EXIT_OK } from './io';

const pause = new Int32Array(new SharedArrayBuffer(4));

/** Writes `text` to descriptor 1 before returning; exits 0 when the reader has gone. */
export function writeStdout(text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += writeSync(1, bytes, offset, bytes.length - offset);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') Atomics.wait(pause, 0, 0, 1);
      else if (code === 'EPIPE') process.exit(EXIT_OK);
      else throw error;
    }
  }
}
