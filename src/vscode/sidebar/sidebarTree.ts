/**
 * The PROF Lens sidebar: a native tree of the analysed rollout files, their groups and rollouts,
 * with a one-click filter (suspected false positives, dropped, unscored) in the view's title bar.
 * Nodes come from `sidebarModel`, which reads the summaries the analysis already holds; a click on
 * a rollout reveals its line.
 */
import * as vscode from 'vscode';
import type { RolloutSummary } from '../../protocol/analysis';
import type { AnalysisStore } from '../analysisStore';
import { commandIds } from '../commandIds';
import type { RunList } from '../run/runFeature';
import {
  fileNode, FILTER_WORDS, groupNamesOfSummary, groupNodes, rolloutNodes, runNode, stepNodes, type SidebarFilter, type SidebarNode,
} from './sidebarModel';

/** The view's id in package.json. */
export const SIDEBAR_VIEW_ID = 'profLens.rollouts';
/** Context key naming the active filter, so the title bar shows the right buttons. */
export const SIDEBAR_FILTER_CONTEXT = 'profLens.sidebarFilter';

/** Redraws after a burst of analysis updates at most this often. */
const REFRESH_DELAY_MS = 250;

const ICONS: Readonly<Record<string, [string, string]>> = {
  kept: ['pass', 'charts.green'],
  dropped: ['circle-slash', 'charts.red'],
  falsePositive: ['warning', 'charts.yellow'],
  unranked: ['question', 'disabledForeground'],
  tie: ['debug-pause', 'charts.orange'],
};

/** Serves the tree from the store's analyses. */
export class SidebarTree implements vscode.TreeDataProvider<SidebarNode>, vscode.Disposable {
  private readonly changes = new vscode.EventEmitter<SidebarNode | undefined>();
  readonly onDidChangeTreeData = this.changes.event;
  private filter: SidebarFilter = 'all';
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly store: AnalysisStore, private readonly runs?: RunList) {
    this.subscription = vscode.Disposable.from(
      store.onDidUpdate((update) => {
        if (update.isFinal) this.scheduleRefresh();
      }),
      runs?.onDidChange(() => this.scheduleRefresh()) ?? { dispose: () => undefined },
    );
  }

  get currentFilter(): SidebarFilter {
    return this.filter;
  }

  /** Shows only the rollouts the filter lets through (`all` clears it). */
  setFilter(filter: SidebarFilter): void {
    this.filter = filter;
    this.changes.fire(undefined);
  }

  getTreeItem(node: SidebarNode): vscode.TreeItem {
    switch (node.kind) {
      case 'file': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
        item.description = node.description;
        item.resourceUri = vscode.Uri.parse(node.source);
        item.iconPath = vscode.ThemeIcon.File;
        item.contextValue = 'rolloutFile';
        item.id = node.source;
        return item;
      }
      case 'group': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Collapsed);
        item.description = node.description;
        item.tooltip = node.tooltip;
        item.iconPath = new vscode.ThemeIcon('symbol-namespace');
        item.contextValue = 'rolloutGroup';
        item.id = `${node.source}\u0000${node.key}`;
        return item;
      }
      case 'rollout': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
        item.description = node.description;
        item.tooltip = node.tooltip;
        const [icon, color] = ICONS[node.isTie && node.mark === 'dropped' ? 'tie' : node.mark] ?? ['circle', 'foreground'];
        item.iconPath = new vscode.ThemeIcon(icon, new vscode.ThemeColor(color));
        item.contextValue = 'rollout';
        item.id = `${node.source}\u0000#${node.rolloutId}`;
        item.command = { command: commandIds.revealRollout, title: 'Reveal Rollout', arguments: [{ source: node.source, rolloutId: node.rolloutId }] };
        return item;
      }
      case 'run': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Collapsed);
        item.description = node.description;
        item.iconPath = new vscode.ThemeIcon('graph-line');
        item.contextValue = 'trainingRun';
        item.id = `run\u0000${node.runId}`;
        return item;
      }
      case 'step': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
        item.description = node.description;
        item.tooltip = node.tooltip;
        item.iconPath = new vscode.ThemeIcon('symbol-event');
        item.contextValue = 'runStep';
        item.id = `run\u0000${node.runId}\u0000${node.step}`;
        item.command = { command: commandIds.openRunStep, title: 'Open Step File', arguments: [{ runId: node.runId, step: node.step }] };
        return item;
      }
      case 'more':
        return new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
    }
  }

  getChildren(node?: SidebarNode): SidebarNode[] {
    if (!node) {
      const files = this.store.uris().flatMap((uri) => {
        const rollouts = this.rolloutsOf(uri.toString());
        return rollouts.length > 0 ? [fileNode(uri.toString(), rollouts, this.filter)] : [];
      });
      // Runs open in the Run Dashboard follow the files: run → its steps.
      return [...files, ...(this.runs?.list() ?? []).map(runNode)];
    }
    if (node.kind === 'run') {
      const run = this.runs?.list().find((r) => r.runId === node.runId);
      return run ? stepNodes(run) : [];
    }
    if (node.kind === 'file') {
      const names = groupNamesOfSummary(this.store.get(vscode.Uri.parse(node.source))?.summary);
      return groupNodes(node.source, this.rolloutsOf(node.source), this.filter, names);
    }
    if (node.kind === 'group') {
      const index = this.store.get(vscode.Uri.parse(node.source))?.index;
      return index ? rolloutNodes(node.source, index.group(node.key), this.filter) : [];
    }
    return [];
  }

  /** The view's subtitle: which filter is on. */
  describeFilter(): string {
    return FILTER_WORDS[this.filter];
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.subscription.dispose();
    this.changes.dispose();
  }

  private rolloutsOf(source: string): readonly RolloutSummary[] {
    return this.store.get(vscode.Uri.parse(source))?.index.all ?? [];
  }

  private scheduleRefresh(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.changes.fire(undefined), REFRESH_DELAY_MS);
  }
}

