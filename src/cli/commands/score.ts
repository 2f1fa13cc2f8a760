/**
 * `prof-lens score <file> -o <scored.jsonl> (--model <dir> | --url <endpoint>)`: every input
 * line written out with `step_scores` (one number per step, null for an unscored step; an array
 * per response for grouped lines) and `step_scores_meta`. All other fields, their order and their
 * formatting are kept, and a line that gets no scores (blank, unreadable, no rollout) is copied as
 * its bytes (invalid UTF-8 and CRLF included); an edited line keeps its terminator, and one that is
 * not valid UTF-8 is edited on its bytes. The output appears only when complete (temporary file,
 * then rename), and a Ctrl-C removes the temporary file. A JSON array (ProcessBench) is written as
 * JSONL, one element per line, each from its own text.
 *
 * The input is read once, through one descriptor, and every byte read is hashed; after each batch
 * the file must still be the one opened (same size and time), and before the output is kept the
 * whole file is hashed again: a file rewritten while it was scored (even to the same size and
 * time) is refused with exit 2 and nothing written, as `filter` refuses it.
 */
import { resolve } from 'node:path';
import type { StepScoring } from '../../core/model';
import { readLine, readText } from '../../core/read/reader';
import { prepareRecord, type PreparedRollout } from '../../core/formats/prepareRollout';
import { withStepScores, type StepScoresMeta } from '../../scoring/output/writeScored';
import { checkOutputs, openAtomicWriter } from '../../scoring/output/outputFiles';
import type { Scorer } from '../../scoring/scorers/scorer';
import { parseArgs, UsageError } from '../args';
import type { FileLine } from '../../core/read/byteLines';
import { bomLength, terminatorLength } from '../../core/read/jsonLines';
import { InputFileError, type InputFile } from '../../scoring/inputs/inputFile';
import { hashWhole, ReadHash } from '../../scoring/inputs/analysedFile';
import { readInputLines } from '../../scoring/inputs/inputLines';
import { adaptContextFor } from '../../scoring/inputs/traceTokenizer';
import type { AdaptContext } from '../../core/formats/trainers';
import { readDocument } from '../../scoring/analysis/analysePath';
import { openInput } from '../analyseFile';
import { onOneLine } from '../../core/lines/keptLines';
import { FieldPresence } from '../../core/formats/fieldPresence';
import { createModelScorer, reportEndpoints } from '../scorerOptions';
import { EXIT_OK, EXIT_UNREADABLE_LINES, type CliIo } from '../io';

const BATCH_LINES = 64;

export async function scoreCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv);
  const file = args.positionals[0];
  const output = args.values.get('-o');
  if (!file || !output) throw new UsageError('score needs a file and an output: prof-lens score <file> -o <scored.jsonl> (--model <dir> | --url <endpoint> [--scorer critic])');
  await checkOutputs([{ label: 'the input', path: resolve(io.cwd, file) }], [{ label: '-o', path: resolve(io.cwd, output) }]);
  // Refused before a model is opened: a folder (use trend), a file that is not a regular one, a binary file.
  // Opened once: every read of the input goes through this descriptor, so a file renamed over it is seen.
  const input = openInput(file, 'score', io);
  const tokenizerDir = args.settings.tokenizerDir ? resolve(io.cwd, args.settings.tokenizerDir) : null;
  const opened = await (async () => ({ context: await adaptContextFor(resolve(io.cwd, file), { tokenizerDir }), model: await createModelScorer(args, io) }))().catch((error: unknown) => {
    input.close();
    throw error;
  });
  const { context, model } = opened;
  if (!model) input.close();
  if (!model) throw new UsageError('score needs a model: --model <dir> (ONNX folder), --url <endpoint> (vLLM PRM) or --scorer critic --url <base> (chat model)');
  const writer = await openAtomicWriter(resolve(io.cwd, output)).catch(async (error: unknown) => {
    input.close();
    await model.scorer.dispose();
    throw error;
  });
  let problems = 0;
  let scored = 0;
  const said = new Set<string>();
  try {
    const read = new ReadHash();
    const meta = metaOf(model.scorer);
    const presence = new FieldPresence(args.settings.fields);
    let firstId = 0;
    const unreadable = { count: 0 };
    for await (const lines of inputLines({ file, input, io, unreadable, onChunk: read.onChunk })) {
      for (let i = 0; i < lines.length; i += BATCH_LINES) {
        // A file rewritten meanwhile stops the work at once, not after every line has been scored.
        input.checkUnchanged();
        const batch = await scoreLines(lines.slice(i, i + BATCH_LINES), { scorer: model.scorer, args, firstId, meta, io, file, presence, context, said });
        firstId += batch.rollouts;
        problems += batch.problems;
        for (const piece of batch.pieces) await (piece instanceof Uint8Array ? writer.write(piece) : copyRange(input, piece, writer));
      }
    }
    // A mapped path no record has is a mistake in the command: nothing is written.
    const missing = presence.missing();
    if (missing.length > 0) throw new UsageError(missing.map((m) => `--field ${m.role}=${m.path}: no record of ${file} has "${m.path}"`).join('\n'));
    problems += unreadable.count;
    scored = firstId;
    await checkSameBytes(input, read.digest());
    // No rollout at all: an output of copied lines would look like a scored file.
    if (scored === 0) await writer.abort();
    else await writer.commit();
  } catch (error) {
    await writer.abort();
    throw error;
  } finally {
    input.close();
    reportEndpoints(model.scorer, io);
    await model.scorer.dispose();
  }
  if (scored === 0) {
    io.stderr(`${file}: no readable rollout${problems > 0 ? ` (${problems} unreadable line${problems === 1 ? '' : 's'}, see above)` : ''}; no step scores written\n`);
    return EXIT_UNREADABLE_LINES;
  }
  io.stderr(`${file}: step scores written to ${output}\n`);
  return problems > 0 ? EXIT_UNREADABLE_LINES : EXIT_OK;
}

