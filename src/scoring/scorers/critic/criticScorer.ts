/**
 * The `critic` scorer: any chat model behind an OpenAI-compatible `POST /v1/chat/completions`
 * (vLLM, SGLang, llama.cpp, Ollama, LM Studio, a hosted API) judges each rollout once, ProcessBench
 * style. Steps before the paragraph it flags score 1, the flagged one 0 (with the critic's reason
 * as its note), the ones after it are not judged; −1 scores every step 1. An answer with no
 * readable index is asked once more, then the rollout is unscored with the reason.
 */
import type { StepScoring } from '../../../core/model';
import type { ScoreItem } from '../scorer';
import type { PoolAnswer } from '../endpoints/endpointPool';
import { EndpointError } from '../endpoints/request';
import type { ServedModelOptions } from '../endpoints/servedModel';
import { ServedScorer, type EndpointScorer } from '../endpoints/servedScorer';
import { CRITIC_PROBE } from '../probes';
import { approximateTokens, criticMessages, CRITIC_PROMPT_VERSION } from './criticPrompt';
import { readVerdict, verdictScoring, type CriticVerdict } from './criticVerdict';

/** Settings of the critic. */
export interface CriticScorerOptions extends ServedModelOptions {
  /** Most tokens the critic may write per answer (`max_tokens`). Default 4096. */
  maxTokens?: number;
}

/** Tokens the critic read and wrote so far, as its server reported them. */
export interface CriticUsage {
  requests: number;
  promptTokens: number;
  completionTokens: number;
}

/** A critic scorer. */
export interface CriticScorer extends EndpointScorer {
  usage(): CriticUsage;
}

/** Default `max_tokens`: room for a reasoning model's critique of a long solution. */
export const DEFAULT_CRITIC_MAX_TOKENS = 4096;
/** Fewer tokens left for the answer than this, and the rollout is not sent at all. */
const MIN_ANSWER_TOKENS = 256;
const CONTEXT_MESSAGE = /context length|too long|maximum.*tokens|max_tokens/i;

/** One answer: its text and why generation stopped. */
interface ChatAnswer {
  content: string;
  finishReason: string | null;
  systemFingerprint: string | null;
}

/** Create a critic. Throws a readable error at once for a URL that is not http(s). */
export function createCriticScorer(options: CriticScorerOptions): CriticScorer {
  return new ChatCritic(options);
}

class ChatCritic extends ServedScorer implements CriticScorer {
  private readonly maxTokens: number;
  private readonly totals: CriticUsage = { requests: 0, promptTokens: 0, completionTokens: 0 };

  constructor(options: CriticScorerOptions) {
    super(options, { kind: 'critic', label: 'critic', profile: CRITIC_PROMPT_VERSION });
    this.maxTokens = Math.max(MIN_ANSWER_TOKENS, options.maxTokens ?? DEFAULT_CRITIC_MAX_TOKENS);
  }

  identity(signal?: AbortSignal): Promise<string> {
    const settings = { prompt: CRITIC_PROMPT_VERSION, maxTokens: this.maxTokens, temperature: 0 };
    return this.served.identity({ kind: 'critic', probe: () => this.probe(signal), settings, signal: this.signal(signal) });
  }

  usage(): CriticUsage {
    return { ...this.totals };
  }

  protected labelFor(model: string): string {
    return `critic (${model})`;
  }

  protected scoreOne(item: ScoreItem, signal: AbortSignal): Promise<StepScoring> {
    return this.judge(item, signal);
  }

  /** One rollout: asked, and asked once more when the answer holds no readable index. */
  private async judge(item: ScoreItem, signal: AbortSignal): Promise<StepScoring> {
    const scorer = `critic:${CRITIC_PROMPT_VERSION}@${this.info.model ?? ''}`;
    if (item.steps.length === 0) return { kind: 'scored', scores: [], scorer };
    let reason = '';
    for (let attempt = 0; attempt < 2; attempt++) {
      const asked = await this.ask(item, signal);
      if ('unscored' in asked) return { kind: 'unscored', reason: asked.unscored, scorer };
      const verdict = readVerdict(asked.content, item.steps.length);
      if (verdict.kind !== 'unparsable') return verdictScoring(verdict, item.steps.length, scorer);
      const cut = asked.finishReason === 'length' ? ` (the answer stopped at max_tokens = ${this.maxTokens})` : '';
      reason = `${verdict.reason}${cut}`;
    }
    return { kind: 'unscored', reason: `the critic's answer had no usable index, twice: ${reason}`, scorer };
  }

