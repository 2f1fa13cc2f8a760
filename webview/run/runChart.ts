/**
 * One chart of the Run Dashboard over training steps: inline SVG whose colours come from the
 * theme, a cursor shared with the other charts (pointer or ← → keys), a readout of the figures at
 * the cursor, and a way to open a step's file (click its point, or Enter). The figure element stays
 * while its drawing is replaced, so a live update never loses focus or the cursor.
 */
import { h, svg, svgTitle } from '../dom';
import { linearScale, nearestIndex, niceTicks, type Scale } from './runGeometry';

export const PLOT = { width: 560, height: 160, left: 52, right: 14, top: 10, bottom: 30 } as const;

/** What a chart tells the page. */
export interface ChartEvents {
  cursor: (step: number | null) => void;
  open: (runId: string, step: number) => void;
  /** Explore this step: its rollouts in the Rollout Explorer, filtered as this chart means. */
  explore?: (runId: string, step: number) => void;
}

/** What every chart has: a title, the steps it spans, its readout at a step, and its drawing. */
export interface ChartContent {
  title: string;
  /** Steps of the runs drawn, ascending: where the cursor can go. */
  steps: number[];
  /** The run whose step Enter opens at a step (the first that has it). */
  runAt: (step: number) => string | null;
  /** The figures at a step, in words. */
  readout: (step: number) => string;
  /** Draws into the plot area (origin at its top left); `x` maps steps to it. */
  draw: (plot: SVGGElement, x: Scale) => void;
  /** Room kept at both ends of the step axis (columns are drawn centred on their step). */
  xPadding?: number;
}

function xScaleOf(steps: readonly number[], padding = 0): Scale {
  const first = steps[0] ?? 0;
  const last = steps[steps.length - 1] ?? first;
  return linearScale([first, last], [padding, PLOT.width - padding]);
}

/** A chart that is drawn again in place whenever its content changes. */
export class TrendChart {
  readonly element: HTMLElement;
  private readonly holder: HTMLElement;
  private readonly readoutElement: HTMLElement;
  private readonly caption: HTMLElement;
  private readonly exploreButton = h('button', { className: 'link explore-step', attrs: { type: 'button' } });
  private cursorLine: SVGElement | null = null;
  private x: Scale = xScaleOf([]);
  private cursor: number | null = null;

  constructor(private content: ChartContent, private readonly events: ChartEvents, id: string) {
    this.caption = h('figcaption', { text: content.title });
    this.holder = h('div', { className: 'trend-plot' });
    this.readoutElement = h('p', { className: 'readout muted', attrs: { 'aria-live': 'polite' } });
    this.element = h('figure', {
      className: 'chart-figure trend-chart',
      attrs: { id, tabindex: '0', role: 'group', 'aria-label': `${content.title}. Left and right arrows move between steps; Enter opens the step's file.` },
      children: [this.caption, this.holder, this.readoutElement, events.explore ? this.exploreButton : null],
    });
    this.exploreButton.hidden = true;
    this.exploreButton.addEventListener('click', () => {
      const run = this.cursor === null ? null : this.content.runAt(this.cursor);
      if (run && this.cursor !== null) events.explore?.(run, this.cursor);
    });
    this.element.addEventListener('keydown', (event) => this.key(event));
    this.holder.addEventListener('pointermove', (event) => this.point(event));
    this.holder.addEventListener('click', (event) => this.click(event));
    this.draw();
  }

  /** New content (a run changed): redraw, keeping the cursor. */
  update(content: ChartContent): void {
    this.content = content;
    this.caption.textContent = content.title;
    this.draw();
  }

  /** Moves the cursor (from this chart or another). */
  setCursor(step: number | null): void {
    this.cursor = step;
    this.placeCursor();
  }

  private draw(): void {
    this.x = xScaleOf(this.content.steps, this.content.xPadding);
    const plot = svg('g', { transform: `translate(${PLOT.left},${PLOT.top})` });
    this.content.draw(plot as SVGGElement, this.x);
    plot.appendChild(this.stepAxis());
    this.cursorLine = svg('line', { class: 'cursor', x1: 0, x2: 0, y1: 0, y2: PLOT.height, visibility: 'hidden' });
    plot.appendChild(this.cursorLine);
    const width = PLOT.width + PLOT.left + PLOT.right;
    const height = PLOT.height + PLOT.top + PLOT.bottom;
    const chart = svg('svg', { class: 'chart trend', role: 'img', 'aria-label': this.content.title, viewBox: `0 0 ${width} ${height}`, preserveAspectRatio: 'xMinYMin meet' }, [plot]);
    this.holder.replaceChildren(chart);
    this.placeCursor();
  }