/**
 * The input as lines: a JSONL file streamed with each line's bytes; a parquet file's rows, each a
 * line of JSON; a JSON array (ProcessBench) read whole, each element on one line from its own text
 * (tokens as written: `onOneLine`), so the output is JSONL with one element per line (`eval`
 * reads it back).
 */
async function* inputLines(from: { file: string; input: InputFile; io: CliIo; unreadable: { count: number }; onChunk: (bytes: Uint8Array) => void }): AsyncGenerator<FileLine[]> {
  const { file, input, io, unreadable, onChunk } = from;
  const kind = input.kind();
  if (kind !== 'json') {
    yield* readInputLines(file, { input, kind, keepBytes: true, onChunk });
    return;
  }
  const read = readText(readDocument(input, onChunk), file);
  for (const d of read.diagnostics) {
    if (d.severity === 'error') unreadable.count++;
    io.stderr(`${file}:${d.line}: ${d.message} (left out: a JSON array element cannot be copied as a line)\n`);
  }
  yield read.records.map((r) => {
    const raw = onOneLine(r.raw);
    return { line: r.line, raw, terminated: true, byteStart: 0, byteEnd: 0, bytes: Buffer.from(`${raw}\n`) };
  });
}

/** Refuses when the file now holds other bytes than the ones scored (rewritten in place, even to the same size and time). */
async function checkSameBytes(input: InputFile, scored: string): Promise<void> {
  input.checkUnchanged();
  if ((await hashWhole(input)) !== scored) {
    throw new InputFileError(`${input.path} changed while it was being scored (its bytes are not the ones scored): nothing was written; run again on a file that is not being written to`);
  }
}

function metaOf(scorer: Scorer): StepScoresMeta {
  const info = scorer.info;
  const meta: StepScoresMeta = { scorer: info.kind };
  if (info.model) meta.model = info.model;
  if (info.profile) meta.profile = info.profile;
  if (info.provider) meta.provider = info.provider;
  if (scorer.modelIdentity) meta.identity = scorer.modelIdentity;
  return meta;
}

interface BatchContext {
  scorer: Scorer;
  args: ReturnType<typeof parseArgs>;
  firstId: number;
  meta: StepScoresMeta;
  io: CliIo;
  file: string;
  /** Which paths of the field mapping some record has. */
  presence: FieldPresence;
  /** What the records need beyond the file (the tokenizer of token-id traces). */
  context: AdaptContext;
  /** Codes of the problems already reported. */
  said: Set<string>;
}

/** What to write for a line: bytes, or (for a line over the length limit, never held) its byte range in the input. */
type Piece = Uint8Array | { start: number; end: number };

