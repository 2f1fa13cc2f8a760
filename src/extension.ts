/**
 * PROF Lens in the editor: builds the pieces, wires them, registers their disposables.
 */
import * as vscode from 'vscode';
import { AnalysisClient } from './scoring/analysis/analysisClient';
import { ApiKeyStore, registerApiKeyCommands } from './vscode/apiKey';
import { AnalysisStore } from './vscode/analysisStore';
import { RolloutCodeLensProvider } from './vscode/codeLens';
import { registerCommands } from './vscode/commands';
import { HeatController } from './vscode/heat/heatController';
import { DecorationController } from './vscode/decorations';
import { ProblemsPublisher } from './vscode/diagnostics';
import { trackDocuments } from './vscode/documentTracking';
import { ROLLOUT_FILE_SELECTOR, ROLLOUT_SELECTOR, RolloutHoverProvider } from './vscode/hovers';
import { Metrics } from './vscode/metrics';
import { RawMarkSource } from './vscode/rawMarks';
import { trackRolloutContext } from './vscode/rolloutContext';
import { RolloutViewProvider } from './vscode/rolloutView';
import { createPanelFeature } from './vscode/panel/panelFeature';
import { createExplorerFeature } from './vscode/explorer/explorerFeature';
import { createCompareFeature } from './vscode/compare/compareFeature';
import { createRunFeature, runReadingOptions } from './vscode/run/runFeature';
import { RunExplorerClient } from './scoring/explore/runExplorerClient';
import { createRulesFeature } from './vscode/rules/rulesFeature';
import { commandIds } from './vscode/commandIds';
import { ScorerNotices } from './vscode/scorerNotices';
import { SendGuard } from './vscode/sendGuard';
import { createSetupFeature } from './vscode/setupFeature';
import { registerLabelCommands } from './vscode/labels/labelCommands';
import { LabelsController } from './vscode/labels/labelsController';
import { panelLabels } from './vscode/labels/panelLabels';
import { createSidebar } from './vscode/sidebar/sidebarTree';
import { RolloutSymbolProvider } from './vscode/symbols/symbolProvider';
import { modelEnvironment, scorerPlanner } from './vscode/scoringSettings';
import { LiveSettings } from './vscode/settings';
import { StatusBar } from './vscode/statusBar';
import { TieNotices } from './vscode/tieNotice';

/** When the bundle was loaded: activation time counts from here. */
const loadStartedAt = performance.now();

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const metrics = Metrics.fromEnvironment();
  const apiKeys = new ApiKeyStore(context.secrets);
  context.subscriptions.push(apiKeys);
  // Read before the first analysis, so a served model gets its key from the first request.
  await apiKeys.load();
  const apiKey = (): string | undefined => apiKeys.current;
  const settings = new LiveSettings();
  const client = new AnalysisClient(context.asAbsolutePath('dist/analysisWorker.js'));
  // Activated by a workspace that holds JSON Lines files, the worker is ready before the first is opened.
  client.start();
  const environment = modelEnvironment(context, apiKey);
  const store = new AnalysisStore(client, scorerPlanner(environment), new SendGuard(apiKey));
  const notices = new ScorerNotices(store);
  const template = (): string => settings.current.summaryTemplate;
  const rawMarks = new RawMarkSource(store, template);
  const labels = new LabelsController({ store, client });
  const views = new RolloutViewProvider(client, store, template, labels);
  const decorations = new DecorationController([rawMarks, views], {
    mediaUri: vscode.Uri.joinPath(context.extensionUri, 'media'),
    onPaint: (timing) => metrics.paint(timing),
  });
  decorations.setEnabled(settings.current.isDecorationEnabled);
  const runExplorer = new RunExplorerClient(context.asAbsolutePath('dist/runExplorerWorker.js'));
  const runFeature = createRunFeature({
    extensionUri: context.extensionUri,
    workerPath: context.asAbsolutePath('dist/runWorker.js'),
    cacheDir: environment.cacheDir,
    planner: scorerPlanner(environment),
    // A step file over 50 MB is read from disk and shown in the file dashboard, as Open Large Rollout File does.
    openLargeFile: async (uri) => {
      store.analyseFile(uri);
      await vscode.commands.executeCommand(commandIds.showDashboard, uri);
    },
    auditor: runExplorer,
  });
  const heat = new HeatController(store, client, views);
  const codeLens = new RolloutCodeLensProvider(store, () => settings.current.isCodeLensEnabled, template, labels);
  context.subscriptions.push(
    metrics, settings, store, client, labels, rawMarks, views, decorations, heat, codeLens, notices,
    new ProblemsPublisher(store, () => settings.current.maxProblems),
    new StatusBar(store),
    new TieNotices(store),
    trackRolloutContext(store),
    store.onDidProgress((event) => metrics.progress(event)),
    vscode.languages.registerHoverProvider(ROLLOUT_SELECTOR, new RolloutHoverProvider(store, views, labels, heat)),
    vscode.languages.registerCodeLensProvider(ROLLOUT_SELECTOR, codeLens),
    vscode.languages.registerDocumentSymbolProvider(ROLLOUT_FILE_SELECTOR, new RolloutSymbolProvider(store)),
    settings.onDidChange((current) => {
      decorations.setEnabled(current.isDecorationEnabled);
      codeLens.refresh();
      // A model the settings no longer name is closed now, not at the next analysis.
      client.configureModel(store.currentPlan().model);
    }),
    ...trackDocuments(store, settings),
    // A new key reaches the worker's model at once (the configuration key changes with it).
    apiKeys.onDidChange(() => client.configureModel(store.currentPlan().model)),
    ...registerCommands({ store, views, notices, heat }),
    ...registerApiKeyCommands(apiKeys),
    ...registerLabelCommands({ store, views, labels, client }),
    createPanelFeature({ extensionUri: context.extensionUri, store, client, labels: { ...panelLabels(labels), onDidChange: labels.onDidChange } }),
    { dispose: () => void runExplorer.dispose() },
    createExplorerFeature({ extensionUri: context.extensionUri, store, client, runs: runExplorer, runReading: () => runReadingOptions(scorerPlanner(environment)) }),
    createCompareFeature({ extensionUri: context.extensionUri, store, client }),
    createRulesFeature({ extensionUri: context.extensionUri, store, client }),
    createSetupFeature({ extension: context.extension, apiKey }),
    runFeature.feature,
    createSidebar(store, runFeature.runs),
  );
  metrics.activated(loadStartedAt);
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
