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
    reporters: ['default', './test/e2e/summaryReporter.ts'],
  },
});
