/**
 * The Rollout Explorer where an analysis is kept (the editor's analysis worker, a command): its
 * table built once, its texts from wherever the analysis has them (in memory; read back from the
 * JSONL file by byte ranges and kept, within the process's budget, for the searches after the
 * first; a JSON document read whole), and exports of a selection from the file it read.
 */
import type { FieldRole } from '../../core/profSettings';
import { buildExplorerTable } from '../../core/explore/explorerTable';
import { ExplorerEngine } from '../../core/explore/explorerEngine';
import { memoryTexts, type RolloutTextSource } from '../../core/explore/textSearch';
import type { KeptAnalysis } from '../analysis/rolloutDetails';
import { diskTexts, documentTexts } from './diskTexts';
import { cachedTexts, processTextBudget, type CachedTextSource, type TextBudget } from './cachedTexts';
import { exportSelection, type ExportedSelection } from './exportSelection';
import { KeptRules } from './keptRules';

/** An explorer over one kept analysis. */
export interface ExplorerSession {
  engine: ExplorerEngine;
  /** The curation rules over the analysis (the Compare Rules view; the engine's `disagree` filter). */
  rules: KeptRules;
  /** Writes the selected rollouts' lines to `output` (atomic; never over the input). */
  exportSelection(ids: Iterable<number>, output: string): Promise<ExportedSelection>;
  /** The texts kept from disk, when the analysis read its file from disk (null otherwise). */
  readonly keptTexts: CachedTextSource | null;
  /** The explorer is let go: its kept texts give their memory back. */
  close(): void;
}

export interface ExplorerOptions {
  /** What texts kept from disk draw from (default: the process's). */
  textBudget?: TextBudget;
  /** Files whose rollout lines span at most this many bytes have their texts read in ahead of the first search (default `WARM_TEXT_BYTES`). */
  warmTextBytes?: number;
}

/**
 * A file this small (16 MiB of rollout lines) has its texts read in and kept as soon as its
 * explorer opens, a chunk at a time between the requests, so the first search runs over texts in
 * memory as the later ones do; a larger file's texts are kept by its first search, as before.
 */
export const WARM_TEXT_BYTES = 16 * 1024 * 1024;

/**
 * The explorer of `kept`. `path`: the file the analysis read, when it read one from disk (its
 * texts and bytes are read back from there); absent for editor text, whose texts the analysis kept.
 */
export function openExplorer(kept: KeptAnalysis, path?: string, options: ExplorerOptions = {}): ExplorerSession {
  const table = buildExplorerTable(kept.analysis);
  const fields: Partial<Record<FieldRole, string>> = kept.analysis.settings.fields;
  const file = kept.file?.path ?? kept.disk?.path ?? path;
  const context = kept.context ?? {};
  let texts: RolloutTextSource;
  let keptTexts: CachedTextSource | null = null;
  if (kept.disk) texts = keptTexts = cachedTexts(diskTexts(kept.disk.path, kept.disk.lines, table, { fields, context }), table.count, options.textBudget ?? processTextBudget);
  else if (path && /\.json$/i.test(path)) texts = documentTexts(path, fields);
  else texts = memoryTexts(kept.analysis.rollouts);
  const rules = new KeptRules(kept.analysis, texts);
  const warming = new AbortController();
  if (keptTexts && kept.disk && kept.disk.lines.byteSpan <= (options.warmTextBytes ?? WARM_TEXT_BYTES)) warm(keptTexts, warming.signal);
  return {
    engine: new ExplorerEngine(table, texts, (d, signal) => rules.disagreement(d, signal)),
    rules,
    keptTexts,
    close: () => {
      warming.abort();
      keptTexts?.release();
    },
    exportSelection(ids, output) {
      if (!file) return Promise.reject(new Error('this analysis is of the editor\'s text, not of a file on disk: the editor exports its selection from the document'));
      return exportSelection({ input: file, output, places: table, ids, fields, context, ...(kept.file ? { analysed: kept.file } : {}) });
    },
  };
}

/**
 * Reads a file's texts into its cache after the request that opened the explorer has been
 * answered (a macrotask later); a search meanwhile reads the disk itself, as a first search always
 * did. A failure here (the file gone) is the next search's to report.
 */
function warm(texts: CachedTextSource, signal: AbortSignal): void {
  setImmediate(() => {
    void (async () => {
      for await (const _chunk of texts.chunks(signal)) {
        // Only read through: the cache keeps what it reads.
      }
    })().catch(() => undefined);
  });
}
