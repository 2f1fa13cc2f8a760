/**
 * `prof-lens score <file> -o <scored.jsonl> (--model <dir> | --url <endpoint>)`: every input
 * line written out with `step_scores` (one number per step, null for an unscored step; an array
 * per response for grouped lines) and `step_scores_meta`. All other fields, their order and their
 * formatting are kept; the output appears only when complete (temporary file, then rename).
 */
import { resolve } from 'node:path';
import type { StepScoring } from '../../core/model';
import { readLine } from '../../core/reader';
import { prepareRecord, type PreparedRollout } from '../../core/prepare';
import { withStepScores, type StepScoresMeta } from '../../scoring/writeScored';
import { checkOutputs, openAtomicWriter } from '../../scoring/outputFiles';
import type { Scorer } from '../../scoring/scorer';
import { parseArgs, UsageError } from '../args';
import type { FileLine } from '../../scoring/fileLines';
import { readInputLines } from '../../scoring/inputs/inputFile';
import { adaptContextFor } from '../../scoring/inputs/traceTokenizer';
import type { AdaptContext } from '../../core/formatsTrainers';
import { inputFileSize } from '../analyseFile';
import { createModelScorer, reportEndpoints } from '../scorerOptions';
import { EXIT_OK, EXIT_UNREADABLE_LINES, type CliIo } from '../io';

const BATCH_LINES = 64;

export async function scoreCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv);
  const file = args.positionals[0];
  const output = args.values.get('-o');
  if (!file || !output) throw new UsageError('score needs a file and an output: prof-lens score <file> -o <scored.jsonl> (--model <dir> | --url <endpoint> [--scorer critic])');
  await checkOutputs([{ label: 'the input', path: resolve(io.cwd, file) }], [{ label: '-o', path: resolve(io.cwd, output) }]);
  await inputFileSize(file, 'score');
  const tokenizerDir = args.settings.tokenizerDir ? resolve(io.cwd, args.settings.tokenizerDir) : null;
  const context = await adaptContextFor(file, { tokenizerDir });
  const model = await createModelScorer(args, io);
  if (!model) throw new UsageError('score needs a model: --model <dir> (ONNX folder), --url <endpoint> (vLLM PRM) or --scorer critic --url <base> (chat model)');
  const writer = await openAtomicWriter(resolve(io.cwd, output)).catch(async (error: unknown) => {
    await model.scorer.dispose();
    throw error;
  });
  let problems = 0;
  let scored = 0;
  const said = new Set<string>();
  try {
    const meta = metaOf(model.scorer);
    let firstId = 0;
    for await (const lines of readInputLines(file)) {
      for (let i = 0; i < lines.length; i += BATCH_LINES) {
        const batch = await scoreLines(lines.slice(i, i + BATCH_LINES), { scorer: model.scorer, args, firstId, meta, io, file, context, said });
        firstId += batch.rollouts;
        problems += batch.problems;
        await writer.write(batch.text);
      }
    }
    scored = firstId;
    if (scored === 0) await writer.abort();
    else await writer.commit();
  } catch (error) {
    await writer.abort();
    throw error;
  } finally {
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

function metaOf(scorer: Scorer): StepScoresMeta {
  const info = scorer.info;
  const meta: StepScoresMeta = { scorer: info.kind };
  if (info.model) meta.model = info.model;
  if (info.profile) meta.profile = info.profile;
  if (info.provider) meta.provider = info.provider;
  return meta;
}

interface BatchContext {
  scorer: Scorer;
  args: ReturnType<typeof parseArgs>;
  firstId: number;
  meta: StepScoresMeta;
  io: CliIo;
  file: string;
  context: AdaptContext;
  /** Codes of the problems already reported. */
  said: Set<string>;
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