/** Opens the rollout's file at its line (a file read from disk opens in the Rollout View). */
async function revealRollout(store: AnalysisStore, arg: unknown): Promise<void> {
  if (typeof arg !== 'object' || arg === null) return;
  const { source, rolloutId } = arg as Record<string, unknown>;
  if (typeof source !== 'string' || typeof rolloutId !== 'number') return;
  const uri = vscode.Uri.parse(source);
  const analysis = store.get(uri);
  const rollout = analysis?.index.byRolloutId(rolloutId);
  if (!analysis || !rollout) return;
  if (analysis.version === -1) {
    await vscode.commands.executeCommand(commandIds.openRolloutView, { source, rolloutId });
    return;
  }
  const document = await vscode.workspace.openTextDocument(uri);
  // On a line holding a group, the response's first step; else the line's start.
  const character = rollout.index > 0 ? rollout.rawSteps?.[0]?.start ?? 0 : 0;
  const position = new vscode.Position(rollout.line - 1, character);
  await vscode.window.showTextDocument(document, {
    selection: new vscode.Range(position, position),
    preserveFocus: true,
    preview: false,
  });
}

/** Creates the view, its filter commands and the reveal command; the disposable owns them all. */
export function createSidebar(store: AnalysisStore, runs?: RunList): vscode.Disposable {
  const tree = new SidebarTree(store, runs);
  const view = vscode.window.createTreeView(SIDEBAR_VIEW_ID, { treeDataProvider: tree, showCollapseAll: true });
  const setFilter = (filter: SidebarFilter): void => {
    tree.setFilter(tree.currentFilter === filter ? 'all' : filter);
    view.description = tree.describeFilter() || undefined;
    void vscode.commands.executeCommand('setContext', SIDEBAR_FILTER_CONTEXT, tree.currentFilter);
  };
  void vscode.commands.executeCommand('setContext', SIDEBAR_FILTER_CONTEXT, 'all');
  return vscode.Disposable.from(
    tree,
    view,
    vscode.commands.registerCommand(commandIds.filterFalsePositives, () => setFilter('falsePositive')),
    vscode.commands.registerCommand(commandIds.filterDropped, () => setFilter('dropped')),
    vscode.commands.registerCommand(commandIds.filterUnscored, () => setFilter('unscored')),
    vscode.commands.registerCommand(commandIds.clearFilter, () => setFilter('all')),
    vscode.commands.registerCommand(commandIds.revealRollout, (arg: unknown) => revealRollout(store, arg)),
  );
}
