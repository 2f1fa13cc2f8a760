/**
 * Prints one closing line, `N passed, N failed`, that CI logs and people can grep for.
 */
import type { Reporter, TestModule } from 'vitest/node';

/** A reporter that counts test outcomes and prints the closing line. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    for (const module of testModules) {
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) failed += 1;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
      }
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
  }
}
