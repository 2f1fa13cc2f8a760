/**
 * The Problems panel: suspected false positives (warning, with the rules that fired and their
 * evidence), unreadable lines (error), penalised step counts (information), and the reader's other
 * findings. False positives come strongest first (the cap on entries keeps those) and say their
 * strength. Each entry's range is its evidence, not the whole record: the weakest step's span,
 * else the end of the line where the summary is shown, so a long grouped line gets one short
 * squiggle per finding. Each rollout entry points to its group in one line (the panel has the rest).
 */
import * as vscode from 'vscode';
import type { Diagnostic as FileDiagnostic } from '../core/model';
import type { RolloutSummary } from '../protocol/analysis';
import type { AnalysisStore, DocumentAnalysis } from './analysisStore';
import { penaltyText } from '../core/presentation/penaltyWords';
import { falsePositiveRulesText } from '../core/presentation/reasonWords';
import { formatScore } from '../core/presentation/numbers';
import { namesResponse, responseWords } from '../core/presentation/locationWords';
import { strongestFirst } from '../core/rules/flagStrength';
import { groupPointerText } from './problemsText';

/** Delay before publishing, so the event loop serves other work between painting and this. */
const PUBLISH_DELAY_MS = 60;

/** Rollouts examined between yields to the event loop (fewer when they yield many problems). */
const YIELD_EVERY = 2_000;

/** Problems per diagnostic collection, each collection set in its own turn of the event loop. */
const PER_COLLECTION = 50;

