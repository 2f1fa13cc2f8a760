/**
 * The Rollout Explorer's webview: the filter controls, the query's title and counts, the export
 * button, and the virtualised rows. The query (filters, search, sort) is saved with the view, so
 * it survives a reload; the host answers it a page at a time from the analysis worker.
 */
import { emptyQuery, type ExplorerQuery, type ExplorerSort } from '../../src/core/explore/explorerQuery';
import { EXPLORER_PAGE_ROWS, type ExplorerSubject, type QueryAnswer } from '../../src/protocol/explorer';
import { h, replaceChildren } from '../dom';
import { ExplorerChannel } from './explorerChannel';
import { QueryForm } from './queryForm';
import { RowList } from './rowList';
import { mark, markPainted } from '../timing';

mark('script evaluated');

const SEARCH_DELAY_MS = 350;

const channel = new ExplorerChannel();
const root = document.getElementById('app') as HTMLElement;

class ExplorerView {
  private subject: ExplorerSubject | null = null;
  private query: ExplorerQuery = emptyQuery();
  /** Counts queries, so a page of an older one is dropped. */
  private generation = 0;
  /** Rollouts the last answered query passes. */
  private total = 0;
  private readonly requested = new Set<number>();
  private searchTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly heading = h('h1', { text: 'Rollout Explorer' });
  private readonly title = h('p', { className: 'query-title', attrs: { 'aria-live': 'polite' } });
  private readonly status = h('p', { className: 'status muted', attrs: { 'aria-live': 'polite' } });
  private readonly exportButton = h('button', { className: 'export', text: 'Export selection…', attrs: { type: 'button' } });
  private readonly form = new QueryForm(() => this.fromForm(), () => {
    clearTimeout(this.searchTimer);
    this.searchTimer = setTimeout(() => this.fromForm(), SEARCH_DELAY_MS);
  });
  private readonly list = new RowList({
    want: (from, to) => this.want(from, to),
    open: (row) => this.subject && channel.post({ type: 'open', source: this.subject.source, rolloutId: row.id }),
    sort: (sort) => this.setSort(sort),
    selectionChanged: () => this.showSelection(),
  });

  constructor() {
    this.exportButton.addEventListener('click', () => void this.exportSelection());
  }

  show(subject: ExplorerSubject): void {
    const isNew = this.subject?.source !== subject.source;
    this.subject = subject;
    // A row's context menu (Mark Rollout as Sound, …) names the file here and the rollout on the row.
    this.list.element.setAttribute('data-vscode-context', JSON.stringify({ source: subject.source, preventDefaultContextMenuItems: true }));
    if (isNew || !root.querySelector('.grid')) this.layout();
    this.form.setRun(!!subject.run);
    const saved = channel.savedState();
    if (subject.query) this.query = subject.query;
    else if (isNew) this.query = saved && saved.source === subject.source ? (saved.query as ExplorerQuery) : emptyQuery();
    try {
      this.form.setFilter(this.query.filter ?? {});
    } catch {
      // A damaged saved query: the host says what is wrong with it when it is run.
    }
    // A new panel's first page comes with its subject, answered while the page loaded.
    this.run(subject.query && subject.first ? subject.first : undefined);
  }

  private layout(): void {
    const subject = this.subject!;
    this.heading.textContent = `Rollout Explorer · ${subject.fileLabel}`;
    const top = h('div', { className: 'view-header', children: [this.heading, this.title, this.exportButton] });
    const bar = h('div', { className: 'list-bar', children: [this.status, h('label', { className: 'filter', children: [h('span', { className: 'filter-label', text: 'sort' }), this.list.sortControl] })] });
    replaceChildren(root, [top, this.form.element, bar, this.list.element, this.list.detail]);
    root.classList.add('explorer');
  }

  private fromForm(): void {
    clearTimeout(this.searchTimer);
    this.query = { ...this.query, filter: this.form.filter() };
    this.run();
  }

  private setSort(sort: ExplorerSort | null): void {
    this.query = { ...this.query, sort };
    this.run();
  }

