// The real-file acceptance suite: public dumps nobody on the project wrote (test/fixtures/real),
// checked against the truth each file carries. `npm test` runs it too; `npm run test:real` alone.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/real/**/*.test.ts'],
    testTimeout: 60_000,
    pool: 'forks',
    env: { PROF_LENS_CACHE_DIR: mkdtempSync(join(tmpdir(), 'prof-lens-real-cache-')) },
  },
});
