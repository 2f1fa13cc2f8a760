/**
 * The explorer's rows, virtualised: a scroll area as tall as every row would be, and elements for
 * only the rows in view (plus a few either side), so a million-row result holds a few dozen row
 * elements. Rows arrive a page at a time from the host; a row not yet here shows as loading and
 * is asked for as soon as the list scrolls to it. A row's element is kept while what it shows
 * holds (its row, selected, under the cursor), so a scroll or an arriving page builds and measures
 * only the rows new to the view. Click opens a row; Ctrl/Cmd toggles it in the selection; Shift
 * extends it. Every text is set as text.
 */
import type { PageRow, RowHighlights } from '../../src/core/explore/explorerEngine';
import type { ExplorerSort } from '../../src/core/explore/explorerQuery';
import { reasonShort } from '../../src/core/explore/explorerWords';
import { cellText, columnHeader, type ExplorerColumn } from '../../src/core/explore/explorerColumns';
import { shortGroupName } from '../../src/core/presentation/groupNames';
import { reasonFamily, reasonLabel } from '../../src/core/presentation/reasonWords';
import { h } from '../dom';
import { abridgeCells } from './abridge';
import { fitColumns, gridTemplate, listColumns, type Column } from './columnFit';

/** Pixels per row (the stylesheet gives rows the same height). */
export const ROW_HEIGHT = 24;
/** Rows rendered beyond the visible ones, on each side. */
const OVERSCAN = 8;
/** Browsers cap an element's height (about 33 million pixels in Chromium): taller results scroll in proportion. */
const MAX_SCROLL_HEIGHT = 30_000_000;

/** Characters of a group's name a row's detail line shows. */
const GROUP_FACT_CHARS = 60;
/** Room the row's left border and the list's own border take, in pixels. */
const ROW_CHROME_PX = 6;

export interface RowListEvents {
  /** Rows `from` … `to` (indices in the result) are in view: fetch what is missing. */
  want(from: number, to: number): void;
  open(row: PageRow): void;
  sort(sort: ExplorerSort | null): void;
  selectionChanged(): void;
}

/** A row element and what it shows: it is drawn again only when one of these changes. */
interface DrawnRow {
  element: HTMLElement;
  row: PageRow | undefined;
  isSelected: boolean;
  isCursor: boolean;
}

export class RowList {
  readonly element: HTMLElement;
  /** Selected rollout ids. */
  readonly selected = new Set<number>();
  private readonly header = h('div', { className: 'grid-row grid-header', attrs: { role: 'row' } });
  private readonly body = h('div', { className: 'grid-body' });
  private readonly rowsHolder = h('div', { className: 'grid-rows', attrs: { role: 'rowgroup' } });
  private readonly rows = new Map<number, PageRow>();
  private readonly highlights = new Map<number, RowHighlights>();
  /** Every column the result has, and those the list's width shows (the rest fold into each row's detail). */
  private allColumns: Column[] = listColumns({ rewardColumns: [], isSearching: false });
  private columns: Column[] = [...this.allColumns];
  /** Sorting by any column, shown or folded. */
  readonly sortControl = h('select', { className: 'sort-by', attrs: { 'aria-label': 'Sort by', title: 'Sort by any column, shown or not' } });
  /** Every fact of the row under the cursor, the columns the width leaves out included. */
  readonly detail = h('p', { className: 'row-detail muted', attrs: { 'aria-live': 'polite' } });
  private total = 0;
  private sort: ExplorerSort | null = null;
  private anchor: number | null = null;
  private cursor = 0;
  private frame = 0;
  /** The row elements in view, by index in the result, with what each was drawn from. */
  private drawn = new Map<number, DrawnRow>();

