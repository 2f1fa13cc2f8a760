/**
 * Exporting from a panel or a command: ask where to save, take the decisions again when what-if
 * settings are given, write the kept rollouts or the decision lines. The input is never written:
 * a target that is the source file under any name (a symlink, a hard link) is refused, and files
 * are written atomically by the same writer as `prof-lens filter`.
 */
import * as vscode from 'vscode';
import { resolveSettings, type ProfSettings } from '../../core/profSettings';
import type { RolloutSummary } from '../../protocol/analysis';
import type { DecisionFormat, ExportResult, WhatIfSettings } from '../../protocol/panel';
import { checkOutputs, writeFileAtomic } from '../../scoring/output/outputFiles';
import type { AnalysisStore } from '../analysisStore';
import { decideFile, decisionsCsv, decisionsJsonl, keptBytes, keptRowBytes } from './exportFiles';
import { InputFile } from '../../scoring/inputs/inputFile';
import { parquetLines } from '../../scoring/inputs/parquetRows';

/** A parquet file's rows as lines of JSON, read from disk (a parquet file is never an edited document). */
async function parquetRowLines(path: string): Promise<{ line: number; raw: string }[]> {
  const input = InputFile.open(path);
  try {
    return await parquetLines(input);
  } finally {
    input.close();
  }
}

/** Which export, of which file, under which settings (null: as analysed). */
export interface ExportJob {
  source: vscode.Uri;
  settings: WhatIfSettings | null;
  /** `kept`, or decisions in a format; `auto` picks the format from the chosen file name. */
  what: 'kept' | DecisionFormat | 'auto';
}

type Store = Pick<AnalysisStore, 'get'>;

function defaultTarget(source: vscode.Uri, what: ExportJob['what']): vscode.Uri | undefined {
  if (source.scheme !== 'file') return undefined;
  const stem = source.path.replace(/\.[^./]*$/, '');
  const suffix = what === 'kept' ? '.kept.jsonl' : what === 'csv' ? '.decisions.csv' : '.decisions.jsonl';
  return source.with({ path: stem + suffix });
}

function filters(what: ExportJob['what']): Record<string, string[]> {
  if (what === 'kept') return { 'JSON Lines': ['jsonl'] };
  if (what === 'csv') return { CSV: ['csv'] };
  if (what === 'jsonl') return { 'JSON Lines': ['jsonl'] };
  return { 'JSON Lines': ['jsonl'], CSV: ['csv'] };
}

/** The file's text as it was analysed: the open document when it is edited, else the file on disk. */
async function sourceBytes(source: vscode.Uri, analysedVersion: number): Promise<Uint8Array | string> {
  const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === source.toString());
  if (analysedVersion !== -1 && document && document.version !== analysedVersion) {
    return 'the file changed since it was analysed; try again when the analysis has caught up';
  }
  if (document && (document.isDirty || source.scheme !== 'file')) return new TextEncoder().encode(document.getText());
  return vscode.workspace.fs.readFile(source);
}

interface Analysed {
  rollouts: readonly RolloutSummary[];
  version: number;
  /** The field mapping the analysis used: the arrays it read are the ones trimmed. */
  fields: ProfSettings['fields'];
}

async function contents(job: ExportJob, analysed: Analysed, target: vscode.Uri): Promise<{ bytes: Uint8Array; lines: number } | string> {
  const { rollouts } = analysed;
  if (job.what === 'kept') {
    // A parquet file has no lines to copy: its kept rows are written as lines of JSON, as `filter` writes them.
    if (/\.parquet$/i.test(job.source.path) && job.source.scheme === 'file') return keptRowBytes(await parquetRowLines(job.source.fsPath), rollouts, analysed.fields);
    const bytes = await sourceBytes(job.source, analysed.version);
    return typeof bytes === 'string' ? bytes : keptBytes(bytes, rollouts, job.source.path, analysed.fields);
  }
  const format = job.what === 'auto' ? (/\.csv$/i.test(target.path) ? 'csv' : 'jsonl') : job.what;
  const text = format === 'csv' ? decisionsCsv(rollouts) : decisionsJsonl(rollouts);
  return { bytes: new TextEncoder().encode(text), lines: rollouts.length };
}

/** Runs an export end to end; the result says what happened, in words for the panel. */
export async function runExport(store: Store, job: ExportJob): Promise<ExportResult> {
  const analysis = store.get(job.source);
  if (!analysis?.summary) return { status: 'failed', message: 'the file has not been analysed yet' };
  const target = await vscode.window.showSaveDialog({
    defaultUri: defaultTarget(job.source, job.what),
    filters: filters(job.what),
    title: job.what === 'kept' ? 'Save the rollouts PROF keeps' : 'Save PROF decisions',
  });
  if (!target) return { status: 'cancelled' };
  if (target.toString() === job.source.toString()) return { status: 'failed', message: 'the output must not be the input file (the input is never modified)' };
  try {
    if (target.scheme === 'file' && job.source.scheme === 'file') {
      await checkOutputs([{ label: 'the rollout file', path: job.source.fsPath }], [{ label: 'the chosen file', path: target.fsPath }]);
    }
    const analysed = analysis.index.all;
    const rollouts = job.settings ? decideFile(analysed, resolveSettings({ ...analysis.summary.settings, ...job.settings })) : analysed;
    const output = await contents(job, { rollouts, version: analysis.version, fields: analysis.summary.settings.fields }, target);
    if (typeof output === 'string') return { status: 'failed', message: output };
    if (target.scheme === 'file') await writeFileAtomic(target.fsPath, output.bytes);
    else await vscode.workspace.fs.writeFile(target, output.bytes);
    return { status: 'saved', path: target.scheme === 'file' ? target.fsPath : target.toString(), lines: output.lines };
  } catch (error) {
    return { status: 'failed', message: error instanceof Error ? error.message : String(error) };
  }
}