const SEVERITY: Record<FileDiagnostic['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

/** Lets the event loop serve other work (the editor's requests, timers) before going on. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * One file's problems spread over collections of PER_COLLECTION entries. The editor serialises a
 * collection's whole list for a file, related locations included, in one go on the extension
 * host's thread (500 problems held it 25–40 ms); set one collection per turn, no turn is long. The
 * Problems panel and the editor merge collections, so the user sees one list.
 */
class SlicedProblems implements vscode.Disposable {
  private readonly collections: vscode.DiagnosticCollection[] = [];

  /** Sets a file's problems a collection at a time; stops when `isCurrent` says a newer list replaces them. */
  async set(uri: vscode.Uri, problems: readonly vscode.Diagnostic[], isCurrent: () => boolean): Promise<void> {
    const slices = Math.ceil(problems.length / PER_COLLECTION);
    for (let i = 0; i < slices; i++) {
      await nextTurn();
      if (!isCurrent()) return;
      this.at(i).set(uri, problems.slice(i * PER_COLLECTION, (i + 1) * PER_COLLECTION));
    }
    for (const collection of this.collections.slice(slices)) collection.delete(uri);
  }

  delete(uri: vscode.Uri): void {
    for (const collection of this.collections) collection.delete(uri);
  }

  dispose(): void {
    for (const collection of this.collections) collection.dispose();
  }

  private at(i: number): vscode.DiagnosticCollection {
    // Each collection needs its own name: the editor keeps one list per name and file.
    while (this.collections.length <= i) {
      const n = this.collections.length;
      this.collections.push(vscode.languages.createDiagnosticCollection(n === 0 ? 'PROF Lens' : `PROF Lens ${n + 1}`));
    }
    return this.collections[i] as vscode.DiagnosticCollection;
  }
}

/** Publishes each analysed document's problems; owns the diagnostic collections. */
export class ProblemsPublisher implements vscode.Disposable {
  private readonly collection = new SlicedProblems();
  private readonly subscription: vscode.Disposable;
  private readonly generations = new Map<string, number>();

  constructor(
    store: AnalysisStore,
    private readonly maxProblems: () => number,
  ) {
    this.subscription = store.onDidUpdate((update) => {
      if (!update.isFinal) return;
      // After the decorations and the overview ruler: Problems can wait, the visible lines cannot.
      setTimeout(() => {
        const analysis = store.get(update.uri);
        if (analysis) {
          void this.publish(analysis);
          return;
        }
        // A publish still under way for this file stops before its next slice.
        const key = update.uri.toString();
        this.generations.set(key, (this.generations.get(key) ?? 0) + 1);
        this.collection.delete(update.uri);
      }, PUBLISH_DELAY_MS);
    });
  }

  dispose(): void {
    this.subscription.dispose();
    this.collection.dispose();
  }

  /** Builds the problems a slice at a time, yielding between slices; a newer analysis abandons it. */
  private async publish(analysis: DocumentAnalysis): Promise<void> {
    const { summary, index, uri } = analysis;
    const key = uri.toString();
    const generation = (this.generations.get(key) ?? 0) + 1;
    this.generations.set(key, generation);
    // Only rollout files (or files the user asked for) are analysed: their problems are all shown,
    // even when no rollout could be read (that is what the user needs to know then).
    if (!summary) {
      this.collection.delete(uri);
      return;
    }
    const max = this.maxProblems();
    const problems: vscode.Diagnostic[] = summary.diagnostics.slice(0, max).map((d) => fromFile(d));
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
    const rollouts = index.all;
    const isCurrent = (): boolean => this.generations.get(key) === generation;
    let examined = 0;
    let built = problems.length;
    // Suspected false positives first, strongest evidence first: those are the ones the cap keeps.
    const flags = strongestFirst(rollouts);
    for (let i = 0; i < flags.length && problems.length < max; i++) {
      problems.push(this.falsePositive(analysis, flags[i] as RolloutSummary, document));
      if (++examined >= YIELD_EVERY || problems.length - built >= PER_COLLECTION) {
        examined = 0;
        built = problems.length;
        await nextTurn();
        if (!isCurrent()) return;
      }
    }
    for (let i = 0; i < rollouts.length && problems.length < max; i++) {
      const rollout = rollouts[i] as RolloutSummary;
      if (rollout.decision.penalised) problems.push(this.penalised(analysis, rollout, document));
      // A file dense with problems fills a collection's worth long before YIELD_EVERY rollouts.
      if (++examined >= YIELD_EVERY || problems.length - built >= PER_COLLECTION) {
        examined = 0;
        built = problems.length;
        await nextTurn();
        if (!isCurrent()) return;
      }
    }
    await this.collection.set(uri, problems.slice(0, max), isCurrent);
  }

  private falsePositive(analysis: DocumentAnalysis, rollout: RolloutSummary, document: vscode.TextDocument | undefined): vscode.Diagnostic {
    const evidence = rollout.falsePositive.evidence;
    const step = evidence?.weakestStep?.step ?? evidence?.lowStep?.step ?? null;
    const span = step === null ? undefined : rollout.rawSteps?.[step];
    const range = span
      ? new vscode.Range(rollout.line - 1, span.start, rollout.line - 1, span.end)
      : summaryRange(rollout.line, document);
    const count = analysis.index.onLine(rollout.line).length;
    const where = namesResponse({ index: rollout.index, count }) ? ` (${responseWords({ index: rollout.index, count })})` : '';
    const problem = new vscode.Diagnostic(
      range,
      `Suspected false positive${where}: ${rollout.evidence ?? 'correct answer'} (${falsePositiveRulesText(rollout.falsePositive.rules)}) · strength ${formatScore(rollout.falsePositive.strength?.value)}`,
      vscode.DiagnosticSeverity.Warning,
    );
    problem.code = rollout.falsePositive.rules[0] ?? 'false-positive';
    problem.source = 'PROF Lens';
    problem.relatedInformation = related(analysis, rollout);
    return problem;
  }

  private penalised(analysis: DocumentAnalysis, rollout: RolloutSummary, document: vscode.TextDocument | undefined): vscode.Diagnostic {
    const settings = analysis.summary?.settings;
    const text = settings ? penaltyText(rollout.decision, settings) : `H = ${rollout.decision.steps}`;
    const problem = new vscode.Diagnostic(
      summaryRange(rollout.line, document),
      `Step-count penalty: ${text}; PROF ranks this rollout last in its group`,
      vscode.DiagnosticSeverity.Information,
    );
    problem.code = 'step-penalty';
    problem.source = 'PROF Lens';
    problem.relatedInformation = related(analysis, rollout);
    return problem;
  }
}

function lineRange(line: number): vscode.Range {
  return new vscode.Range(line - 1, 0, line - 1, 0);
}

/** Where the end-of-line summary sits: an empty range after the line's last character. */
function summaryRange(line: number, document: vscode.TextDocument | undefined): vscode.Range {
  if (!document || line > document.lineCount) return lineRange(line);
  const end = document.lineAt(line - 1).range.end;
  return new vscode.Range(end, end);
}

function fromFile(d: FileDiagnostic): vscode.Diagnostic {
  const range = new vscode.Range(d.line - 1, d.start ?? 0, d.line - 1, d.end ?? d.start ?? 0);
  const problem = new vscode.Diagnostic(range, d.message, SEVERITY[d.severity]);
  problem.code = d.code;
  problem.source = 'PROF Lens';
  return problem;
}

/** One line pointing at the group (at its first other member's line); the group panel lists them all. */
function related(analysis: DocumentAnalysis, rollout: RolloutSummary): vscode.DiagnosticRelatedInformation[] {
  const group = analysis.index.group(rollout.group);
  const text = groupPointerText(group);
  const other = group.find((r) => r.id !== rollout.id);
  return text && other ? [new vscode.DiagnosticRelatedInformation(new vscode.Location(analysis.uri, lineRange(other.line)), text)] : [];
}