  constructor(private readonly events: RowListEvents) {
    this.body.appendChild(this.rowsHolder);
    this.element = h('div', { className: 'grid', attrs: { role: 'grid', tabindex: '0', 'aria-label': 'rollouts' }, children: [this.header, this.body] });
    this.element.addEventListener('scroll', () => {
      // The missing rows are asked for now, not a frame later when they are drawn.
      this.askForVisible();
      this.schedule();
    });
    window.addEventListener('resize', () => {
      // Cells are shortened to their width: a new width draws every row again.
      this.drawn.clear();
      if (this.refit()) this.render();
      else this.schedule();
    });
    this.sortControl.addEventListener('change', () => {
      const [column, direction] = this.sortControl.value.split(' ') as [ExplorerColumn | '', string | undefined];
      this.sort = column ? { column, descending: direction === 'desc' } : null;
      // The query leaves first; the header follows while it is answered.
      this.events.sort(this.sort);
      this.refit(true);
    });
    this.rowsHolder.addEventListener('click', (event) => this.click(event));
    this.element.addEventListener('keydown', (event) => this.key(event));
  }

  /** A new result: its size, its columns (reward columns, the match column when searching), its sort. */
  reset(options: { total: number; rewardColumns: readonly string[]; isSearching: boolean; sort: ExplorerSort | null; isRun?: boolean }): void {
    this.total = options.total;
    this.sort = options.sort;
    this.rows.clear();
    this.highlights.clear();
    this.anchor = null;
    this.cursor = 0;
    this.allColumns = listColumns(options);
    this.drawn.clear();
    this.refit(true);
    this.body.style.height = `${Math.min(MAX_SCROLL_HEIGHT, this.total * ROW_HEIGHT)}px`;
    this.element.scrollTop = 0;
    // Drawn once, in the next frame, with the rows that arrive with the result (`add`).
    this.schedule();
  }

  /** Rows of a page arrived. */
  add(offset: number, rows: readonly PageRow[], highlights: readonly RowHighlights[] | null): void {
    rows.forEach((row, i) => this.rows.set(offset + i, row));
    for (const hl of highlights ?? []) this.highlights.set(hl.id, hl);
    this.schedule();
  }

  has(index: number): boolean {
    return this.rows.has(index);
  }

  /** The rows currently rendered (what the DOM holds). */
  get renderedCount(): number {
    return this.rowsHolder.childElementCount;
  }

  clearSelection(): void {
    this.selected.clear();
    this.anchor = null;
    this.schedule();
  }

  /** Chooses the columns the list's width shows; true when they changed (or `force`). */
  private refit(force = false): boolean {
    const emPx = parseFloat(getComputedStyle(this.element).fontSize) || 13;
    const width = this.element.clientWidth || document.documentElement.clientWidth;
    const next = fitColumns(this.allColumns, (width - ROW_CHROME_PX) / emPx - 1, this.sort?.column ?? null);
    if (!force && next.join() === this.columns.join()) return false;
    this.columns = next;
    this.drawn.clear();
    const template = gridTemplate(next);
    this.header.style.gridTemplateColumns = template;
    this.rowsHolder.style.setProperty('--columns', template);
    this.header.replaceChildren(...this.columns.map((c) => this.headerCell(c)));
    this.fillSortControl();
    return true;
  }

  private fillSortControl(): void {
    const sortable = this.allColumns.filter((c): c is ExplorerColumn => c !== 'match');
    const options = [h('option', { text: 'file order', attrs: { value: '' } }), ...sortable.flatMap((c) => [
      h('option', { text: `${columnHeader(c)} ↑`, attrs: { value: `${c} asc` } }),
      h('option', { text: `${columnHeader(c)} ↓`, attrs: { value: `${c} desc` } }),
    ])];
    this.sortControl.replaceChildren(...options);
    this.sortControl.value = this.sort ? `${this.sort.column} ${this.sort.descending ? 'desc' : 'asc'}` : '';
  }

  private headerCell(column: Column): HTMLElement {
    if (column === 'match') return h('div', { className: 'cell head', text: 'match', attrs: { role: 'columnheader' } });
    const isSorted = this.sort?.column === column;
    const arrow = isSorted ? (this.sort!.descending ? ' ↓' : ' ↑') : '';
    const button = h('button', { className: 'sort', text: columnHeader(column) + arrow, attrs: { type: 'button', title: `Sort by ${columnHeader(column)}` } });
    button.addEventListener('click', () => {
      // Ascending, then descending, then file order again; read at the click, so quick clicks step on.
      const current = this.sort?.column === column ? this.sort : null;
      const next: ExplorerSort | null = !current ? { column, descending: false } : !current.descending ? { column, descending: true } : null;
      this.sort = next;
      this.events.sort(next);
      this.refit(true);
    });
    return h('div', { className: 'cell head', attrs: { role: 'columnheader', 'aria-sort': isSorted ? (this.sort!.descending ? 'descending' : 'ascending') : 'none' }, children: [button] });
  }

