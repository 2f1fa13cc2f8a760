// End-to-end tests in a real VS Code (code-server + Chromium): one file at a time, bounded waits,
// and a closing `N passed, N failed` line for CI logs.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    teardownTimeout: 30_000,
    pool: 'forks',
    fileParallelism: false,
    maxWorkers: 1,
    retry: 0,
    // A state the workbench reaches in a blink on a quiet machine can take seconds on a loaded one:
    // expect.poll waits up to 15 s by default (each test still states a longer wait where it needs one).
    expect: { poll: { timeout: 15_000, interval: 100 } },
    reporters: ['default', './test/e2e/summaryReporter.ts'],
  },
});
