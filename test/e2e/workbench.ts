/**
 * Drives the VS Code workbench in Chromium the way a person would: quick open, the command
 * palette, hovering, the Problems panel, screenshots. Every wait is bounded.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { repoRoot, startCodeServer, type CodeServer, type CodeServerOptions } from './codeServer';

/** Where screenshots and benchmark figures go (git-ignored). */
export const outputDir = join(repoRoot, 'test-output', 'e2e');

const chromiumPath = process.env['PROF_LENS_CHROMIUM'] ?? '/usr/bin/chromium';
const chromiumArgs = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/** A browser on a code-server workbench, with the operations the tests need. */
export class Workbench {
  private constructor(
    readonly page: Page,
    readonly server: CodeServer,
    private readonly browser: Browser,
  ) {}

  /** Starts code-server and Chromium and waits for the workbench to be usable. */
  static async start(options: CodeServerOptions = {}): Promise<Workbench> {
    const server = await startCodeServer(options);
    let browser: Browser | undefined;
    try {
      browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs, timeout: 60_000 });
      const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
      page.setDefaultTimeout(20_000);
      await page.goto(`${server.url}/?folder=${encodeURIComponent(server.workspace)}`, { timeout: 60_000 });
      await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      await page.locator('.explorer-folders-view, .explorer-viewlet').first().waitFor({ timeout: 60_000 });
      return new Workbench(page, server, browser);
    } catch (error) {
      await browser?.close().catch(() => undefined);
      await server.stop();
      throw error;
    }
  }

  /** Closes the browser and stops code-server; safe to call twice. */
  async stop(): Promise<void> {
    await this.browser.close().catch(() => undefined);
    await this.server.stop();
  }

  /**
   * Opens a workspace file through Quick Open and waits for its editor tab; returns when (Date.now())
   * the Enter that opens it was pressed, the moment a user's click would land.
   */
  async openFile(name: string, timeout = 30_000): Promise<number> {
    await this.focusEditorArea();
    await this.page.keyboard.press('Control+P');
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor();
    await input.fill(name);
    await this.page.locator('.quick-input-list .monaco-list-row').first().waitFor();
    await this.page.waitForTimeout(300);
    const pressedAt = Date.now();
    await this.page.keyboard.press('Enter');
    await this.page.locator(`.tab.active[aria-label*="${name}"]`).first().waitFor({ timeout });
    return pressedAt;
  }

  /** Closes every editor tab whose label contains `label` with the tab's own close button. */
  async closeTabs(label: string): Promise<void> {
    const tabs = this.page.locator(`.tab[aria-label*="${label}"]`);
    for (let tries = 0; tries < 10 && (await tabs.count()) > 0; tries++) {
      const tab = tabs.first();
      await tab.hover();
      await tab.locator('.tab-actions .action-label').first().click();
      await this.page.waitForTimeout(200);
    }
    await tabs.first().waitFor({ state: 'detached', timeout: 20_000 });
  }

  /**
   * Right-clicks `target` and runs the context-menu item titled `title`. Until the extension host
   * has read the extension's manifest the menu lacks its entries: it is opened again (bounded). A
   * click that lands while the menu takes focus leaves the menu open and runs nothing: the item is
   * then clicked again, and the call returns only once the menu has closed (the menu closes as it
   * runs its item), so a later click never lands on a menu left open.
   */
  async runContextMenu(target: Locator, title: string): Promise<void> {
    const item = this.page.locator('.context-view .action-label', { hasText: title }).first();
    const menu = this.page.locator('.context-view .monaco-menu').first();
    for (let attempt = 1; ; attempt++) {
      await target.click({ button: 'right' });
      if (await item.waitFor({ timeout: 5_000 }).then(() => true, () => false)) break;
      await this.page.keyboard.press('Escape');
      if (attempt === 5) throw new Error(`the context menu does not offer ${title}`);
      await this.page.waitForTimeout(2_000);
    }
    for (let attempt = 1; ; attempt++) {
      // The menu may close between the check and this click: then there is nothing to click.
      const clicked = await item.hover({ timeout: 3_000 }).then(() => item.click({ timeout: 3_000 })).then(() => true, () => false);
      if (!clicked && attempt === 1) await item.click();
      if (await menu.waitFor({ state: 'hidden', timeout: 3_000 }).then(() => true, () => false)) return;
      if (attempt === 3) break;
    }
    // Last resort: the hovered item has the menu's focus, and Enter runs it.
    if (await item.hover({ timeout: 3_000 }).then(() => true, () => false)) await this.page.keyboard.press('Enter');
    await menu.waitFor({ state: 'hidden', timeout: 5_000 });
  }

  /** Closes a context menu left open (by a failed test), so it cannot swallow the next click. */
  async closeMenus(): Promise<void> {
    for (let i = 0; i < 3 && (await this.page.locator('.context-view .monaco-menu').first().isVisible().catch(() => false)); i++) {
      await this.page.keyboard.press('Escape');
    }
  }

  /**
   * Runs a command by its palette title, e.g. `PROF Lens: Open Rollout View`; returns when
   * (Date.now()) its row was clicked.
   */
  async runCommand(title: string): Promise<number> {
    const input = this.page.locator('.quick-input-widget input');
    // With a webview focused, the palette's close hands the focus back to the webview a moment
    // later, and that can close the quick pick the command has just opened: start from the
    // workbench's own window instead.
    await this.page.evaluate(() => {
      const active = document.activeElement as HTMLElement | null;
      if (active?.tagName === 'IFRAME') active.blur();
    });
    await this.page.keyboard.press('F1');
    // A webview that has just taken focus can swallow the key; the workbench's own window then
    // gets it once the focus is out of the frame.
    if (!(await input.waitFor({ timeout: 5_000 }).then(() => true, () => false))) {
      await this.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await this.page.keyboard.press('F1');
    }
    await input.waitFor();
    await input.fill(`>${title}`);
    const row = this.page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
    await row.waitFor();
    const clickedAt = Date.now();
    await row.click();
    return clickedAt;
  }

  /** The visible text of the active editor's rendered lines (only what is on screen). */
  async visibleEditorText(): Promise<string> {
    return (await this.activeEditor().locator('.view-lines').innerText()).replace(/\u00a0/g, ' ');
  }

  /** The active editor's root element. */
  activeEditor(): Locator {
    return this.page.locator('.editor-group-container.active .monaco-editor').first();
  }

  /** Moves the mouse to a screen point and returns the hover widget's text. */
  async hoverAt(point: { x: number; y: number }): Promise<string> {
    await this.page.mouse.move(point.x - 20, point.y);
    await this.page.mouse.move(point.x + 3, point.y, { steps: 4 });
    const hover = this.page.locator('.monaco-hover:not(.hidden) .monaco-hover-content').first();
    try {
      await hover.waitFor({ timeout: 10_000 });
    } catch (error) {
      await this.screenshot('failure-hover');
      throw error;
    }
    await this.page.waitForTimeout(300);
    return hover.innerText();
  }

  /** Moves the cursor to a 1-based line (and column) with Go to Line; the editor scrolls to it. */
  async goToLine(line: number, column = 1): Promise<void> {
    await this.page.keyboard.press('Escape');
    await this.page.keyboard.press('Control+G');
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor();
    await input.fill(`:${line}:${column}`);
    await this.page.keyboard.press('Enter');
    await this.page.waitForTimeout(200);
  }

  /** Opens the Problems panel, filtered by some text, and returns the text of its rows. */
  async problems(filter: string): Promise<string[]> {
    await this.runCommand('View: Focus Problems');
    const input = this.page.locator('.markers-panel-action-filter input, .viewpane-filter input').first();
    await input.waitFor();
    await input.fill(filter);
    await this.page.waitForTimeout(500);
    const rows = this.page.locator('.markers-panel .monaco-list-row');
    await rows.first().waitFor({ timeout: 15_000 });
    return rows.allInnerTexts();
  }

  /** Saves a full-window screenshot to test-output/e2e/<name>.png. */
  async screenshot(name: string): Promise<string> {
    mkdirSync(outputDir, { recursive: true });
    const path = join(outputDir, `${name}.png`);
    await this.page.screenshot({ path });
    return path;
  }

  /**
   * Answers the editor's own file dialog (a quick input in the browser): waits for its title, types
   * the path and presses its OK button. The dialog fills in its starting folder by itself once it
   * has read it, which can overwrite a path typed too early: until the dialog closes, the path is
   * typed again (bounded). `button` is the dialog's accept button (its `openLabel`, else OK).
   * Returns when (Date.now()) the button that was accepted was clicked.
   */
  async acceptFileDialog(title: string, path: string, button = 'OK'): Promise<number> {
    const widget = this.page.locator('.quick-input-widget');
    await expect.poll(() => widget.innerText(), { timeout: 20_000 }).toContain(title);
    const input = widget.locator('input');
    const name = path.split('/').pop() ?? path;
    await expect.poll(() => input.inputValue(), { timeout: 20_000 }).toMatch(/^\//);
    const deadline = Date.now() + 45_000;
    for (;;) {
      await input.fill(path);
      // If the dialog prepends its folder to what was typed, the row never shows: type it again.
      const isListed = await widget.locator('.quick-input-list .monaco-list-row', { hasText: name }).first()
        .waitFor({ timeout: 10_000 }).then(() => true, () => false);
      if (isListed && (await input.inputValue()) === path) {
        const clickedAt = Date.now();
        await widget.locator('.monaco-button', { hasText: button }).click();
        // Closed, or already reused by whatever the command shows next.
        const isClosed = await expect.poll(async () => !(await widget.isVisible()) || !(await widget.innerText()).includes(title), { timeout: 5_000 })
          .toBe(true).then(() => true, () => false);
        if (isClosed) return clickedAt;
      }
      if (Date.now() > deadline) throw new Error(`the file dialog "${title}" did not accept ${path} (its input holds ${await input.inputValue()})`);
    }
  }

  /**
   * The notification toast holding some text, once it has faded and slid in, so a screenshot shows
   * it as a user reads it.
   */
  async settledToast(text: string, timeout = 60_000): Promise<Locator> {
    const toast = this.page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();
    await toast.waitFor({ timeout });
    await expect.poll(() => toast.evaluate((e) => getComputedStyle(e.closest('.notification-toast-container') ?? e).opacity)).toBe('1');
    let lastTop = Number.NaN;
    await expect.poll(async () => {
      const top = (await toast.boundingBox())?.y ?? Number.NaN;
      const isStill = top === lastTop;
      lastTop = top;
      return isStill;
    }).toBe(true);
    return toast;
  }

  /** Switches the colour theme through the palette, e.g. `Light Modern`, `Dark High Contrast`. */
  async chooseTheme(label: string): Promise<void> {
    await this.runCommand('Preferences: Color Theme');
    const input = this.page.locator('.quick-input-widget input');
    await input.fill(label);
    await this.page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first().waitFor();
    await this.page.keyboard.press('Enter');
  }

  /** The status bar item the extension owns, by its accessible name. */
  statusItem(text: string): Locator {
    return this.page.locator('.statusbar-item', { hasText: text }).first();
  }

  private async focusEditorArea(): Promise<void> {
    await this.page.keyboard.press('Escape');
  }
}