  /** Runs the query (its first page already answered: `first`). */
  private run(first?: QueryAnswer): void {
    const subject = this.subject;
    if (!subject) return;
    const generation = ++this.generation;
    this.requested.clear();
    this.requested.add(0);
    this.list.clearSelection();
    if (first) {
      this.answered(subject, first);
      return;
    }
    this.status.textContent = this.query.filter?.search ? 'Searching…' : 'Filtering…';
    this.status.classList.remove('error');
    mark('query sent');
    void channel.query(subject.source, this.query, 0, EXPLORER_PAGE_ROWS).then((result) => {
      mark('answer received');
      if (generation !== this.generation) return;
      if (result.status === 'failed') {
        this.status.textContent = result.message;
        this.status.classList.add('error');
        this.total = 0;
        this.list.reset({ total: 0, rewardColumns: [], isSearching: false, sort: this.query.sort ?? null, isRun: !!subject.run });
        return;
      }
      this.answered(subject, result.answer);
    });
  }

  private answered(subject: ExplorerSubject, answer: QueryAnswer): void {
    this.query = answer.query;
    this.total = answer.page.total;
    channel.saveState(subject.source, answer.query);
    this.title.textContent = answer.title;
    this.title.title = answer.tooltip ?? answer.title;
    this.form.setRewardColumns(answer.rewardColumns);
    this.list.reset({ total: answer.page.total, rewardColumns: answer.rewardColumns, isSearching: !!answer.query.filter.search, sort: answer.query.sort, isRun: !!subject.run });
    this.list.add(answer.page.offset, answer.page.rows, answer.highlights);
    this.showSelection();
    markPainted('answer painted');
  }

  private want(from: number, to: number): void {
    const subject = this.subject;
    if (!subject) return;
    const generation = this.generation;
    for (let page = Math.floor(from / EXPLORER_PAGE_ROWS); page <= Math.floor(to / EXPLORER_PAGE_ROWS); page++) {
      if (this.requested.has(page)) continue;
      this.requested.add(page);
      mark(`page ${page} sent`);
      void channel.query(subject.source, this.query, page * EXPLORER_PAGE_ROWS, EXPLORER_PAGE_ROWS).then((result) => {
        mark(`page ${page} received`);
        if (generation !== this.generation) return;
        if (result.status === 'answered') {
          this.list.add(result.answer.page.offset, result.answer.page.rows, result.answer.highlights);
          markPainted(`page ${page} painted`);
        } else this.requested.delete(page);
      });
    }
  }

  private showSelection(): void {
    const total = this.totalShown();
    const selected = this.list.selected.size;
    this.status.classList.remove('error');
    const run = this.subject?.run;
    const reading = run && !run.done ? ` · read ${run.filesRead.toLocaleString('en-US')} of ${run.files.toLocaleString('en-US')} step files…` : run ? ` · ${run.files.toLocaleString('en-US')} step files` : '';
    this.status.textContent = `${total.toLocaleString('en-US')} of ${(this.subject?.rolloutCount ?? 0).toLocaleString('en-US')} rollouts${reading}${run?.note ? ` · ${run.note}` : ''}`
      + (selected > 0 ? ` · ${selected.toLocaleString('en-US')} selected` : '') + ' · click opens a rollout, Ctrl/⌘-click or Shift-click selects several';
    this.exportButton.textContent = selected > 0 ? `Export selection… (${selected.toLocaleString('en-US')})` : `Export all ${total.toLocaleString('en-US')}…`;
    this.exportButton.toggleAttribute('disabled', total === 0);
  }

  private totalShown(): number {
    return this.total;
  }

  private async exportSelection(): Promise<void> {
    const subject = this.subject;
    if (!subject) return;
    const ids = this.list.selected.size > 0 ? [...this.list.selected] : null;
    const result = await channel.exportRows(subject.source, this.query, ids);
    if (result.status === 'saved') this.status.textContent = `Saved ${result.lines.toLocaleString('en-US')} line${result.lines === 1 ? '' : 's'} to ${result.path}`;
    else if (result.status === 'failed') {
      this.status.textContent = `Export failed: ${result.message}`;
      this.status.classList.add('error');
    }
  }
}

const view = new ExplorerView();
channel.listen((message) => {
  mark(`${message.type} received`);
  switch (message.type) {
    case 'subject':
      view.show(message.subject);
      break;
    case 'notice':
      replaceChildren(root, [h('h1', { text: 'Rollout Explorer' }), h('p', { className: 'notice', text: message.text })]);
      break;
    default: {
      const unexpected: never = message;
      void unexpected;
    }
  }
});
channel.post({ type: 'ready' });
mark('ready sent');
