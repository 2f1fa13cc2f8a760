/**
 * Typesetting TeX in untrusted text. KaTeX builds the DOM itself (`katex.render`), so its inline
 * sizes are set through the style object, which the panel's CSP allows, and no HTML string is
 * ever parsed. `trust: false` refuses `\href`, `\url`, `\includegraphics` and the `\html…`
 * commands; bounded expansion and sizes keep a hostile formula from hanging or flooding the panel.
 */
import katex from 'katex';
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

function formula(tex: string, source: string, isDisplay: boolean): HTMLElement {
  const holder = h(isDisplay ? 'div' : 'span', { className: isDisplay ? 'math display' : 'math' });
  try {
    katex.render(tex, holder, { ...OPTIONS, displayMode: isDisplay });
  } catch {
    // Errors other than parse errors (e.g. too many expansions) still throw: show the source.
    holder.replaceChildren(document.createTextNode(source));
    holder.classList.add('math-error');
  }
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
