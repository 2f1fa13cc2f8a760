/**
 * Token heat in the editor: when the `profLens.display.tokenHeat` setting is on, the responses
 * of the rollouts in view (raw files and Rollout Views) are tinted by their tokens' log-probability
 * (else entropy), in HEAT_BUCKETS theme colours. The figures come from the analysis worker (a
 * `heat` request for the rollouts on the visible lines, at most MAX_ASKED at a time) and are kept
 * per file until its analysis changes; hovers and the hot-step list read the same.
 */
import * as vscode from 'vscode';
import { HEAT_BUCKETS } from '../../core/tokens/tokenHeat';
import type { HotStep } from '../../core/tokens/hotSteps';
import type { RolloutHeat } from '../../core/tokens/rolloutHeat';
import type { AnalysisClient } from '../../scoring/analysis/analysisClient';
import type { AnalysisStore } from '../analysisStore';
import { ROLLOUT_VIEW_SCHEME, type RolloutViewProvider } from '../rolloutView';
import { readTokenHeat, updateSetting } from '../settings';
import { settingIds } from '../settingIds';
import { showInfo } from '../notify';
import { viewRangesOf } from './heatViewRanges';
import { errorText } from '../../core/errorText';

/** Rollouts asked for in one request (the lines in view hold far fewer). */
const MAX_ASKED = 200;
/** Lines above and below the visible ones whose rollouts are tinted too. */
const MARGIN = 40;

interface FileHeat {
  rollouts: Map<number, RolloutHeat | null>;
  hot: Promise<HotStep[]> | null;
  /** The hot steps once ranked. */
  knownHot: HotStep[] | null;
}

/** Owns the heat decoration types and the heat fetched per file. */
export class HeatController implements vscode.Disposable {
  private readonly types: vscode.TextEditorDecorationType[] = [];
  private readonly files = new Map<string, FileHeat>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly told = new Set<string>();

  constructor(
    private readonly store: AnalysisStore,
    private readonly client: Pick<AnalysisClient, 'heat'>,
    private readonly views: RolloutViewProvider,
  ) {
    for (let b = 1; b <= HEAT_BUCKETS; b++) {
      this.types.push(vscode.window.createTextEditorDecorationType({ backgroundColor: new vscode.ThemeColor(`profLens.tokenHeat${b}`) }));
    }
    this.subscriptions.push(
      store.onDidUpdate((update) => {
        if (!update.isFinal) return;
        this.files.delete(update.uri.toString());
        this.schedule();
      }),
      views.onDidChange(() => this.schedule()),
      vscode.window.onDidChangeVisibleTextEditors(() => this.schedule()),
      vscode.window.onDidChangeTextEditorVisibleRanges(() => this.schedule()),
      vscode.workspace.onDidChangeConfiguration((event) => event.affectsConfiguration(settingIds.tokenHeat) && this.schedule()),
    );
  }

  /** Whether the tint (and the heat lines of hovers) are on. */
  isOn(): boolean {
    return readTokenHeat();
  }

  /** Turns the tint on or off (the setting, for every window). */
  async toggle(): Promise<void> {
    await updateSetting(settingIds.tokenHeat, !this.isOn(), vscode.ConfigurationTarget.Global);
  }

  /** The heat of some rollouts of a source file, fetched once each. */
  async heatOf(source: vscode.Uri, ids: readonly number[]): Promise<Map<number, RolloutHeat>> {
    const file = this.fileOf(source);
    const missing = [...new Set(ids)].filter((id) => !file.rollouts.has(id)).slice(0, MAX_ASKED);
    if (missing.length > 0) {
      const answer = await this.client.heat(source.toString(), missing, false);
      for (const id of missing) file.rollouts.set(id, null);
      for (const h of answer.rollouts) file.rollouts.set(h.rolloutId, h);
    }
    const found = new Map<number, RolloutHeat>();
    for (const id of ids) {
      const h = file.rollouts.get(id);
      if (h) found.set(id, h);
    }
    return found;
  }

  /** The file's hot steps (the worker ranks the whole file once). */
  hotSteps(source: vscode.Uri): Promise<HotStep[]> {
    const file = this.fileOf(source);
    file.hot ??= this.client.heat(source.toString(), [], true).then((a) => (file.knownHot = a.hot ?? []));
    return file.hot;
  }

