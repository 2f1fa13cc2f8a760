/**
 * What a reader of a narrow panel would see go wrong, measured in the webview's own page: a cell
 * whose text is wider than the cell (cut by its overflow, or spilling over the next one), a word
 * broken across lines ("dro / pped"), a table or row wider than the view (a column pushed
 * off-screen), a chart's text outside its card. Runs inside the frame (`frame.evaluate(fitProblems)`),
 * so it holds no reference to anything outside its own body.
 */

/** One thing that does not fit, in words a failure message can show. */
export interface FitProblem {
  kind: 'cell wider than its content box' | 'word broken across lines' | 'wider than the view' | 'outside its card' | 'text over a bar';
  where: string;
  text: string;
}

/** Every problem on the page now (only visible elements count). */
export function fitProblems(): FitProblem[] {
  const problems: FitProblem[] = [];
  const viewWidth = document.documentElement.clientWidth;
  const describe = (e: Element): string => {
    const classes = typeof e.className === 'string' && e.className ? `.${e.className.trim().split(/\s+/).join('.')}` : '';
    return `${e.tagName.toLowerCase()}${classes}`;
  };
  const textOf = (e: Element): string => (e.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 80);
  const isShown = (e: Element): boolean => {
    const box = e.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(e).visibility !== 'hidden';
  };

  // Tables, grids and their rows: wider than the view means a column the reader must scroll to.
  for (const e of Array.from(document.querySelectorAll('table, [role="grid"], [role="row"], tr, .table-holder, .grid'))) {
    if (!isShown(e)) continue;
    const box = e.getBoundingClientRect();
    const isScrolledWide = e instanceof HTMLElement && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible';
    if (box.right > viewWidth + 1 || isScrolledWide) problems.push({ kind: 'wider than the view', where: describe(e), text: `${Math.round(box.right)} px / ${isScrolledWide ? `scrolls to ${e.scrollWidth}` : ''} of ${viewWidth}: ${textOf(e).slice(0, 40)}` });
  }

  // Cells: content wider than the cell, or the cell itself past the view's edge.
  for (const e of Array.from(document.querySelectorAll('td, th, [role="gridcell"], [role="columnheader"], div.cell'))) {
    if (!(e instanceof HTMLElement) || !isShown(e)) continue;
    if (e.scrollWidth > e.clientWidth + 1) problems.push({ kind: 'cell wider than its content box', where: describe(e), text: `${e.scrollWidth} > ${e.clientWidth}: ${textOf(e)}` });
    else if (e.getBoundingClientRect().right > viewWidth + 1) problems.push({ kind: 'wider than the view', where: describe(e), text: textOf(e) });
  }

  // Words broken across lines inside cells: a word's boxes on more than one line. Very long tokens
  // (hashes, URLs) may wrap anywhere; ordinary words may not.
  const cells = Array.from(document.querySelectorAll('td, th, [role="gridcell"], div.cell, .count, .legend, figcaption'));
  for (const cell of cells) {
    if (!isShown(cell)) continue;
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      // A line may end after a hyphen, a dash or a slash: split words there as a browser does.
      for (const match of text.matchAll(/[^\s\-–—/]{2,24}/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set(Array.from(range.getClientRects()).filter((r) => r.width > 0).map((r) => Math.round(r.top / 4)));
        if (tops.size > 1) problems.push({ kind: 'word broken across lines', where: describe(cell), text: `"${match[0]}" in ${textOf(cell)}` });
      }
    }
  }

  // A card's text (charts' labels included) stays inside the card, and inside the view.
  for (const card of Array.from(document.querySelectorAll('.card, figure, .chart-figure'))) {
    if (!isShown(card)) continue;
    const bounds = card.getBoundingClientRect();
    for (const e of Array.from(card.querySelectorAll('text, span, td, th, dd, dt, li, p'))) {
      if (!isShown(e) || !(e.textContent ?? '').trim()) continue;
      const box = e.getBoundingClientRect();
      if (box.right > Math.min(bounds.right, viewWidth) + 1 || box.left < bounds.left - 1) {
        problems.push({ kind: 'outside its card', where: `${describe(e)} in ${describe(card)}`, text: `${Math.round(box.left)}–${Math.round(box.right)} px of ${Math.round(bounds.left)}–${Math.round(bounds.right)}: ${textOf(e)}` });
      }
    }
  }
  // A chart's label or count drawn over one of its bars cannot be read.
  for (const chart of Array.from(document.querySelectorAll('svg.chart'))) {
    if (!isShown(chart)) continue;
    const bars = Array.from(chart.querySelectorAll('rect.bar, rect.stack')).map((b) => b.getBoundingClientRect()).filter((b) => b.width > 0);
    for (const label of Array.from(chart.querySelectorAll('text'))) {
      const box = label.getBoundingClientRect();
      const hit = bars.find((b) => Math.min(box.right, b.right) - Math.max(box.left, b.left) > 2 && Math.min(box.bottom, b.bottom) - Math.max(box.top, b.top) > 2);
      if (hit) problems.push({ kind: 'text over a bar', where: describe(chart), text: textOf(label) });
    }
  }
  return problems;
}
