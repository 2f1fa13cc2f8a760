/** Reads the public data sets kept next to the repository (never copied into it). */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DATA_DIR = new URL('../../../../../shared/data/', import.meta.url);

/** Every JSON line of `name` in the shared data folder. */
export function readSharedJsonl<T = Record<string, unknown>>(name: string): T[] {
  const text = readFileSync(fileURLToPath(new URL(name, DATA_DIR)), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}