  /** The hot step of a rollout's step when the file's hot steps are already ranked; else null. */
  knownHotStep(source: vscode.Uri, rolloutId: number, step: number): HotStep | null {
    return this.files.get(source.toString())?.knownHot?.find((h) => h.rolloutId === rolloutId && h.step === step) ?? null;
  }

  private fileOf(source: vscode.Uri): FileHeat {
    const key = source.toString();
    let file = this.files.get(key);
    if (!file) this.files.set(key, (file = { rollouts: new Map(), hot: null, knownHot: null }));
    return file;
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      for (const editor of vscode.window.visibleTextEditors) void this.paint(editor).catch((error: unknown) => this.tell(error));
    }, 50);
  }

  /** Says why the heat could not be fetched, once per reason (a repaint on every scroll would repeat it). */
  private tell(error: unknown): void {
    const text = `Token heat: ${errorText(error)}`;
    if (this.told.has(text)) return;
    this.told.add(text);
    void showInfo(text);
  }

  private clear(editor: vscode.TextEditor): void {
    for (const type of this.types) editor.setDecorations(type, []);
  }

  private async paint(editor: vscode.TextEditor): Promise<void> {
    if (!this.isOn()) return this.clear(editor);
    const ranges = editor.document.uri.scheme === ROLLOUT_VIEW_SCHEME ? await this.viewRanges(editor) : await this.rawRanges(editor);
    if (!ranges) return this.clear(editor);
    this.types.forEach((type, b) => editor.setDecorations(type, ranges[b] ?? []));
  }

  private visibleLines(editor: vscode.TextEditor): { from: number; to: number } {
    const visible = editor.visibleRanges;
    const from = Math.max(0, (visible[0]?.start.line ?? 0) - MARGIN);
    const to = Math.min(editor.document.lineCount - 1, (visible[visible.length - 1]?.end.line ?? 0) + MARGIN);
    return { from, to };
  }

  private async rawRanges(editor: vscode.TextEditor): Promise<vscode.Range[][] | undefined> {
    const analysis = this.store.get(editor.document.uri);
    if (!analysis?.summary || (analysis.version !== -1 && analysis.version !== editor.document.version)) return undefined;
    const { from, to } = this.visibleLines(editor);
    const rollouts = [];
    for (let line = from; line <= to && rollouts.length < MAX_ASKED; line++) rollouts.push(...analysis.index.onLine(line + 1));
    const heat = await this.heatOf(editor.document.uri, rollouts.map((r) => r.id));
    const ranges: vscode.Range[][] = this.types.map(() => []);
    for (const r of rollouts) {
      const runs = heat.get(r.id)?.placement;
      if (!runs?.isPlaced || !runs.rawRuns) continue;
      const raw = runs.rawRuns;
      for (let k = 0; k < raw.length; k += 3) ranges[(raw[k + 2] as number) - 1]?.push(new vscode.Range(r.line - 1, raw[k] as number, r.line - 1, raw[k + 1] as number));
    }
    return ranges;
  }

  private async viewRanges(editor: vscode.TextEditor): Promise<vscode.Range[][] | undefined> {
    const layout = this.views.layout(editor.document.uri);
    const source = layout && this.views.hitAt(editor.document.uri, editor.document.lineCount)?.source;
    if (!layout || !source) return undefined;
    const heat = await this.heatOf(source, layout.details.map((d) => d.id));
    const ranges: vscode.Range[][] = this.types.map(() => []);
    layout.rollouts.forEach((placed, i) => {
      const detail = layout.details[i];
      const placement = detail && heat.get(detail.id)?.placement;
      if (!detail || !placement?.isPlaced) return;
      const steps = placed.steps.flatMap((s) => {
        const step = detail.steps[s.step];
        return step ? [{ start: step.start, end: step.end, text: step.text, startLine: s.startLine, endLine: s.endLine }] : [];
      });
      for (const r of viewRangesOf(placement.runs, steps)) ranges[r.bucket - 1]?.push(new vscode.Range(r.startLine, r.startCharacter, r.endLine, r.endCharacter));
    });
    return ranges;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const s of this.subscriptions) s.dispose();
    for (const t of this.types) t.dispose();
  }
}
