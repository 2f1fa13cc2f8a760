/**
 * `prof-lens score <file> -o <scored.jsonl> (--model <dir> | --url <endpoint>)`: every input
 * line written out with `step_scores` (one number per step, null for an unscored step; an array
 * per response for grouped lines) and `step_scores_meta`. All other fields, their order and their
 * formatting are kept; the output appears only when complete (temporary file, then rename). A JSON
 * array (ProcessBench) is written as JSONL, one element per line.
 */
import { resolve } from 'node:path';
import type { StepScoring } from '../../core/model';
import { readFile } from 'node:fs/promises';
import { readLine, readText } from '../../core/reader';
import { prepareRecord, type PreparedRollout } from '../../core/prepare';
import { withStepScores, type StepScoresMeta } from '../../scoring/writeScored';
import { checkOutputs, openAtomicWriter } from '../../scoring/outputFiles';
import type { Scorer } from '../../scoring/scorer';
import { parseArgs, UsageError } from '../args';
import { readFileLines, type FileLine } from '../../scoring/fileLines';
import { createModelScorer, reportEndpoints } from '../scorerOptions';
import { EXIT_OK, EXIT_UNREADABLE_LINES, type CliIo } from '../io';

const BATCH_LINES = 64;

export async function scoreCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv);
  const file = args.positionals[0];
  const output = args.values.get('-o');
  if (!file || !output) throw new UsageError('score needs a file and an output: prof-lens score <file> -o <scored.jsonl> (--model <dir> | --url <endpoint> [--scorer critic])');
  await checkOutputs([{ label: 'the input', path: resolve(io.cwd, file) }], [{ label: '-o', path: resolve(io.cwd, output) }]);
  const model = await createModelScorer(args, io);
  if (!model) throw new UsageError('score needs a model: --model <dir> (ONNX folder), --url <endpoint> (vLLM PRM) or --scorer critic --url <base> (chat model)');
  const writer = await openAtomicWriter(resolve(io.cwd, output)).catch(async (error: unknown) => {
    await model.scorer.dispose();
    throw error;
  });
  let problems = 0;
  try {
    const meta = metaOf(model.scorer);
    let firstId = 0;
    const unreadable = { count: 0 };
    for await (const lines of inputLines(file, io, unreadable)) {
      for (let i = 0; i < lines.length; i += BATCH_LINES) {
        const batch = await scoreLines(lines.slice(i, i + BATCH_LINES), { scorer: model.scorer, args, firstId, meta, io, file });
        firstId += batch.rollouts;
        problems += batch.problems;
        await writer.write(batch.text);
      }
    }
    problems += unreadable.count;
    await writer.commit();
  } catch (error) {
    await writer.abort();
    throw error;
  } finally {
    reportEndpoints(model.scorer, io);
    await model.scorer.dispose();
  }
  io.stderr(`${file}: step scores written to ${output}\n`);
  return problems > 0 ? EXIT_UNREADABLE_LINES : EXIT_OK;
}

/**
 * The input as lines: a JSONL file streamed; a JSON array (ProcessBench) read whole, each element
 * compacted onto one line, so the output is JSONL with one element per line (`eval` reads it back).
 */
async function* inputLines(file: string, io: CliIo, unreadable: { count: number }): AsyncGenerator<FileLine[]> {
  if (!/\.json$/i.test(file)) {
    yield* readFileLines(file);
    return;
  }
  const read = readText(await readFile(file, 'utf8'), file);
  for (const d of read.diagnostics) {
    if (d.severity === 'error') unreadable.count++;
    io.stderr(`${file}:${d.line}: ${d.message} (left out: a JSON array element cannot be copied as a line)\n`);
  }
  yield read.records.map((r) => ({ line: r.line, raw: JSON.stringify(r.value), terminated: true, byteStart: 0, byteEnd: 0 }));
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
}

/** Score a batch of lines; unreadable lines are copied unchanged (and reported), never dropped. */
async function scoreLines(lines: readonly FileLine[], ctx: BatchContext): Promise<{ text: string; rollouts: number; problems: number }> {
  const perLine: { line: FileLine; rollouts: PreparedRollout[] | null }[] = [];
  let id = ctx.firstId;
  let problems = 0;
  for (const line of lines) {
    const read = readLine(line);
    if (read.kind !== 'record') {
      if (read.kind === 'bad') {
        problems++;
        ctx.io.stderr(`${ctx.file}:${line.line}: ${read.diagnostic.message} (copied unchanged)\n`);
      }
      perLine.push({ line, rollouts: null });
      continue;
    }
    const prepared = prepareRecord(read.record, { settings: ctx.args.settings, rawOffsets: false, firstId: id });
    id += prepared.rollouts.length;
    perLine.push({ line, rollouts: prepared.rollouts.length ? prepared.rollouts : null });
  }
  const all = perLine.flatMap((p) => p.rollouts ?? []);
  const scorings = await ctx.scorer.score(all.map((p) => ({ id: p.rollout.id, prompt: p.rollout.prompt, steps: p.steps.map((s) => s.text) })));
  const byId = new Map(all.map((p, i) => [p.rollout.id, scorings[i]!]));
  const text = perLine.map(({ line, rollouts }) => (rollouts ? scoredLine(line.raw, rollouts, byId, ctx.meta) : line.raw) + '\n').join('');
  return { text, rollouts: id - ctx.firstId, problems };
}

function scoredLine(raw: string, rollouts: PreparedRollout[], byId: Map<number, StepScoring>, meta: StepScoresMeta): string {
  const scoresOf = (p: PreparedRollout): (number | null)[] | null => {
    const s = byId.get(p.rollout.id);
    return s && s.kind === 'scored' ? s.scores : null;
  };
  const isGrouped = rollouts.length > 1 || rollouts[0]!.rollout.format === 'grouped';
  if (isGrouped) return withStepScores(raw, rollouts.map(scoresOf), meta);
  return withStepScores(raw, scoresOf(rollouts[0]!) ?? rollouts[0]!.steps.map(() => null), meta);
}
