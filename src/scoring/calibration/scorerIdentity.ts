/**
 * Which scorer identity a calibration belongs to, decided before an analysis runs (the threshold
 * is one of its settings): a model's identity as the score cache knows it, `checker` for the
 * embedded checker, and for scores already in a file the model `step_scores_meta` names (`prof-lens
 * score` writes the model's identity there), `--model-name`, or `file:unnamed`.
 */
import type { ScorerChoice } from '../../core/scorerChoice';
import { readLine, readText } from '../../core/read/reader';
import { recordStepScores } from '../../core/formats/stepScoreFields';
import type { Json } from '../../core/formats/fields';
import type { Scorer } from '../scorers/scorer';
import { readInputLines } from '../inputs/inputLines';
import { splitLines } from '../../core/read/jsonLines';
import { checkRegularFile } from '../inputs/inputFile';

/** Records looked at to learn whether a file carries scores and from which model. */
const PEEK_RECORDS = 64;
/** A `.json` document is read whole to peek only below this size. */
const PEEK_JSON_BYTES = 64 * 1024 * 1024;

/** What the first records of a file say about the scores they carry. */
export interface ScoresPeek {
  hasScores: boolean;
  /** `step_scores_meta.identity`, else `file:<scorer>:<model>` when the meta names a model; null otherwise. */
  identity: string | null;
}

function metaIdentity(record: Json): string | null {
  const meta = record.step_scores_meta as Json | undefined;
  if (!meta || typeof meta !== 'object') return null;
  if (typeof meta.identity === 'string' && meta.identity !== '') return meta.identity.slice(0, 200);
  if (typeof meta.model === 'string' && meta.model !== '') return `file:${String(meta.scorer ?? '')}:${meta.model}`.slice(0, 200);
  return null;
}

function looker(peek: ScoresPeek): (value: unknown) => void {
  return (value) => {
    const record = value as Json;
    const responses = Array.isArray(record.responses) ? record.step_scores : null;
    if (recordStepScores(record) !== null || Array.isArray(responses)) peek.hasScores = true;
    peek.identity ??= metaIdentity(record);
  };
}

/** `peekFileScores` for a document's text (the editor's, unsaved): its first records only. */
export function peekTextScores(text: string, fileName: string): ScoresPeek {
  const peek: ScoresPeek = { hasScores: false, identity: null };
  const look = looker(peek);
  if (/\.json$/i.test(fileName)) {
    if (text.length <= PEEK_JSON_BYTES) for (const record of readText(text, fileName).records.slice(0, PEEK_RECORDS)) look(record.value);
    return peek;
  }
  // Lines, not records, are counted: a text of blank or broken lines is looked at no further.
  for (const line of splitLines(text)) {
    if (line.line > PEEK_RECORDS) break;
    const read = readLine(line);
    if (read.kind === 'record') look(read.record.value);
  }
  return peek;
}

/** Looks at the first records of `path` for step scores and the model that made them. */
export async function peekFileScores(path: string): Promise<ScoresPeek> {
  const peek: ScoresPeek = { hasScores: false, identity: null };
  const look = looker(peek);
  // Only a regular file is looked at (a device never ends; readFileLines checks the same).
  checkRegularFile(path);
  if (/\.json$/i.test(path)) {
    // Loaded here: reading JSON Lines, a command starts without `node:fs/promises`.
    const { readFile, stat } = require('node:fs/promises') as typeof import('node:fs/promises');
    if ((await stat(path)).size > PEEK_JSON_BYTES) return peek;
    for (const record of readText(await readFile(path, 'utf8'), path).records.slice(0, PEEK_RECORDS)) look(record.value);
    return peek;
  }
  let seen = 0;
  // Parquet rows are looked at as lines; a binary file is refused here with its one message.
  for await (const lines of readInputLines(path)) {
    for (const line of lines) {
      const read = readLine(line);
      if (read.kind !== 'record') continue;
      look(read.record.value);
      if (++seen >= PEEK_RECORDS) return peek;
    }
  }
  return peek;
}

/** What the identity is decided from. */
export interface IdentityInput {
  scorer: ScorerChoice;
  /** The model scorer opened for this run, if any. */
  model?: Scorer;
  /** What the input file says about its scores (null when not looked at). */
  peek: ScoresPeek | null;
  /** `--model-name`: names the model behind scores in a file. */
  modelName?: string;
}

/** The identity whose calibration applies, and whether it is the checker; null identity when unknown (a model without a cache). */
export function scorerIdentity(input: IdentityInput): { identity: string | null; kind: 'checker' | 'file' | 'model' } {
  const usesFile = input.scorer === 'file' || (input.scorer === 'auto' && input.peek?.hasScores === true);
  if (usesFile) {
    const named = input.modelName ? `file:${input.modelName}` : null;
    return { identity: named ?? input.peek?.identity ?? 'file:unnamed', kind: 'file' };
  }
  if (input.model) return { identity: input.model.modelIdentity ?? null, kind: 'model' };
  return { identity: 'checker', kind: 'checker' };
}
