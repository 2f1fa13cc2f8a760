/**
 * The PRM export in a real VS Code: the fp32 ONNX export of a small random model of
 * Qwen2.5-Math-PRM-7B's architecture (built and exported by scripts/prm-chain.sh, which leaves it
 * with its rollouts and PyTorch's step probabilities in test-output/prm-chain) is set as the model
 * folder, and the scores the editor shows for a file with no step scores (the Rollout View's step
 * headings and hovers) are PyTorch's, computed as the model card does. Random weights: the numbers test the chain, not a PRM's judgement.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { repoRoot } from './codeServer';
import { linePosition } from './editorDom';
import { Workbench } from './workbench';

const chain = join(repoRoot, 'test-output', 'prm-chain');
const modelDir = join(chain, 'fp32');
/** Per rollout of the chain's file, its steps' probabilities from PyTorch (null past the context). */
const referencePath = join(chain, 'reference-fp32.json');
const rolloutsPath = join(chain, 'rollouts.jsonl');
/** The export's scores differ from PyTorch's by about 1e-6 (the chain measures it); the hover rounds them. */
const TOLERANCE = 1e-3;

/**
 * The chain's first four rollouts (1, 2, 3 and 3 steps; the fourth writes `<extra_0>` in its
 * question and a step, which must stay text and add no step): short enough for the Rollout View to
 * show every step at once. Their steps are a JSON array, not split from a response, so the Rollout
 * View is where the editor shows each step's score (in its heading and its hover).
 */
const ROLLOUTS = [1, 2, 3, 4];
/** Whether a score shown with its decimals is PyTorch's within the tolerance, at the shown precision. */
function agrees(shown: string, reference: number): boolean {
  const decimals = shown.split('.')[1]?.length ?? 0;
  return Math.abs(Number(shown) - reference) <= 0.5 * 10 ** -decimals + TOLERANCE;
}

describe('the Qwen PRM export scores a file in the editor as PyTorch does', () => {
  let workbench: Workbench | undefined;
  let reference: (number | null)[][];

  /** The chain's files, or a failure (never a skip) that says how to make them. */
  function needChain(): Workbench {
    if (!workbench) throw new Error(`the exported model or PyTorch's scores are missing from ${chain}: run \`bash scripts/prm-chain.sh\` first`);
    return workbench;
  }

  beforeAll(async () => {
    if (![join(modelDir, 'model.onnx'), join(modelDir, 'prof-lens.json'), referencePath, rolloutsPath].every(existsSync)) return;
    reference = JSON.parse(readFileSync(referencePath, 'utf8')) as (number | null)[][];
    workbench = await Workbench.start({
      workspaceFiles: { 'prm-rollouts.jsonl': readFileSync(rolloutsPath) },
      userSettings: { 'profLens.scoring.scorer': 'onnx', 'profLens.scoring.modelPath': modelDir },
    });
  });
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') await workbench?.screenshot(`failure-prm-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
  });
  afterAll(async () => {
    await workbench?.stop();
  });

  test('the exported folder is the scorer: the status bar names its model', async () => {
    const bench = needChain();
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

  test('each step of the Rollout View shows PyTorch’s probability at the shown precision; its hover names the model scorer', async () => {
    const bench = needChain();
    const compared: string[] = [];
    for (const line of ROLLOUTS) {
      const want = reference[line - 1]!;
      await bench.page.locator('.tab', { hasText: 'prm-rollouts.jsonl' }).first().click();
      await bench.goToLine(line);
      await bench.runCommand('PROF Lens: Open Rollout View');
      await bench.page.locator(`.tab.active[aria-label*="rollout ${line}"]`).waitFor({ timeout: 20_000 });
      // Every step's heading, `### [k/n] score 0.63`, in order.
      const headings = async (): Promise<string[][]> => [...(await bench.visibleEditorText()).matchAll(/### \[(\d+)\/(\d+)\] score (\d\.\d+)/g)].map((m) => [m[1]!, m[2]!, m[3]!]);
      await expect.poll(async () => (await headings()).length, { timeout: 20_000 }).toBe(want.length);
      for (const [k, n, shown] of await headings()) {
        expect(Number(n), `rollout ${line}: steps`).toBe(want.length);
        const probability = want[Number(k) - 1]!;
        expect(agrees(shown!, probability), `rollout ${line} step ${k}: shown ${shown}, PyTorch ${probability}`).toBe(true);
        compared.push(`${line}:${k} ${shown}≈${probability.toFixed(4)}`);
      }
      // The last step's hover: its score again, and the scorer that gave it.
      const last = want.length;
      const view = bench.activeEditor();
      const point = await linePosition(view, `### [${last}/${last}] score`);
      expect(point, `the heading of step ${last} of rollout ${line}`).not.toBeNull();
      const hover = await bench.hoverAt({ x: (point?.x ?? 0) + 30, y: point?.y ?? 0 });
      expect(hover).toContain(`step ${last} of ${last}`);
      const shown = /Score (\d\.\d+) from onnx:qwen-prm@cpu/.exec(hover)?.[1];
      expect(shown, `a score from the model scorer in the hover of rollout ${line}, step ${last}: ${hover}`).toBeDefined();
      expect(agrees(shown!, want[last - 1]!), `hover of rollout ${line} step ${last}: shown ${shown}, PyTorch ${want[last - 1]}`).toBe(true);
      if (line === 4) await bench.screenshot('prm-01-rollout-view-hover');
      await bench.page.mouse.move(5, 500);
      await bench.page.keyboard.press('Escape');
    }
    expect(compared).toHaveLength(ROLLOUTS.reduce((n, line) => n + reference[line - 1]!.length, 0));
    console.log(`step scores compared with PyTorch: ${compared.join(', ')}`);
  });
});
