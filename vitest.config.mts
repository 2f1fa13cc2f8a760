import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts'],
    testTimeout: 30_000,
    pool: 'forks',
    // The tests never read or write the developer's own cache (stored calibrations would change
    // every file-scored report): each run gets a fresh one.
    env: { PROF_LENS_CACHE_DIR: mkdtempSync(join(tmpdir(), 'prof-lens-unit-cache-')) },
  },
});
