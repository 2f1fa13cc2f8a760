/**
 * The PRM export in a real VS Code: the fp32 ONNX export of a small random model of
 * Qwen2.5-Math-PRM-7B's architecture (built and exported by scripts/prm-chain.sh, which leaves it
 * with its rollouts and PyTorch's step probabilities in test-output/prm-chain) is set as the model
 * folder, and the scores the editor's hovers show for a file with no step scores are PyTorch's,
 * computed as the model card does. Random weights: the numbers test the chain, not a PRM's judgement.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { repoRoot } from './codeServer';
import { textPosition } from './editorDom';
import { Workbench } from './workbench';

const chain = join(repoRoot, 'test-output', 'prm-chain');
const modelDir = join(chain, 'fp32');
/** Per rollout of the chain's file, its steps' probabilities from PyTorch (null past the context). */
const referencePath = join(chain, 'reference-fp32.json');
const rolloutsPath = join(chain, 'rollouts.jsonl');
/** The export's scores differ from PyTorch's by about 1e-6 (the chain measures it); the hover rounds them. */
const TOLERANCE = 1e-3;

/**
 * One text inside each step of the chain's first four rollouts (1, 2, 3 and 3 steps; the fourth
 * writes `<extra_0>` in its question and a step, which must stay text and add no step), as the
 * JSON line shows it.
 */
const STEPS: { line: number; step: number; text: string }[] = [
  { line: 1, step: 1, text: '2 + 3 = 5, so the answer' },
  { line: 2, step: 1, text: '12 times 7 is 12' },
  { line: 2, step: 2, text: 'boxed{84}' },
  { line: 3, step: 1, text: '25% of 20 is' },
  { line: 3, step: 2, text: 'So the sale price is' },
  { line: 3, step: 3, text: 'boxed{16}' },
  { line: 4, step: 1, text: 'Each step ends with the token' },
  { line: 4, step: 2, text: 'inside a step does not start' },
  { line: 4, step: 3, text: '6 * 7 = 42' },
];

/** Whether a score shown with its decimals is PyTorch's within the tolerance, at the shown precision. */
function agrees(shown: string, reference: number): boolean {
  const decimals = shown.split('.')[1]?.length ?? 0;
  return Math.abs(Number(shown) - reference) <= 0.5 * 10 ** -decimals + TOLERANCE;
}

describe('the Qwen PRM export scores a file in the editor as PyTorch does', () => {
  let workbench: Workbench | undefined;
  let reference: (number | null)[][];

  beforeAll(async () => {
    if (![join(modelDir, 'model.onnx'), join(modelDir, 'prof-lens.json'), referencePath, rolloutsPath].every(existsSync)) {
      throw new Error(`the exported model or PyTorch's scores are missing from ${chain}: run \`bash scripts/prm-chain.sh\` first`);
    }
    reference = JSON.parse(readFileSync(referencePath, 'utf8')) as (number | null)[][];
    workbench = await Workbench.start({
      workspaceFiles: { 'prm-rollouts.jsonl': readFileSync(rolloutsPath) },
      // Wrapped, so every step of the first rollouts is on screen to hover.
      userSettings: { 'profLens.scoring.scorer': 'onnx', 'profLens.scoring.modelPath': modelDir, 'editor.wordWrap': 'on' },
    });
  });
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') await workbench?.screenshot(`failure-prm-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
  });
  afterAll(async () => {
    await workbench?.stop();
  });

  test('the exported folder is the scorer: the status bar names its model', async () => {
    const bench = workbench!;
    await bench.openFile('prm-rollouts.jsonl');
    const status = bench.statusItem('PROF Lens ·');
    await expect.poll(async () => (await status.innerText()).trim(), { timeout: 90_000 }).toMatch(/^PROF Lens · onnx qwen-prm \(cpu(; [a-z]+ unavailable)?\)$/);
    await bench.page.mouse.move(5, 500);
    await status.hover();
    const tooltip = bench.page.locator('.workbench-hover, .monaco-hover:not(.hidden)', { hasText: 'small-random-qwen-prm' }).first();
    await tooltip.waitFor({ timeout: 15_000 });
    expect(await tooltip.innerText()).toContain('local:small-random-qwen-prm');
    await bench.page.mouse.move(5, 500);
  });

  test('each hovered step shows PyTorch’s probability at the shown precision, from the model scorer', async () => {
    const bench = workbench!;
    const editor = bench.activeEditor();
    const compared: string[] = [];
    for (const { line, step, text } of STEPS) {
      await expect.poll(() => textPosition(editor, text), { timeout: 15_000 }).not.toBeNull();
      const point = await textPosition(editor, text);
      const hover = await bench.hoverAt({ x: (point?.x ?? 0) + 20, y: point?.y ?? 0 });
      const steps = reference[line - 1]!;
      expect(hover, `the hover over "${text}"`).toContain(`step ${step} of ${steps.length}`);
      expect(hover).toContain(`line ${line}`);
      const shown = /Score (\d\.\d+) from onnx:qwen-prm@cpu/.exec(hover)?.[1];
      expect(shown, `a score from the model scorer in the hover over "${text}": ${hover}`).toBeDefined();
      const want = steps[step - 1]!;
      expect(agrees(shown!, want), `line ${line} step ${step}: shown ${shown}, PyTorch ${want}`).toBe(true);
      compared.push(`${line}:${step} ${shown}≈${want.toFixed(4)}`);
      if (line === 4 && step === 2) await bench.screenshot('prm-01-hover');
      await bench.page.mouse.move(5, 500);
      await bench.page.keyboard.press('Escape');
    }
    expect(compared).toHaveLength(STEPS.length);
  });
});
