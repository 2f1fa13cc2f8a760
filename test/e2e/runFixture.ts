/**
 * Step files of a made-up training run in verl's layout (`{step}.jsonl`, records with `input`,
 * `output`, `gts`, `score`, `step`, plus `step_scores`), with accuracy and length that move over
 * the steps so the dashboard's charts have a trend to show. Deterministic for a given seed.
 */

function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 4294967296;
  };
}

/** One step file: `groups` prompts × 6 rollouts; `accuracy` is the chance a rollout is right. */
export function stepFile(options: { step: number; accuracy: number; meanSteps: number; seed: number; groups?: number }): string {
  const rand = random(options.seed * 7919 + options.step);
  const lines: string[] = [];
  for (let g = 0; g < (options.groups ?? 5); g++) {
    const a = 3 + g;
    const b = 4 + options.step % 7;
    for (let k = 0; k < 6; k++) {
      const isCorrect = rand() < options.accuracy;
      const h = Math.max(1, Math.round(options.meanSteps + (rand() - 0.5) * 4));
      const steps = Array.from({ length: h }, (_, i) => `Step ${i + 1}: ${a} + ${i} = ${a + i}.`);
      steps.push(`The answer is \\boxed{${isCorrect ? a * b : a * b + 1}}.`);
      // Correct answers mostly have trusted steps, now and then one weak step; wrong ones are mixed.
      const scores = steps.map(() => Math.round((isCorrect ? (rand() < 0.06 ? rand() * 0.5 : 0.5 + rand() * 0.5) : rand() * 0.85) * 1000) / 1000);
      lines.push(JSON.stringify({ input: `What is ${a} times ${b}?`, output: steps.join('\n\n'), gts: String(a * b), score: isCorrect ? 1.0 : 0.0, step: options.step, step_scores: scores }));
    }
  }
  return lines.join('\n') + '\n';
}

/** Files of a run at the given steps, accuracy rising by `slope` per step from `start`. */
export function runFiles(prefix: string, steps: readonly number[], shape: { start: number; slope: number; meanSteps: number; seed: number }): Record<string, string> {
  return Object.fromEntries(steps.map((step) => [
    `${prefix}/${step}.jsonl`,
    stepFile({ step, accuracy: Math.min(0.95, shape.start + shape.slope * step), meanSteps: shape.meanSteps + step / 20, seed: shape.seed }),
  ]));
}
