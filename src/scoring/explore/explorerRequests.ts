/**
 * The Rollout Explorer and the Compare view answered where the analyses are kept (the analysis
 * worker): one explorer per kept analysis, built on its first query and dropped with it, so a
 * filter, a sort or a page never crosses to the extension host's thread as more than one page.
 */
import { compareSides, type Comparison } from '../../core/compare/comparison';
import { summariseForCompare } from '../../core/compare/compareSide';
import { promptSides } from '../../core/compare/promptSides';
import { figuresOf } from '../../core/rules/compareRules';
import { ruleProblems } from '../../core/rules/registry';
import type { ComparisonView, ExplorerAnswer, ExplorerCall } from '../../protocol/explorer';
import type { KeptAnalysis } from '../analysis/rolloutDetails';
import { openExplorer, type ExplorerSession } from './explorerSession';
import { exportSelection } from './exportSelection';

/** Finds a kept analysis by its document key. */
export type KeptLookup = (documentKey: string) => KeptAnalysis | undefined;

interface Session {
  kept: KeptAnalysis;
  explorer: ExplorerSession;
}

interface KeptComparison {
  a: KeptAnalysis;
  b: KeptAnalysis;
  comparison: Comparison;
}

/** Explorers and the last comparison, each valid while the analyses it was made of are the kept ones. */
export class ExplorerRequests {
  private readonly sessions = new Map<string, Session>();
  private last: (KeptComparison & { key: string }) | null = null;

  constructor(private readonly lookup: KeptLookup) {}

  /** Answers one call about `documentKey`'s analysis; throws with a message a user can read. */
  async answer(documentKey: string, call: ExplorerCall, signal: AbortSignal): Promise<ExplorerAnswer> {
    switch (call.method) {
      case 'query': {
        const { engine } = this.session(documentKey).explorer;
        const result = await engine.query(call.query, { signal });
        const page = result.rowsPage(call.offset, call.limit);
        const search = result.query.filter.search;
        const highlights = search && page.rows.length > 0 ? await engine.highlights(page.rows.map((r) => r.id), search, signal) : null;
        const note = engine.rewardColumnsNote;
        return { method: 'query', query: result.query, title: note ? `${result.title} · ${note}` : result.title, tooltip: note ? `${result.tooltip} · ${note}` : result.tooltip, page, highlights, rewardColumns: engine.rewardColumns };
      }
      case 'export': {
        const { kept, explorer } = this.session(documentKey);
        const ids = call.ids ?? (await explorer.engine.query(call.query, { signal })).ids;
        const written = await exportSelection({
          input: kept.file?.path ?? kept.disk?.path ?? call.input,
          output: call.output,
          places: explorer.engine.table,
          ids,
          fields: kept.analysis.settings.fields,
          ...(kept.file ? { analysed: kept.file } : {}),
          ...(kept.context ? { context: kept.context } : {}),
        });
        return { method: 'export', ...written };
      }
      case 'rules': {
        for (const [rule, params] of Object.entries(call.params)) {
          const problems = ruleProblems({ rule, params });
          if (problems.length > 0) throw new Error(problems.join('; '));
        }
        const comparison = await this.session(documentKey).explorer.rules.comparison(call.params, signal);
        return { method: 'rules', figures: figuresOf(comparison) };
      }
      case 'compare':
        return { method: 'compare', comparison: viewOf(this.comparison(documentKey, call.other).comparison) };
      case 'promptSides': {
        const { comparison } = this.comparison(documentKey, call.other);
        const prompt = comparison.prompts[call.index];
        if (!prompt) throw new Error(`the comparison has no prompt ${call.index + 1}`);
        const rowA = this.session(documentKey).explorer.engine.table;
        const rowB = this.session(call.other).explorer.engine.table;
        return { method: 'promptSides', sides: promptSides(prompt, (id) => rowA.row(id), (id) => rowB.row(id)) };
      }
      case 'place':
        throw new Error('a file\'s rows are opened by the editor from its analysis');
    }
  }

  /** A document's analysis was dropped or replaced. */
  forget(documentKey: string): void {
    this.sessions.get(documentKey)?.explorer.close();
    this.sessions.delete(documentKey);
  }

  private kept(documentKey: string): KeptAnalysis {
    const kept = this.lookup(documentKey);
    if (!kept) throw new Error('the file has not been analysed (open it in the editor first)');
    return kept;
  }

  private session(documentKey: string): Session {
    const kept = this.kept(documentKey);
    const known = this.sessions.get(documentKey);
    if (known && known.kept === kept) return known;
    known?.explorer.close();
    const session = { kept, explorer: openExplorer(kept) };
    this.sessions.set(documentKey, session);
    return session;
  }

  private comparison(a: string, b: string): KeptComparison {
    const keptA = this.kept(a);
    const keptB = this.kept(b);
    const key = `${a}\u0000${b}`;
    if (this.last && this.last.key === key && this.last.a === keptA && this.last.b === keptB) return this.last;
    const side = (documentKey: string, kept: KeptAnalysis) => summariseForCompare(this.session(documentKey).explorer.engine.table, kept.analysis.report.unreadableLines, { withRows: true });
    const comparison = compareSides(side(a, keptA), side(b, keptB));
    this.last = { key, a: keptA, b: keptB, comparison };
    return this.last;
  }
}

/** The comparison without its rollout ids (they stay here, for the side-by-side view). */
function viewOf(comparison: Comparison): ComparisonView {
  return { ...comparison, prompts: comparison.prompts.map(({ rowsA: _a, rowsB: _b, ...rest }) => rest) };
}
