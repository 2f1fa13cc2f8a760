/**
 * Typesetting TeX in untrusted text. KaTeX builds the DOM itself (`katex.render`), so its inline
 * sizes are set through the style object, which the panel's CSP allows, and no HTML string is
 * ever parsed. `trust: false` refuses `\href`, `\url`, `\includegraphics` and the `\html…`
 * commands; bounded expansion and sizes keep a hostile formula from hanging or flooding the panel.
 *
 * KaTeX is more than half of the panel's script, and most groups and every dashboard have no
 * formula: it is a module of its own, fetched the first time one is needed (`loadMath`). A formula
 * made before it has arrived shows its source and is typeset in place when it does.
 */
import type Katex from 'katex';
import { h } from './dom';
import { looksLikeTex, splitMath } from './mathText';

const OPTIONS = {
  trust: false,
  throwOnError: false,
  strict: 'ignore',
  maxExpand: 500,
  maxSize: 12,
  output: 'htmlAndMathml',
} as const;

let katex: typeof Katex | null = null;
let loading: Promise<typeof Katex | null> | null = null;

/** Fetches KaTeX once; resolves when formulas can be typeset (or, should the fetch fail, never will be). */
export function loadMath(): Promise<void> {
  loading ??= import('katex').then((module) => (katex = module.default), () => null);
  return loading.then(() => undefined);
}

function typeset(holder: HTMLElement, tex: string, source: string, isDisplay: boolean): void {
  if (!katex) return;
  try {
    holder.replaceChildren();
    katex.render(tex, holder, { ...OPTIONS, displayMode: isDisplay });
    holder.classList.remove('math-pending');
  } catch {
    // Errors other than parse errors (e.g. too many expansions) still throw: show the source.
    holder.replaceChildren(document.createTextNode(source));
    holder.classList.add('math-error');
  }
}

function formula(tex: string, source: string, isDisplay: boolean): HTMLElement {
  const holder = h(isDisplay ? 'div' : 'span', { className: isDisplay ? 'math display' : 'math' });
  if (katex) {
    typeset(holder, tex, source, isDisplay);
    return holder;
  }
  holder.classList.add('math-pending');
  holder.appendChild(document.createTextNode(source));
  void loadMath().then(() => typeset(holder, tex, source, isDisplay));
  return holder;
}

/** Text with its `$…$`-style formulas typeset; everything else as plain text. */
export function mathText(text: string, className = 'prose'): HTMLElement {
  const element = h('div', { className });
  for (const part of splitMath(text)) {
    element.appendChild(part.kind === 'text' ? document.createTextNode(part.text) : formula(part.tex, part.source, part.isDisplay));
  }
  return element;
}

/** A short answer: typeset whole when it reads as TeX (`\frac{1}{2}`), else as text. */
export function answerText(answer: string | null): HTMLElement {
  if (answer === null || answer === '') return h('span', { className: 'answer muted', text: '—' });
  if (!looksLikeTex(answer)) return h('span', { className: 'answer', text: answer });
  const holder = formula(answer, answer, false);
  holder.classList.add('answer');
  return holder;
}
