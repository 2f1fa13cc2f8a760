/** Helpers for the panel end-to-end tests: a workbench, and access to a panel's webview frame. */
import type { Frame, Page } from 'playwright-core';
import type { CodeServerOptions } from './codeServer';
import { Workbench } from './workbench';

/** A workbench with the panels available. */
export async function startPanelWorkbench(options: CodeServerOptions): Promise<Workbench> {
  return Workbench.start(options);
}

/** The webview frame of the panel whose heading matches, once it has rendered. */
export async function panelFrame(page: Page, heading: RegExp, timeoutMs = 30_000): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      const text = await frame.evaluate(() => document.querySelector('#app h1')?.textContent ?? null).catch(() => null);
      if (text !== null && heading.test(text)) return frame;
    }
    await page.waitForTimeout(250);
  }
  throw new Error(`no panel with a heading matching ${heading} within ${timeoutMs} ms`);
}
