/**
 * The Run Dashboard page: the runs (legend, progress, remove), the charts over training steps,
 * the figures of the step under the cursor for every run (with a button to open its file), and
 * the files that could not be read. A run that changes is redrawn in place: charts keep their
 * element, focus and cursor.
 */
import { h, replaceChildren } from '../dom';
import { formatPercent } from '../../src/core/presentation/numbers';
import type { RunDashboardData, RunView } from '../../src/protocol/run';
import type { RunChannel } from './runChannel';
import { TrendChart, type ChartEvents } from './runChart';
import { lineCharts, lineContent, share } from './runContents';
import { decisionContent, reasonLegend, runReasons } from './decisionChart';
import { unionSteps } from './runGeometry';
import { renderHealth } from './healthSection';
import type { RunHealthView } from '../../src/protocol/runHealth';

export class RunPage {
  private data: RunDashboardData | null = null;
  private cursor: number | null = null;
  private readonly charts = new Map<string, TrendChart>();
  private readonly legend = h('ul', { className: 'legend runs', attrs: { 'aria-label': 'Runs' } });
  private readonly chartArea = h('div', { className: 'trend-charts' });
  private readonly decisionArea = h('div', { className: 'trend-charts' });
  private readonly reasons = h('div');
  private readonly details = h('section', { className: 'card step-details', attrs: { 'aria-label': 'Step details', 'aria-live': 'polite' } });
  private readonly problems = h('section', { className: 'card problems', attrs: { 'aria-label': 'Files with problems' } });
  private readonly healthArea = h('section', { className: 'health', attrs: { 'aria-label': 'Health' } });
  private readonly health = new Map<string, RunHealthView>();
  private readonly subtitle = h('span', { className: 'muted file' });
  private readonly events: ChartEvents;

  constructor(private readonly root: HTMLElement, private readonly channel: RunChannel) {
    this.events = {
      cursor: (step) => this.setCursor(step),
      open: (runId, step) => channel.post({ type: 'openStep', runId, step }),
    };
  }

  /** The whole dashboard (first message, or after settings changed). */
  show(data: RunDashboardData): void {
    const isFirst = this.data === null;
    this.data = data;
    if (isFirst) this.layout();
    this.refresh();
  }

  /** One run changed (or arrived). */
  showRun(run: RunView): void {
    if (!this.data) return;
    const at = this.data.runs.findIndex((r) => r.id === run.id);
    if (at >= 0) this.data.runs[at] = run;
    else this.data.runs.push(run);
    this.refresh();
  }

  /** One run's health audit (under way, or done). */
  showHealth(view: RunHealthView): void {
    this.health.set(view.runId, view);
    this.renderHealth();
  }

  private renderHealth(): void {
    const runs = this.data?.runs ?? [];
    const views = runs.flatMap((r) => this.health.get(r.id) ?? []);
    renderHealth(this.healthArea, views, (id) => runs.find((r) => r.id === id)?.label ?? id, (runId, step, detector) => this.channel.post({ type: 'exploreHealth', runId, step, detector }));
  }

  removeRun(id: string): void {
    this.health.delete(id);
    if (!this.data) return;
    this.data.runs = this.data.runs.filter((r) => r.id !== id);
    this.refresh();
  }

  /** The run ids shown, for the saved state. */
  runIds(): string[] {
    return this.data?.runs.map((r) => r.id) ?? [];
  }

  private layout(): void {
    const add = h('vscode-button', { text: 'Add run…', attrs: { id: 'add-run', title: 'Overlay another training run (a folder of step files)' } });
    add.addEventListener('click', () => this.channel.post({ type: 'addRun' }));
    replaceChildren(this.root, [
      h('header', { className: 'view-header', children: [h('h1', { text: 'PROF training runs' }), this.subtitle, add] }),
      this.legend,
      this.details,
      this.chartArea,
      h('h2', { text: 'Kept and dropped by reason' }),
      this.reasons,
      this.decisionArea,
      this.healthArea,
      this.problems,
    ]);
  }

  private refresh(): void {
    const data = this.data!;
    const runs = data.runs;
    this.subtitle.textContent = `scored by ${data.scorerLabel} · m = ${data.settings.remove === null ? data.settings.m : `n − ${data.settings.remove}`}`;
    replaceChildren(this.legend, runs.map((run, i) => this.legendItem(run, i)));
    const steps = unionSteps(runs);
    if (this.cursor !== null && !steps.includes(this.cursor)) this.cursor = steps[steps.length - 1] ?? null;
    for (const { key, spec } of lineCharts(data.settings)) this.place(this.chartArea, `chart-${key}`, lineContent(spec, runs, steps));
    const decisionKeys = new Set(runs.map((r) => `decisions-${r.id}`));
    for (const [key, chart] of this.charts) {
      if (key.startsWith('decisions-') && !decisionKeys.has(key)) {
        chart.element.remove();
        this.charts.delete(key);
      }
    }
    runs.forEach((run) => this.place(this.decisionArea, `decisions-${run.id}`, decisionContent(run)));
    replaceChildren(this.reasons, [reasonLegend([...new Set(runs.flatMap(runReasons))])]);
    for (const chart of this.charts.values()) chart.setCursor(this.cursor);
    this.renderDetails();
    this.renderProblems();
    this.renderHealth();
  }

  private place(area: HTMLElement, key: string, content: Parameters<TrendChart['update']>[0]): void {
    const existing = this.charts.get(key);
    if (existing) return existing.update(content);
    const explore = (runId: string, step: number): void => this.channel.post({ type: 'exploreStep', runId, step, chart: key });
    const chart = new TrendChart(content, { ...this.events, explore }, `c${this.charts.size}`);
    chart.element.dataset['chart'] = key;
    this.charts.set(key, chart);
    area.appendChild(chart.element);
  }

