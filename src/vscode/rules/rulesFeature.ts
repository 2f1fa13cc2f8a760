/**
 * **PROF Lens: Compare Curation Rules**: every curation rule on the active rollout file (or the
 * file a CodeLens, the dashboard or the sidebar names), decided in the analysis worker with each
 * rule's parameters as set (the settings' for the chosen rule, the defaults for the others).
 */
import * as vscode from 'vscode';
import { basename } from 'node:path';
import type { AnalysisClient } from '../../scoring/analysis/analysisClient';
import type { AnalysisStore } from '../analysisStore';
import { commandIds, isRolloutTarget } from '../commandIds';
import { showError, showInfo } from '../notify';
import { createPanel, restorePanels } from '../webviewPanel';
import { isRulesState, type RulesSubject } from '../../protocol/rules';
import { analysedFileInView } from '../explorer/explorerFeature';
import { analysed } from '../compare/compareFeature';
import { errorText } from '../../core/errorText';
import { chosenRule, ruleNamed, RULES, withDefaults } from '../../core/rules/registry';
import type { RuleParams } from '../../core/rules/rule';
import { QUERY_VERSION, type ExplorerQuery } from '../../core/explore/explorerQuery';
import { RULES_PANEL, RulesPanel } from './rulesPanel';

export interface RulesFeatureDeps {
  extensionUri: vscode.Uri;
  store: Pick<AnalysisStore, 'get' | 'onDidUpdate' | 'onDidProgress' | 'uris' | 'analyseFile'>;
  client: Pick<AnalysisClient, 'explore'>;
}

/** The file a command argument names: a URI, a CodeLens/hover target, a sidebar node or `{ source }`. */
function sourceOf(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  if (isRolloutTarget(arg)) return vscode.Uri.parse(arg.source);
  if (typeof arg === 'object' && arg !== null && typeof (arg as Record<string, unknown>)['source'] === 'string') return vscode.Uri.parse((arg as { source: string }).source);
  return undefined;
}

/** Each rule's parameters as the file was analysed: the chosen rule's from the settings, the others' defaults. */
export function paramsAsSet(settings: Parameters<typeof chosenRule>[0]): { chosen: string; params: Record<string, RuleParams> } {
  const chosen = chosenRule(settings);
  return { chosen: chosen.rule.name, params: Object.fromEntries(RULES.map((r) => [r.name, r.name === chosen.rule.name ? chosen.params : withDefaults(r, {})])) };
}

/** The parameters of `rule` that differ from its defaults (what a title needs to name). */
function notDefault(rule: string, params: RuleParams | undefined): RuleParams {
  const spec = ruleNamed(rule);
  return Object.fromEntries(Object.entries(params ?? {}).filter(([k, v]) => spec?.params.find((p) => p.name === k)?.default !== v));
}

/** The Explorer's query for the rollouts two rules decide differently. */
export function disagreementQuery(subject: Pick<RulesSubject, 'params'>, a: string, b: string): ExplorerQuery {
  return { version: QUERY_VERSION, filter: { disagree: { a, b, params: { [a]: notDefault(a, subject.params[a]), [b]: notDefault(b, subject.params[b]) } } }, sort: null };
}

export function createRulesFeature(deps: RulesFeatureDeps): vscode.Disposable {
  let view: RulesPanel | null = null;
  const adopt = (panel: vscode.WebviewPanel): RulesPanel => {
    const created = new RulesPanel(panel, {
      extensionUri: deps.extensionUri,
      openDisagreement: (subject, a, b) => void vscode.commands.executeCommand(commandIds.openExplorer, { source: subject.source, query: disagreementQuery(subject, a, b) }),
    });
    created.onDidDispose(() => {
      if (view === created) view = null;
    });
    view = created;
    return created;
  };
  const show = async (uri: vscode.Uri, target?: RulesPanel, reveal = true): Promise<void> => {
    const shown = target ?? view ?? adopt(createPanel(RULES_PANEL, deps.extensionUri, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }));
    try {
      if (!deps.store.get(uri)?.summary) {
        shown.notice(`Analysing ${basename(uri.path)}…`);
        await analysed(deps.store, uri);
      }
      const summary = deps.store.get(uri)?.summary;
      if (!summary) throw new Error('its analysis is gone (the file was closed)');
      if (reveal) shown.notice(`Deciding every curation rule on ${basename(uri.path)}…`);
      const { chosen, params } = paramsAsSet(summary.settings);
      const answer = await deps.client.explore(uri.toString(), { method: 'rules', params });
      shown.show({ source: uri.toString(), fileLabel: basename(uri.path), params, chosen, figures: answer.figures }, reveal);
    } catch (error) {
      const text = `cannot compare the curation rules on ${basename(uri.path)}: ${errorText(error)}`;
      shown.notice(`PROF Lens ${text}`);
      void showError(`PROF Lens: ${text}`);
    }
  };
  const command = async (arg: unknown): Promise<void> => {
    const uri = sourceOf(arg) ?? analysedFileInView(deps.store);
    if (!uri) return void showInfo('Open an analysed rollout file first: Compare Curation Rules decides its groups under every rule.');
    await show(uri);
  };
  return vscode.Disposable.from(
    vscode.commands.registerCommand(commandIds.compareRules, command),
    restorePanels(RULES_PANEL, isRulesState, (panel, state) => {
      const restored = adopt(panel);
      void show(vscode.Uri.parse(state.source), restored);
    }),
    // A new analysis of the file shown (settings changed, the file edited): its figures again.
    deps.store.onDidUpdate((u) => {
      if (view && u.isFinal && view.source === u.uri.toString()) void show(u.uri, view, false);
    }),
    { dispose: () => view?.dispose() },
  );
}
