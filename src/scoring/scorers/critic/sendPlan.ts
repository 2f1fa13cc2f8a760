/**
 * What scoring a file with a critic would send, worked out before anything is sent: the rollouts
 * the score cache cannot answer, roughly how many prompt tokens they make, and where they go. The
 * editor shows this and waits for the user's yes.
 */
import { readFile } from 'node:fs/promises';
import type { SourceRecord } from '../../../core/model';
import { prepareRecord } from '../../../core/formats/prepareRollout';
import { readLine, readText } from '../../../core/read/reader';
import { resolveSettings, type ProfSettings } from '../../../core/profSettings';
import type { ModelConfig } from '../../../protocol/modelConfig';
import type { AnalysisSource, SendPlan } from '../../../protocol/analysis';
import type { ScoreItem, Scorer } from '../scorer';
import { readInputLines } from '../../inputs/inputLines';
import { criticPromptTokens, DEFAULT_CRITIC_MAX_TOKENS } from './criticScorer';

/** What the plan is made from. */
export interface SendPlanInput {
  /** The editor's text, or a file on disk (streamed: a large file is never held whole). */
  source: AnalysisSource;
  fileName: string;
  settings: Partial<ProfSettings>;
  config: Extract<ModelConfig, { kind: 'critic' }>;
  /** The critic as opened (behind the cache when there is one). */
  scorer: Scorer & { misses?: (items: readonly ScoreItem[]) => Promise<ScoreItem[]> };
}

/** Rollouts asked about the cache at a time: the plan's memory stays bounded whatever the file's size. */
const BATCH = 1000;

async function* recordsOf(source: AnalysisSource, fileName: string): AsyncGenerator<SourceRecord> {
  if (source.kind === 'text' || /\.json$/i.test(source.path)) {
    const text = source.kind === 'text' ? source.text : await readFile(source.path, 'utf8');
    yield* readText(text, fileName).records;
    return;
  }
  for await (const lines of readInputLines(source.path)) {
    for (const line of lines) {
      const result = readLine(line);
      if (result.kind === 'record') yield result.record;
    }
  }
}

/** The rollouts of a source as the critic would receive them (every rollout with steps: `critic` overrides file scores), in batches. */
async function* criticBatches(input: SendPlanInput): AsyncGenerator<ScoreItem[]> {
  const settings = resolveSettings(input.settings);
  let batch: ScoreItem[] = [];
  let nextId = 0;
  for await (const record of recordsOf(input.source, input.fileName)) {
    const prepared = prepareRecord(record, { settings, rawOffsets: false, firstId: nextId });
    nextId += prepared.rollouts.length;
    for (const p of prepared.rollouts) {
      if (p.steps.length > 0) batch.push({ id: p.rollout.id, prompt: p.rollout.prompt, steps: p.steps.map((s) => s.text) });
    }
    if (batch.length >= BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** What would be sent: only rollouts with steps that the cache does not hold. */
export async function planCriticSend(input: SendPlanInput): Promise<SendPlan> {
  let rollouts = 0;
  let approxTokens = 0;
  for await (const items of criticBatches(input)) {
    const toSend = input.scorer.misses ? await input.scorer.misses(items) : items;
    rollouts += toSend.length;
    for (const item of toSend) approxTokens += criticPromptTokens(item);
  }
  return {
    rollouts,
    approxTokens,
    maxAnswerTokens: input.config.maxTokens ?? DEFAULT_CRITIC_MAX_TOKENS,
    urls: input.config.urls,
    model: input.scorer.info.model ?? input.config.modelName ?? '',
  };
}