/** Score a batch of lines; unreadable lines are copied unchanged (and reported), never dropped. */
async function scoreLines(lines: readonly FileLine[], ctx: BatchContext): Promise<{ pieces: Piece[]; rollouts: number; problems: number }> {
  const perLine: { line: FileLine; rollouts: PreparedRollout[] | null; slots?: number }[] = [];
  let id = ctx.firstId;
  let problems = 0;
  const reads = lines.map((line) => ({ line, read: readLine(line) }));
  // Token ids are decoded first (in the tokenizer's worker): adapting a record is synchronous.
  await ctx.context.decoder?.prepare?.(reads.flatMap(({ read }) => (read.kind === 'record' ? [read.record] : [])));
  for (const { line, read } of reads) {
    if (read.kind !== 'record') {
      if (read.kind === 'bad') {
        problems++;
        ctx.io.stderr(`${ctx.file}:${line.line}: ${read.diagnostic.message} (copied unchanged)\n`);
      }
      perLine.push({ line, rollouts: null });
      continue;
    }
    ctx.presence.observe(read.record.value);
    const prepared = prepareRecord(read.record, { settings: ctx.args.settings, rawOffsets: false, firstId: id, context: ctx.context });
    id += prepared.rollouts.length;
    const errors = prepared.diagnostics.filter((d) => d.severity === 'error');
    if (prepared.rollouts.length === 0 && errors.length > 0) problems++;
    // One message per kind of problem: a missing tokenizer would otherwise be said on every line.
    for (const d of errors) {
      if (ctx.said.has(d.code)) continue;
      ctx.said.add(d.code);
      ctx.io.stderr(`${ctx.file}:${line.line}: ${d.message} (copied unchanged)\n`);
    }
    perLine.push({ line, rollouts: prepared.rollouts.length ? prepared.rollouts : null, slots: responseSlots(read.record.value) });
  }
  const all = perLine.flatMap((p) => p.rollouts ?? []);
  const scorings = await ctx.scorer.score(all.map((p) => ({ id: p.rollout.id, prompt: p.rollout.prompt, steps: p.steps.map((s) => s.text) })));
  const byId = new Map(all.map((p, i) => [p.rollout.id, scorings[i]!]));
  const pieces = perLine.map(({ line, rollouts, slots }): Piece => {
    if (!line.bytes) return { start: line.byteStart, end: line.byteEnd };
    return rollouts ? scoredLineBytes(line, line.bytes, (raw) => scoredLine(raw, { rollouts, slots: slots ?? 0 }, byId, ctx.meta)) : line.bytes;
  });
  return { pieces, rollouts: id - ctx.firstId, problems };
}

/**
 * An edited line as bytes: the edit made on the decoded text (valid UTF-8) or on the bytes one
 * character each (otherwise: JSON's structure is ASCII, and what is written in is ASCII too), with
 * the line's own BOM and terminator.
 */
function scoredLineBytes(line: FileLine, lineBytes: Uint8Array, edit: (raw: string) => string): Buffer {
  const bytes = Buffer.from(lineBytes.buffer, lineBytes.byteOffset, lineBytes.byteLength);
  const bom = line.byteStart === 0 ? bomLength(bytes) : 0;
  const n = bytes.length;
  const terminator = terminatorLength(bytes);
  const body = line.invalidUtf8 ? Buffer.from(edit(bytes.toString('latin1', bom, n - terminator)), 'latin1') : Buffer.from(edit(line.raw), 'utf8');
  return Buffer.concat([bytes.subarray(0, bom), body, bytes.subarray(n - terminator)]);
}

/** Copies `range` of the input to `writer`, a megabyte at a time. */
async function copyRange(input: InputFile, range: { start: number; end: number }, writer: { write(data: Uint8Array): Promise<void> }): Promise<void> {
  const chunk = Buffer.allocUnsafe(1 << 20);
  for (let at = range.start; at < range.end;) {
    const read = input.read(chunk, 0, Math.min(chunk.length, range.end - at), at);
    if (read === 0) throw new Error(`${input.path} got shorter while it was being scored`);
    await writer.write(Buffer.from(chunk.subarray(0, read)));
    at += read;
  }
}

/**
 * How many entries a record's per-response lists hold: a prime-rl episode has one per trace, an
 * errored trace (no nodes, no rollout) included, since its readers take `step_scores[i]` for
 * `traces[i]`. 0 for other records (their responses are their rollouts, in order).
 */
function responseSlots(value: unknown): number {
  const traces = (value as { traces?: unknown } | null)?.traces;
  return Array.isArray(traces) ? traces.length : 0;
}

function scoredLine(raw: string, on: { rollouts: PreparedRollout[]; slots: number }, byId: Map<number, StepScoring>, meta: StepScoresMeta): string {
  const { rollouts } = on;
  const scoresOf = (p: PreparedRollout): (number | null)[] | null => {
    const s = byId.get(p.rollout.id);
    return s && s.kind === 'scored' ? s.scores : null;
  };
  // A record of several responses gets a list per response (an episode of one trace too: it is read back by trace).
  const isGrouped = rollouts.length > 1 || rollouts[0]!.rollout.format === 'grouped' || rollouts[0]!.rollout.format === 'prime-rl';
  if (!isGrouped) return withStepScores(raw, scoresOf(rollouts[0]!) ?? rollouts[0]!.steps.map(() => null), meta);
  // Each list goes where the readers look for it: at the rollout's own index (a trace's index in
  // `traces`), the slots without a rollout (errored traces) null.
  let length = rollouts[0]!.rollout.format === 'prime-rl' ? on.slots : 0;
  for (const p of rollouts) length = Math.max(length, p.rollout.index + 1);
  const lists: ((number | null)[] | null)[] = new Array<null>(length).fill(null);
  for (const p of rollouts) lists[p.rollout.index] = scoresOf(p);
  return withStepScores(raw, lists, meta);
}
