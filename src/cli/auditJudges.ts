/**
 * The two judges of `prof-lens audit`: the user's labels (matched to the sampled rollouts by
 * content) and a critic (the existing critic scorer, ProcessBench protocol: the index of the
 * earliest wrong step). The critic is asked only after the user agreed to what would be sent: the
 * same plan and words as the editor's modal, answered on the terminal, or `--yes`.
 */
import type { AnalysedRollout } from '../core/report/fileAnalysis';
import { matchLabel } from '../core/labels/labelMatch';
import type { LabelStore } from '../core/labels/labelStore';
import { recordLocation } from '../core/presentation/locationWords';
import type { SendPlan } from '../protocol/analysis';
import { buildModelConfig } from '../protocol/modelConfig';
import { consentText } from '../scoring/scorers/critic/consentText';
import { criticPromptTokens, DEFAULT_CRITIC_MAX_TOKENS } from '../scoring/scorers/critic/criticScorer';
import { plainHttpKeyWarning } from '../scoring/scorers/endpoints/endpointUrls';
import { API_KEY_ENV } from '../scoring/scorers/http/httpScorer';
import { openModelScorer } from '../scoring/scorers/modelScorers';
import type { ScoreItem, Scorer } from '../scoring/scorers/scorer';
import { UsageError, type ParsedArgs } from './args';
import type { CliIo } from './io';
import { reportEndpoints } from './scorerOptions';
import { cacheDirOf } from './threshold';

/** Verdicts (id → flawed) and the sampled rollouts that got none, each with why. */
export interface Judged {
  verdicts: Map<number, boolean>;
  notJudged: string[];
}

const stepTexts = (r: AnalysedRollout): string[] => r.steps.map((s) => s.text);

/** Judged by the labels: a label with a wrong step is flawed, a sound label is sound. */
export function judgeByLabels(sample: readonly AnalysedRollout[], store: LabelStore): Judged {
  const verdicts = new Map<number, boolean>();
  const notJudged: string[] = [];
  for (const r of sample) {
    const match = matchLabel(store, { prompt: r.prompt, response: r.response, steps: stepTexts(r) });
    if (match.kind === 'labelled') verdicts.set(r.id, match.firstWrongStep >= 0);
    else notJudged.push(`${recordLocation(r)}: ${match.kind === 'stale' ? match.reason : 'no label'}`);
  }
  return { verdicts, notJudged };
}

/** Judged by a critic at `--critic URL` (repeatable), after consent. */
export async function judgeByCritic(sample: readonly AnalysedRollout[], args: ParsedArgs, io: CliIo): Promise<Judged> {
  const urls = args.lists.get('--critic') ?? [];
  const apiKey = (io.env ?? process.env)[API_KEY_ENV] || undefined;
  const keyWarning = plainHttpKeyWarning(urls, apiKey !== undefined);
  if (keyWarning) io.stderr(`prof-lens: warning: ${keyWarning}\n`);
  const maxTokens = args.values.has('--max-tokens') ? Number(args.values.get('--max-tokens')) : undefined;
  const modelName = args.values.get('--model-name');
  const scorer = await openModelScorer(buildModelConfig({ kind: 'critic', urls }, { cacheDir: cacheDirOf(args), apiKey, modelName, maxTokens: maxTokens || undefined }));
  try {
    const items: ScoreItem[] = sample.filter((r) => r.steps.length > 0).map((r) => ({ id: r.id, prompt: r.prompt, steps: stepTexts(r) }));
    await askConsent(planOf(scorer, urls, await missesOf(scorer, items), maxTokens ?? DEFAULT_CRITIC_MAX_TOKENS), keyWarning, args, io);
    const scorings = await scorer.score(items);
    const verdicts = new Map<number, boolean>();
    const notJudged: string[] = sample.filter((r) => r.steps.length === 0).map((r) => `${recordLocation(r)}: no steps to judge`);
    items.forEach((item, k) => {
      const s = scorings[k];
      const rollout = sample.find((r) => r.id === item.id)!;
      // The critic scores the steps before the flagged one 1, the flagged one 0, the rest null.
      if (s?.kind === 'scored' && s.scores.some((x) => x !== null)) verdicts.set(item.id, s.scores.some((x) => x !== null && x < 0.5));
      else notJudged.push(`${recordLocation(rollout)}: ${s?.kind === 'unscored' ? s.reason : 'no verdict'}`);
    });
    return { verdicts, notJudged };
  } finally {
    reportEndpoints(scorer, io);
    await scorer.dispose();
  }
}

async function missesOf(scorer: Scorer & { misses?: (items: readonly ScoreItem[]) => Promise<ScoreItem[]> }, items: ScoreItem[]): Promise<ScoreItem[]> {
  return scorer.misses ? scorer.misses(items) : items;
}

function planOf(scorer: Scorer, urls: string[], misses: readonly ScoreItem[], maxAnswerTokens: number): SendPlan {
  return {
    rollouts: misses.length,
    approxTokens: misses.reduce((sum, item) => sum + criticPromptTokens(item), 0),
    maxAnswerTokens,
    urls,
    model: scorer.info.model ?? '',
  };
}

/** Says what would be sent and waits for a yes (the terminal's, or `--yes`); throws when there is none. */
async function askConsent(plan: SendPlan, keyWarning: string | null, args: ParsedArgs, io: CliIo): Promise<void> {
  if (plan.rollouts === 0) return;
  const { message, detail } = consentText(plan, keyWarning);
  io.stderr(`${message.replace(/^PROF Lens: /, '')}\n${detail}\n`);
  if (args.flags.has('--yes')) return;
  if (!io.ask) throw new UsageError(`nothing was sent: audit --critic asks before sending rollouts; answer on a terminal, or add --yes to agree`);
  const answer = (await io.ask('Send them? [y/N] ')) ?? '';
  if (!/^\s*y(es)?\s*$/i.test(answer)) throw new UsageError('nothing was sent: you did not agree');
}