  private scale(): number {
    const full = this.total * ROW_HEIGHT;
    return full > MAX_SCROLL_HEIGHT ? full / MAX_SCROLL_HEIGHT : 1;
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  private visibleRange(): { from: number; to: number } {
    const height = Math.max(ROW_HEIGHT, this.element.clientHeight - this.header.offsetHeight);
    const first = Math.floor((this.element.scrollTop * this.scale()) / ROW_HEIGHT);
    const from = Math.max(0, first - OVERSCAN);
    const to = Math.min(this.total, first + Math.ceil(height / ROW_HEIGHT) + OVERSCAN);
    return { from, to };
  }

  private askForVisible(): void {
    const { from, to } = this.visibleRange();
    if (to > from) this.events.want(from, to - 1);
  }

  private render(): void {
    const { from, to } = this.visibleRange();
    if (to > from) this.events.want(from, to - 1);
    // Row `from` sits where it would in a full-height list (scaled when the list is taller than a browser allows).
    const top = this.element.scrollTop - (this.element.scrollTop * this.scale() - from * ROW_HEIGHT);
    this.rowsHolder.style.transform = `translateY(${Math.round(top)}px)`;
    const drawn = new Map<number, DrawnRow>();
    const fresh: HTMLElement[] = [];
    for (let i = from; i < to; i++) {
      const row = this.rows.get(i);
      const isSelected = row !== undefined && this.selected.has(row.id);
      const isCursor = i === this.cursor;
      const known = this.drawn.get(i);
      if (known && known.row === row && known.isSelected === isSelected && known.isCursor === isCursor) {
        drawn.set(i, known);
        continue;
      }
      const element = this.rowElement(i);
      fresh.push(element);
      drawn.set(i, { element, row, isSelected, isCursor });
    }
    this.drawn = drawn;
    const elements = [...drawn.values()].map((d) => d.element);
    const children = this.rowsHolder.children;
    if (elements.length !== children.length || elements.some((e, i) => children[i] !== e)) this.rowsHolder.replaceChildren(...elements);
    // Only the cells just built are measured and shortened: the rest kept their text.
    abridgeCells(fresh.flatMap((e) => Array.from(e.querySelectorAll<HTMLElement>('.cell'))));
    this.showDetail();
  }

  /** The detail line: the cursor's row in full, every column, the folded ones included. */
  private showDetail(): void {
    const row = this.rows.get(this.cursor);
    this.detail.textContent = row ? this.fullText(row, this.allColumns.filter((c) => c !== 'line' && c !== 'match')) : '';
  }

  private fullText(row: PageRow, columns: readonly Column[]): string {
    const place = cellText(row, 'line');
    const facts = columns.map((c) => `${columnHeader(c as ExplorerColumn)}: ${this.factText(row, c)}`);
    return `${place} · ${facts.join(' · ')}`;
  }

  /** A column's value in full: the decision in words, the group named by its question with its id. */
  private factText(row: PageRow, column: Column): string {
    if (column === 'decision') return reasonLabel(row.reason);
    if (column === 'group' && row.groupName) return `${shortGroupName(row.groupName, row.group, GROUP_FACT_CHARS)} (${row.group})`;
    return cellText(row, column as ExplorerColumn);
  }

  private rowElement(index: number): HTMLElement {
    const row = this.rows.get(index);
    const attrs: Record<string, string> = { role: 'row', 'data-index': String(index), 'aria-rowindex': String(index + 1) };
    if (!row) return h('div', { className: 'grid-row loading', attrs, children: [h('div', { className: 'cell muted', text: 'loading…' })] });
    const isSelected = this.selected.has(row.id);
    attrs['aria-selected'] = String(isSelected);
    attrs['data-id'] = String(row.id);
    attrs['data-vscode-context'] = JSON.stringify({ webviewSection: 'rollout', rolloutId: row.id });
    const classes = ['grid-row', 'rollout', `family-${reasonFamily(row.reason)}`];
    if (isSelected) classes.push('selected');
    if (index === this.cursor) classes.push('cursor');
    if (row.suspectedFalsePositive) classes.push('suspect');
    const folded = this.allColumns.filter((c) => c !== 'match' && !this.columns.includes(c));
    if (folded.length > 0) attrs['title'] = this.fullText(row, folded);
    return h('div', { className: classes.join(' '), attrs, children: this.columns.map((c) => this.cell(row, c)) });
  }

  private cell(row: PageRow, column: Column): HTMLElement {
    if (column === 'match') return this.matchCell(row);
    // A decision in the fewest words; the full reason is the cell's title.
    const text = column === 'decision' ? reasonShort(row.reason) : cellText(row, column);
    const title = column === 'decision' ? reasonLabel(row.reason) : column === 'group' && row.groupName ? `${row.groupName} (group ${text})` : text;
    return h('div', { className: `cell col-${column.startsWith('reward:') ? 'reward' : column}`, text, attrs: { role: 'gridcell', title } });
  }

  private matchCell(row: PageRow): HTMLElement {
    const snippet = this.highlights.get(row.id)?.snippet;
    const cell = h('div', { className: 'cell col-match', attrs: { role: 'gridcell' } });
    if (!snippet) return cell;
    cell.setAttribute('title', `${snippet.field}: ${snippet.text}`);
    let at = 0;
    for (const [start, end] of snippet.ranges) {
      if (start > at) cell.appendChild(document.createTextNode(snippet.text.slice(at, start)));
      cell.appendChild(h('mark', { text: snippet.text.slice(start, end) }));
      at = end;
    }
    if (at < snippet.text.length) cell.appendChild(document.createTextNode(snippet.text.slice(at)));
    return cell;
  }

  private click(event: MouseEvent): void {
    const element = (event.target as HTMLElement).closest<HTMLElement>('.grid-row.rollout');
    const index = Number(element?.getAttribute('data-index'));
    const row = this.rows.get(index);
    if (!element || !row) return;
    this.cursor = index;
    if (event.shiftKey && this.anchor !== null) {
      const [a, b] = this.anchor < index ? [this.anchor, index] : [index, this.anchor];
      if (!(event.ctrlKey || event.metaKey)) this.selected.clear();
      for (let i = a; i <= b; i++) {
        const r = this.rows.get(i);
        if (r) this.selected.add(r.id);
      }
    } else if (event.ctrlKey || event.metaKey) {
      if (this.selected.has(row.id)) this.selected.delete(row.id);
      else this.selected.add(row.id);
      this.anchor = index;
    } else {
      this.selected.clear();
      this.selected.add(row.id);
      this.anchor = index;
      this.events.open(row);
    }
    this.events.selectionChanged();
    this.render();
  }

  private key(event: KeyboardEvent): void {
    if (this.total === 0) return;
    const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : event.key === 'PageDown' ? 20 : event.key === 'PageUp' ? -20 : 0;
    if (step !== 0) {
      event.preventDefault();
      this.cursor = Math.max(0, Math.min(this.total - 1, this.cursor + step));
      this.scrollToCursor();
      this.render();
      return;
    }
    const row = this.rows.get(this.cursor);
    if (!row) return;
    if (event.key === 'Enter') this.events.open(row);
    else if (event.key === ' ') {
      event.preventDefault();
      if (this.selected.has(row.id)) this.selected.delete(row.id);
      else this.selected.add(row.id);
      this.events.selectionChanged();
      this.render();
    }
  }

  private scrollToCursor(): void {
    const top = (this.cursor * ROW_HEIGHT) / this.scale();
    const view = this.element.clientHeight - this.header.offsetHeight;
    if (top < this.element.scrollTop) this.element.scrollTop = top;
    else if (top + ROW_HEIGHT > this.element.scrollTop + view) this.element.scrollTop = top + ROW_HEIGHT - view;
  }
}
