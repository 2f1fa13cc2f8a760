/**
 * Reads what the editor actually rendered: decorated text runs, the text attached before or after
 * a line by decorations, and where a piece of text sits on screen.
 */
import type { Locator } from 'playwright-core';

/** A run of consecutive characters the editor rendered with one inline style. */
export interface RenderedRun {
  text: string;
  /** Screen position of the run's first character, for hovering. */
  x: number;
  y: number;
}

/**
 * Runs of text rendered with a dotted underline (the low-score step decoration), in line order.
 * Spans are split by syntax tokens, so neighbouring decorated spans are joined.
 */
export async function dottedRuns(editor: Locator): Promise<RenderedRun[]> {
  return editor.locator('.view-lines').evaluate((root) => {
    const lines = [...root.querySelectorAll<HTMLElement>('.view-line')]
      .sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top));
    const runs: { text: string; x: number; y: number }[] = [];
    for (const line of lines) {
      let current: { text: string; x: number; y: number } | null = null;
      for (const span of line.querySelectorAll<HTMLElement>('span > span')) {
        const style = getComputedStyle(span);
        const isDotted = style.textDecorationLine.includes('underline') && style.textDecorationStyle === 'dotted';
        if (!isDotted) {
          current = null;
          continue;
        }
        if (!current) {
          const box = span.getBoundingClientRect();
          current = { text: '', x: box.left, y: box.top + box.height / 2 };
          runs.push(current);
        }
        current.text += (span.textContent ?? '').replace(/\u00a0/g, ' ');
      }
    }
    return runs;
  });
}

/** Texts that decorations attach before or after lines (end-of-line summaries), in line order. */
export async function attachedTexts(editor: Locator): Promise<string[]> {
  return editor.locator('.view-lines').evaluate((root) => {
    const lines = [...root.querySelectorAll<HTMLElement>('.view-line')]
      .sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top));
    const texts: string[] = [];
    for (const line of lines) {
      for (const span of line.querySelectorAll<HTMLElement>('span[class*="ced-"]')) {
        for (const pseudo of ['::before', '::after']) {
          const content = getComputedStyle(span, pseudo).content;
          if (content && content !== 'none' && content !== 'normal' && content !== '""') {
            texts.push(JSON.parse(content.replace(/\\([0-9a-f]{1,6}) ?/gi, (_m, hex: string) => String.fromCodePoint(parseInt(hex, 16)))) as string);
          }
        }
      }
    }
    return texts;
  });
}

/** Text of the editor's CodeLens line items. */
export async function codeLensTexts(editor: Locator): Promise<string[]> {
  return editor.locator('.codelens-decoration').allInnerTexts();
}

/** Screen position of the first occurrence of some text in the rendered lines. */
export async function textPosition(editor: Locator, needle: string): Promise<{ x: number; y: number } | null> {
  return editor.locator('.view-lines').evaluate((root, wanted) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = (node.textContent ?? '').replace(/\u00a0/g, ' ');
      const at = text.indexOf(wanted);
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, Math.min(at + 1, text.length));
      const box = range.getBoundingClientRect();
      return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
    }
    return null;
  }, needle);
}

/**
 * Screen position of the start of the rendered line that contains some text, however the editor
 * split that line into tokens (a needle may span several of them once the line is tokenized).
 */
export async function linePosition(editor: Locator, needle: string): Promise<{ x: number; y: number } | null> {
  return editor.locator('.view-lines').evaluate((root, wanted) => {
    for (const line of root.querySelectorAll<HTMLElement>('.view-line')) {
      if (!(line.textContent ?? '').replace(/\u00a0/g, ' ').includes(wanted)) continue;
      const first = line.querySelector<HTMLElement>('span > span');
      const box = (first ?? line).getBoundingClientRect();
      return { x: box.left, y: box.top + box.height / 2 };
    }
    return null;
  }, needle);
}

/** A piece of text the editor painted with a background decoration, and where it is. */
export interface TintedPiece {
  text: string;
  /** The theme colour that painted it (`profLens.tokenHeat2` …). */
  color: string;
  x: number;
  y: number;
}

/**
 * Text painted by background decorations in one of these theme colours, one piece per painted box,
 * in screen order. Each colour is resolved as the workbench resolves it (a probe element painted
 * with its CSS variable); decoration boxes are drawn in the overlay layer behind the text, so a
 * box's text is the characters of the line at its height whose centres fall inside it.
 */
export async function tintedPieces(editor: Locator, colors: readonly string[]): Promise<TintedPiece[]> {
  return editor.evaluate((root, wanted) => {
    const byBackground = new Map<string, string>();
    for (const color of wanted) {
      const probe = document.createElement('div');
      probe.style.backgroundColor = `var(--vscode-${color.replace(/\./g, '-')})`;
      root.appendChild(probe);
      byBackground.set(getComputedStyle(probe).backgroundColor, color);
      probe.remove();
    }
    const lines = [...root.querySelectorAll<HTMLElement>('.view-lines .view-line')];
    // Each line's characters with their centres, measured once (a raw rollout line has thousands).
    const measured = new Map<HTMLElement, { chars: string[]; centres: number[] }>();
    const measure = (line: HTMLElement): { chars: string[]; centres: number[] } => {
      let found = measured.get(line);
      if (found) return found;
      found = { chars: [], centres: [] };
      const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const content = node.textContent ?? '';
        for (let i = 0; i < content.length; i++) {
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const r = range.getBoundingClientRect();
          found.chars.push(content[i] ?? '');
          found.centres.push(r.left + r.width / 2);
        }
      }
      measured.set(line, found);
      return found;
    };
    const pieces: { text: string; color: string; x: number; y: number }[] = [];
    for (const box of root.querySelectorAll<HTMLElement>('.view-overlays .cdr')) {
      const color = byBackground.get(getComputedStyle(box).backgroundColor);
      if (!color) continue;
      const rect = box.getBoundingClientRect();
      const line = lines.find((l) => Math.abs(l.getBoundingClientRect().top - rect.top) < 2);
      if (!line) continue;
      const { chars, centres } = measure(line);
      const text = chars.filter((_, i) => (centres[i] ?? 0) > rect.left && (centres[i] ?? 0) < rect.right).join('');
      pieces.push({ text: text.replace(/\u00a0/g, ' '), color, x: rect.left, y: rect.top + rect.height / 2 });
    }
    return pieces.sort((a, b) => a.y - b.y || a.x - b.x);
  }, colors);
}