  private stepAxis(): SVGElement {
    const steps = this.content.steps;
    const first = steps[0];
    const last = steps[steps.length - 1];
    const ticks = first === undefined || last === undefined ? [] : first === last ? [first] : niceTicks(first, last, 8).filter((t) => Number.isInteger(t));
    const labels = ticks.map((t) => {
      const text = svg('text', { x: this.x(t), y: PLOT.height + 14, class: 'axis-text', 'text-anchor': 'middle' });
      text.textContent = String(t);
      return text;
    });
    const name = svg('text', { x: PLOT.width / 2, y: PLOT.height + 28, class: 'axis-text', 'text-anchor': 'middle' });
    name.textContent = 'training step';
    return svg('g', {}, [svg('line', { x1: 0, y1: PLOT.height, x2: PLOT.width, y2: PLOT.height, class: 'axis' }), ...labels, name]);
  }

  private placeCursor(): void {
    const step = this.cursor;
    const shown = step !== null && this.content.steps.includes(step);
    if (this.cursorLine) {
      this.cursorLine.setAttribute('visibility', shown ? 'visible' : 'hidden');
      if (shown) {
        const x = this.x(step).toFixed(1);
        this.cursorLine.setAttribute('x1', x);
        this.cursorLine.setAttribute('x2', x);
      }
    }
    this.readoutElement.textContent = shown ? this.content.readout(step) : '';
    this.exploreButton.hidden = !shown || this.content.runAt(step) === null;
    if (shown) this.exploreButton.textContent = `Explore step ${step} →`;
  }

  private stepAtPointer(event: MouseEvent): number | null {
    const box = this.holder.getBoundingClientRect();
    if (box.width === 0) return null;
    const scale = (PLOT.width + PLOT.left + PLOT.right) / box.width;
    const px = (event.clientX - box.left) * scale - PLOT.left;
    const steps = this.content.steps;
    const i = nearestIndex(steps.map((s) => this.x(s)), px);
    return i < 0 ? null : steps[i]!;
  }

  private point(event: PointerEvent): void {
    const step = this.stepAtPointer(event);
    if (step !== null && step !== this.cursor) this.events.cursor(step);
  }

  private click(event: MouseEvent): void {
    const target = (event.target as Element).closest('[data-run][data-step]');
    if (target) {
      this.events.open(target.getAttribute('data-run')!, Number(target.getAttribute('data-step')));
      return;
    }
    const step = this.stepAtPointer(event);
    if (step !== null) this.events.cursor(step);
  }

  private key(event: KeyboardEvent): void {
    const steps = this.content.steps;
    if (steps.length === 0) return;
    const at = this.cursor === null ? -1 : steps.indexOf(this.cursor);
    let next: number | null = null;
    if (event.key === 'ArrowRight') next = steps[Math.min(steps.length - 1, at + 1)]!;
    else if (event.key === 'ArrowLeft') next = steps[Math.max(0, at < 0 ? steps.length - 1 : at - 1)]!;
    else if (event.key === 'Home') next = steps[0]!;
    else if (event.key === 'End') next = steps[steps.length - 1]!;
    else if (event.key === 'Enter' && this.cursor !== null) {
      const run = this.content.runAt(this.cursor);
      if (run) this.events.open(run, this.cursor);
      event.preventDefault();
      return;
    } else return;
    event.preventDefault();
    this.events.cursor(next);
  }
}

/** A value axis: ticks and their labels on the left, light grid lines across. */
export function valueAxis(y: Scale, format: (v: number) => string, label: string): SVGElement {
  const [low, high] = y.domain;
  const ticks = niceTicks(low, high, 4);
  const parts: SVGElement[] = [svg('line', { x1: 0, y1: 0, x2: 0, y2: PLOT.height, class: 'axis' })];
  for (const t of ticks) {
    parts.push(svg('line', { x1: 0, x2: PLOT.width, y1: y(t), y2: y(t), class: 'grid' }));
    const text = svg('text', { x: -6, y: y(t) + 3, class: 'axis-text', 'text-anchor': 'end' });
    text.textContent = format(t);
    parts.push(text);
  }
  const name = svg('text', { x: -PLOT.height / 2, y: -40, class: 'axis-text', 'text-anchor': 'middle', transform: 'rotate(-90)' });
  name.textContent = label;
  parts.push(name);
  return svg('g', {}, parts);
}

/** A point that opens its step, with its figures as its tooltip. */
export function stepPoint(attrs: { x: number; y: number; runId: string; step: number; className: string; title: string }): SVGElement {
  return svg('circle', { cx: attrs.x.toFixed(1), cy: attrs.y.toFixed(1), r: 3, class: `point-step ${attrs.className}`, 'data-run': attrs.runId, 'data-step': attrs.step }, [svgTitle(attrs.title)]);
}
