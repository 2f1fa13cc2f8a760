/** Reads the public data sets copied into test/fixtures/data (sources in its README). */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DATA_DIR = new URL('../../../fixtures/data/', import.meta.url);

/** Every JSON line of `name` in the fixtures' data folder. */
export function readFixtureJsonl<T = Record<string, unknown>>(name: string): T[] {
  const text = readFileSync(fileURLToPath(new URL(name, DATA_DIR)), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}
