/**
 * Helpers for the panel end-to-end tests: a workbench whose extension has the panels wired (the
 * real wiring when package.json declares the panel commands, else a test entry installed over the
 * copied extension), and access to a panel's webview frame.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Frame, Page } from 'playwright-core';
import { repoRoot, type CodeServerOptions } from './codeServer';
import { Workbench } from './workbench';

const PANEL_COMMANDS = [
  { command: 'profLens.showGroup', title: 'Show PROF Group', category: 'PROF Lens' },
  { command: 'profLens.showDashboard', title: 'Show Rollout Dashboard', category: 'PROF Lens' },
  { command: 'profLens.exportKept', title: 'Export Kept Rollouts…', category: 'PROF Lens' },
  { command: 'profLens.exportDecisions', title: 'Export PROF Decisions…', category: 'PROF Lens' },
];

interface Manifest {
  activationEvents?: string[];
  contributes: { commands: { command: string }[] };
}

/** Whether package.json declares the panel commands (the extension wires the panels itself). */
export function isWired(): boolean {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Manifest;
  return manifest.contributes.commands.some((c) => c.command === 'profLens.showGroup');
}

async function installHarness(workbench: Workbench): Promise<void> {
  const installed = join(workbench.server.root, 'ext', 'prof-lens.prof-lens-0.1.0');
  const outDir = join(repoRoot, 'test-output', 'e2e-harness');
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: [join(repoRoot, 'test', 'e2e', 'panel', 'harnessExtension.ts')],
    bundle: true, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode', 'onnxruntime-node'],
    outfile: join(installed, 'dist', 'extension.js'), logLevel: 'warning',
  });
  const manifestPath = join(installed, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  manifest.contributes.commands.push(...PANEL_COMMANDS);
  manifest.activationEvents = [...(manifest.activationEvents ?? []), 'onWebviewPanel:profLens.groupPanel', 'onWebviewPanel:profLens.dashboardPanel'];
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
  await workbench.runCommand('Developer: Reload Window');
  await workbench.page.waitForTimeout(1_000);
  await workbench.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  await workbench.page.locator('.explorer-folders-view, .explorer-viewlet').first().waitFor({ timeout: 60_000 });
}

/** A workbench with the panels available. */
export async function startPanelWorkbench(options: CodeServerOptions): Promise<Workbench> {
  const workbench = await Workbench.start(options);
  try {
    if (!isWired()) await installHarness(workbench);
  } catch (error) {
    await workbench.stop();
    throw error;
  }
  return workbench;
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
