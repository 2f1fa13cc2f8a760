/**
 * Building DOM nodes without HTML strings: every text goes in as a text node, so rollout text can
 * never become markup. Attribute values are set with `setAttribute`, which does not parse them.
 */

/** What an element is built from. */
export interface ElementSpec {
  className?: string;
  /** Text content (set as a text node, never parsed). */
  text?: string;
  attrs?: Record<string, string>;
  children?: readonly (Node | string | null | undefined)[];
}

/** Creates an HTML (or custom) element. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, spec?: ElementSpec): HTMLElementTagNameMap[K];
export function h(tag: string, spec?: ElementSpec): HTMLElement;
export function h(tag: string, spec: ElementSpec = {}): HTMLElement {
  const element = document.createElement(tag);
  fill(element, spec);
  return element;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Creates an SVG element; attributes are numbers or our own strings. */
export function svg(tag: string, attrs: Record<string, string | number> = {}, children: readonly (Node | null)[] = []): SVGElement {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
  for (const child of children) if (child) element.appendChild(child);
  return element;
}

/** An SVG `<title>` (the accessible name and tooltip of a shape). */
export function svgTitle(text: string): SVGElement {
  const title = document.createElementNS(SVG_NS, 'title');
  title.textContent = text;
  return title;
}

function fill(element: Element, spec: ElementSpec): void {
  if (spec.className) element.setAttribute('class', spec.className);
  for (const [name, value] of Object.entries(spec.attrs ?? {})) element.setAttribute(name, value);
  if (spec.text !== undefined) element.textContent = spec.text;
  for (const child of spec.children ?? []) {
    if (child === null || child === undefined) continue;
    element.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

/** Replaces all children of an element. */
export function replaceChildren(parent: Element, children: readonly (Node | null)[]): void {
  parent.replaceChildren(...children.filter((c): c is Node => c !== null));
}