  private setCursor(step: number | null): void {
    this.cursor = step;
    for (const chart of this.charts.values()) chart.setCursor(step);
    this.renderDetails();
  }

  private legendItem(run: RunView, index: number): HTMLElement {
    const remove = h('button', { className: 'link', text: 'remove', attrs: { type: 'button', 'aria-label': `Remove run ${run.label}` } });
    remove.addEventListener('click', () => this.channel.post({ type: 'removeRun', runId: run.id }));
    // A run with no step file has no rollouts to explore: no link that would open an empty table.
    const explore = run.files > 0 || run.progress ? h('button', { className: 'link explore-run', text: 'explore all rollouts', attrs: { type: 'button', 'aria-label': `Open the Rollout Explorer over every step of ${run.label}` } }) : null;
    explore?.addEventListener('click', () => this.channel.post({ type: 'exploreRun', runId: run.id }));
    const status = run.progress
      ? `reading ${run.progress.filesDone} of ${run.progress.filesTotal} files…`
      : `${run.totalSteps} step${run.totalSteps === 1 ? '' : 's'} in ${run.files} file${run.files === 1 ? '' : 's'}${run.stride > 1 ? ` (every ${run.stride}th shown)` : ''}`;
    const modelNote = run.modelError ? h('span', { className: 'model-error', text: ` · the checker scored: ${run.modelError}` }) : null;
    const layout = run.layout ? h('span', { className: 'muted layout', text: ` · read as ${run.layout}` }) : null;
    return h('li', {
      attrs: { title: run.location, 'data-run': run.id },
      children: [h('span', { className: `swatch run-${index % 6}`, attrs: { 'aria-hidden': 'true' } }), h('strong', { text: run.label }), h('span', { className: 'muted', text: ` · ${status}` }), layout, modelNote, ' ', ...(explore ? [explore, ' '] : []), remove],
    });
  }

  private renderDetails(): void {
    const runs = this.data?.runs ?? [];
    const step = this.cursor;
    if (step === null || runs.length === 0) {
      replaceChildren(this.details, [h('p', { className: 'muted', text: runs.length ? 'Point at a chart (or focus one and use ← →) to see a step here; click a point, or press Enter, to open its file.' : 'No run yet: use Add run….' })]);
      return;
    }
    const rows: [string, (p: RunView['steps'][number]) => string][] = [
      ['rollouts / groups', (p) => `${p.rollouts} / ${p.groups}`],
      ['accuracy', (p) => formatPercent(p.accuracy)],
      ['all correct / all wrong groups', (p) => `${p.allCorrectGroups} / ${p.allIncorrectGroups} (${formatPercent(share(p.allCorrectGroups + p.allIncorrectGroups, p.groups))} without signal)`],
      ['kept / dropped', (p) => `${p.kept} / ${p.dropped}`],
      ['suspected false positives', (p) => `${p.suspectedFalsePositives} (${formatPercent(p.falsePositiveShare)})`],
      ['penalised', (p) => String(p.penalised)],
      ['H mean / median / p90', (p) => [p.stepsMean, p.stepsMedian, p.stepsP90].map((v) => (v === null ? '—' : v.toFixed(1))).join(' / ')],
      ['characters mean / p90', (p) => [p.responseCharsMean, p.responseCharsP90].map((v) => (v === null ? '—' : v.toFixed(0))).join(' / ')],
      ['AUROC', (p) => (p.auroc === null ? '—' : p.auroc.toFixed(3))],
    ];
    const points = runs.map((run) => run.steps.find((s) => s.step === step));
    const head = h('tr', { children: [h('th', { text: `Step ${step}`, attrs: { scope: 'col' } }), ...runs.map((run, i) => h('th', { attrs: { scope: 'col' }, children: [h('span', { className: `swatch run-${i % 6}`, attrs: { 'aria-hidden': 'true' } }), run.label] }))] });
    const body = rows.map(([label, cell]) => h('tr', { children: [h('th', { text: label, attrs: { scope: 'row' } }), ...points.map((p) => h('td', { className: 'num', text: p ? cell(p) : '—' }))] }));
    const open = h('tr', {
      children: [h('th', { text: 'file', attrs: { scope: 'row' } }), ...runs.map((run, i) => {
        const p = points[i];
        if (!p) return h('td', { className: 'muted', text: 'no such step' });
        const button = h('button', { className: 'link', text: `open ${p.fileLabel}`, attrs: { type: 'button', 'data-open-step': String(step) } });
        button.addEventListener('click', () => this.channel.post({ type: 'openStep', runId: run.id, step }));
        return h('td', { children: [button] });
      })],
    });
    replaceChildren(this.details, [h('table', { className: 'step-table', children: [h('thead', { children: [head] }), h('tbody', { children: [...body, open] })] })]);
  }

  private renderProblems(): void {
    const runs = this.data?.runs ?? [];
    const items = runs.flatMap((run) => [
      ...run.problems.map((p) => h('li', { text: `${run.label} · ${p.fileLabel}: ${p.message}` })),
      ...(run.problemCount > run.problems.length ? [h('li', { className: 'muted', text: `${run.label}: … and ${run.problemCount - run.problems.length} more` })] : []),
    ]);
    this.problems.hidden = items.length === 0;
    replaceChildren(this.problems, items.length ? [h('h2', { text: 'Files with problems' }), h('ul', { children: items })] : []);
  }
}
