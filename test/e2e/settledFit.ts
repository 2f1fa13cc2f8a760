/**
 * A panel's fit problems once its page has settled (fonts, KaTeX and late rows drawn): measured
 * again until two readings agree, so a test judges what the user ends up seeing.
 */
import type { Frame } from 'playwright-core';
import { expect } from 'vitest';
import { fitProblems, type FitProblem } from './fitCheck';

export async function settledProblems(frame: Frame): Promise<FitProblem[]> {
  let problems: FitProblem[] = [];
  await expect.poll(async () => {
    const again = await frame.evaluate(fitProblems);
    const isSame = JSON.stringify(again) === JSON.stringify(problems);
    problems = again;
    return isSame;
  }, { timeout: 15_000, interval: 300 }).toBe(true);
  return problems;
}