  /** The probe's verdict (and the server's `system_fingerprint`): stable at temperature 0, and it changes with the model. */
  private async probe(signal?: AbortSignal): Promise<string> {
    const asked = await this.ask(CRITIC_PROBE, this.signal(signal));
    if ('unscored' in asked) return `unscored:${asked.unscored}`;
    const verdict: CriticVerdict = readVerdict(asked.content, CRITIC_PROBE.steps.length);
    const said = verdict.kind === 'flagged' ? `flagged:${verdict.index}` : verdict.kind;
    return JSON.stringify({ verdict: said, system: asked.systemFingerprint });
  }

  private async ask(item: ScoreItem, signal: AbortSignal): Promise<ChatAnswer | { unscored: string }> {
    await this.ready(signal);
    const model = this.servedId;
    const messages = criticMessages(item.prompt, item.steps);
    const budget = this.answerBudget(messages[0]!.content);
    if (budget < MIN_ANSWER_TOKENS) return { unscored: `unscored (context): the rollout leaves no room for an answer in the critic's context` };
    let answer: PoolAnswer;
    try {
      answer = await this.served.post('/v1/chat/completions', { model, messages, temperature: 0, max_tokens: budget, n: 1, stream: false }, signal);
    } catch (error) {
      if (error instanceof EndpointError && error.status === 400 && CONTEXT_MESSAGE.test(error.serverMessage ?? '')) {
        return { unscored: `unscored (context): ${error.serverMessage ?? ''}` };
      }
      throw error;
    }
    return this.read(answer);
  }

  /** `max_tokens`, lowered so prompt and answer fit a context the server reported (vLLM refuses otherwise). */
  private answerBudget(prompt: string): number {
    const context = this.served.knownFacts?.maxModelLen ?? null;
    if (context === null) return this.maxTokens;
    // Three characters a token errs on the side of a longer prompt.
    return Math.min(this.maxTokens, context - Math.ceil(prompt.length / 3) - 16);
  }

  private read({ body, url }: PoolAnswer): ChatAnswer {
    const choice = field(field(body, 'choices'), 0);
    const message = field(choice, 'message');
    const content = field(message, 'content');
    if (typeof message !== 'object' || message === null || (content !== null && content !== undefined && typeof content !== 'string')) {
      throw new EndpointError(
        `configuration error: ${url} answered, but not as an OpenAI chat-completions server does (no choices[0].message.content); `
          + 'the critic needs POST /v1/chat/completions', { url, isConfiguration: true },
      );
    }
    this.count(field(body, 'usage'));
    const refusal = field(message, 'refusal');
    const text = typeof content === 'string' ? content : typeof refusal === 'string' ? `(refused: ${refusal})` : '';
    const finish = field(choice, 'finish_reason');
    const system = field(body, 'system_fingerprint');
    return { content: text, finishReason: typeof finish === 'string' ? finish : null, systemFingerprint: typeof system === 'string' ? system : null };
  }

  private count(usage: unknown): void {
    this.totals.requests++;
    const prompt = field(usage, 'prompt_tokens');
    const completion = field(usage, 'completion_tokens');
    // A server's counts are counted only when they are counts (`1e400` reads as Infinity).
    if (typeof prompt === 'number' && Number.isFinite(prompt) && prompt >= 0) this.totals.promptTokens += prompt;
    if (typeof completion === 'number' && Number.isFinite(completion) && completion >= 0) this.totals.completionTokens += completion;
  }
}

function field(value: unknown, key: string | number): unknown {
  if (typeof key === 'number') return Array.isArray(value) ? value[key] : undefined;
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
}

/** Rough tokens one rollout costs to send (prompt only): for the consent prompt. */
export function criticPromptTokens(item: Pick<ScoreItem, 'prompt' | 'steps'>): number {
  return approximateTokens(criticMessages(item.prompt, item.steps)[0]!.content);
}
