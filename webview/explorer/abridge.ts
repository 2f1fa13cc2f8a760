/**
 * Cell text shortened to its cell in the explorer's list (browser code; the column choice beside it,
 * `columnFit.ts`, is pure and unit-tested).
 */

/**
 * Shortens the text of cells whose content is wider than the cell, at a word where it can, ending
 * with "…" (the full text stays in the cell's title). Reads every cell, then writes every cell, a
 * few rounds at most, so a page of rows costs a few layouts. In a cell with highlighted matches the
 * first match stays: the text before it is cut to a third of the room, the rest from the end.
 */
export function abridgeCells(cells: readonly HTMLElement[]): void {
  let pending = [...cells];
  for (let round = 0; round < 4 && pending.length > 0; round++) {
    const over = pending.map((cell) => ({ cell, ratio: cell.clientWidth / Math.max(1, cell.scrollWidth) })).filter((c) => c.ratio < 1);
    for (const { cell, ratio } of over) shorten(cell, ratio);
    pending = over.map((c) => c.cell);
  }
}

function shorten(cell: HTMLElement, ratio: number): void {
  const nodes = Array.from(cell.childNodes);
  const length = (n: Node): number => (n.textContent ?? '').length;
  const budget = Math.max(1, Math.floor(nodes.reduce((sum, n) => sum + length(n), 0) * ratio) - 1);
  const firstMark = nodes.findIndex((n) => n.nodeName === 'MARK');
  // Before a match, a third of the room at most: the match is what the reader searched for.
  const lead = nodes[0];
  if (firstMark > 0 && lead && lead.nodeType === Node.TEXT_NODE && length(lead) > budget / 3) lead.textContent = cut(lead.textContent ?? '', budget / 3 / length(lead), 'start');
  let used = 0;
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i] as Node;
    if (used + length(node) <= budget) {
      used += length(node);
      continue;
    }
    if (node.nodeType === Node.TEXT_NODE) node.textContent = cut(node.textContent ?? '', (budget - used) / Math.max(1, length(node)), 'end');
    for (const after of nodes.slice(i + 1)) after.remove();
    if (node.nodeType !== Node.TEXT_NODE) cell.appendChild(document.createTextNode('…'));
    return;
  }
}

/** Text cut to about `ratio` of its length, at a word where one is near, marked with "…". */
function cut(text: string, ratio: number, from: 'start' | 'end'): string {
  const body = text.replace(/…$|^…/, '');
  const keep = Math.max(0, Math.floor(body.length * ratio) - 2);
  if (from === 'end') {
    const head = body.slice(0, keep);
    const space = head.lastIndexOf(' ');
    return `${(space > keep / 2 ? head.slice(0, space) : head).trimEnd()}…`;
  }
  const tail = body.slice(body.length - keep);
  const space = tail.indexOf(' ');
  return `…${(space >= 0 && space < keep / 2 ? tail.slice(space + 1) : tail).trimStart()}`;
}
