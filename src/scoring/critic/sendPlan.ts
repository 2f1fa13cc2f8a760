/**
 * What scoring a file with a critic would send, worked out before anything is sent: the rollouts
 * the score cache cannot answer, roughly how many prompt tokens they make, and where they go. The
 * editor shows this and waits for the user's yes.
 */
import { prepareRecord } from '../../core/prepare';
import { readText } from '../../core/reader';
import { resolveSettings, type ProfSettings } from '../../core/settings';
import type { ModelConfig } from '../../protocol/modelConfig';
import type { SendPlan } from '../../protocol/analysis';
import type { ScoreItem, Scorer } from '../scorer';
import { criticPromptTokens, DEFAULT_CRITIC_MAX_TOKENS } from './criticScorer';

/** What the plan is made from. */
export interface SendPlanInput {
  text: string;
  fileName: string;
  settings: Partial<ProfSettings>;
  config: Extract<ModelConfig, { kind: 'critic' }>;
  /** The critic as opened (behind the cache when there is one). */
  scorer: Scorer & { misses?: (items: readonly ScoreItem[]) => Promise<ScoreItem[]> };
}

/** The rollouts of a text as the critic would receive them (every rollout: `critic` overrides file scores). */
export function criticItems(text: string, fileName: string, settings: Partial<ProfSettings>): ScoreItem[] {
  const resolved = resolveSettings(settings);
  const items: ScoreItem[] = [];
  for (const record of readText(text, fileName).records) {
    const prepared = prepareRecord(record, { settings: resolved, rawOffsets: false, firstId: items.length });
    for (const p of prepared.rollouts) items.push({ id: p.rollout.id, prompt: p.rollout.prompt, steps: p.steps.map((s) => s.text) });
  }
  return items;
}

/** What would be sent: only rollouts with steps that the cache does not hold. */
export async function planCriticSend(input: SendPlanInput): Promise<SendPlan> {
  const items = criticItems(input.text, input.fileName, input.settings).filter((item) => item.steps.length > 0);
  const toSend = input.scorer.misses ? await input.scorer.misses(items) : items;
  return {
    rollouts: toSend.length,
    approxTokens: toSend.reduce((sum, item) => sum + criticPromptTokens(item), 0),
    maxAnswerTokens: input.config.maxTokens ?? DEFAULT_CRITIC_MAX_TOKENS,
    urls: input.config.urls,
    model: input.scorer.info.model ?? input.config.modelName ?? '',
  };
}
