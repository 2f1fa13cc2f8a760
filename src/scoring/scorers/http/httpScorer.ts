/**
 * The `http` scorer: a process reward model served by vLLM's `/pooling` endpoint (task
 * `token_classify`, STEP pooling on `<extra_0>`), on one endpoint or spread over several. One
 * request per rollout, a bounded number in flight per endpoint; vLLM batches concurrent requests
 * itself. A server that answers in another shape, or with another number of step scores than steps
 * sent, is misconfigured: that stops the run with one clear error instead of scoring nothing.
 */
import type { StepScoring } from '../../../core/model';
import type { ScoreItem } from '../scorer';
import { EndpointError } from '../endpoints/request';
import type { PoolAnswer } from '../endpoints/endpointPool';
import type { ServedModelOptions } from '../endpoints/servedModel';
import { ServedScorer, type EndpointScorer } from '../endpoints/servedScorer';
import { SMOKE_ROLLOUT } from '../probes';
import { planTextInput, planTokenInput, PoolingShapeError, readPairs, type PoolingInput, type PoolingPlan } from './pooling';
import { QWEN_PRM_MAX_TOKENS, QWEN_PRM_SEPARATOR_ID } from './qwenPrompt';
import { errorText } from '../../../core/errorText';

/** Settings of the `http` scorer. */
export interface HttpScorerOptions extends ServedModelOptions {
  profile?: 'qwen-prm';
  /**
   * Tokenizes a rollout into the PRM's ids with the separator id after each step. When given,
   * ids are sent instead of text, so the separator is exact and long rollouts are cut at a step
   * boundary to fit `maxTokens`.
   */
  encode?: (item: ScoreItem) => readonly number[] | Promise<readonly number[]>;
  /** Context length for token input. Default 4096. */
  maxTokens?: number;
  /** Separator id for token input. Default 151651 (`<extra_0>`). */
  separatorId?: number;
}

/** Environment variable the command line reads the bearer token from. */
export const API_KEY_ENV = 'PROF_LENS_API_KEY';

const CONTEXT_MESSAGE = /context length|too long|maximum.*tokens/i;

/** Create an `http` scorer. Throws a readable error at once for a URL that is not http(s). */
export function createHttpScorer(options: HttpScorerOptions): EndpointScorer {
  return new PoolingScorer(options);
}

class PoolingScorer extends ServedScorer {
  private readonly profile: string;

  constructor(private readonly options: HttpScorerOptions) {
    const profile = options.profile ?? 'qwen-prm';
    super(options, { kind: 'http', label: `http ${profile}`, profile });
    this.profile = profile;
  }

  identity(signal?: AbortSignal): Promise<string> {
    return this.served.identity({ kind: `http-${this.profile}`, probe: () => this.scoreProbe(signal), signal: this.signal(signal) });
  }

  protected labelFor(model: string): string {
    return `http ${this.profile} (${model})`;
  }

  protected scoreOne(item: ScoreItem, signal: AbortSignal): Promise<StepScoring> {
    return this.scoreItem(item, this.servedId, signal);
  }

  /** The probe's scores to two decimals: enough to tell models apart, not float noise. */
  private async scoreProbe(signal?: AbortSignal): Promise<string> {
    await this.ready(signal);
    const result = await this.scoreItem(SMOKE_ROLLOUT, this.servedId, this.signal(signal));
    return result.kind === 'scored' ? result.scores.map((s) => (s === null ? 'null' : s.toFixed(2))).join(',') : `unscored:${result.reason}`;
  }

  private async planItem(item: ScoreItem): Promise<PoolingPlan> {
    const { encode, separatorId = QWEN_PRM_SEPARATOR_ID, maxTokens = QWEN_PRM_MAX_TOKENS } = this.options;
    if (!encode) return planTextInput(item.prompt, item.steps);
    const ids = await encode(item);
    return planTokenInput({ ids, steps: item.steps.length, separatorId, maxTokens });
  }

  private async scoreItem(item: ScoreItem, model: string, signal: AbortSignal): Promise<StepScoring> {
    const scorer = `http:${this.profile}@${this.info.model ?? ''}`;
    if (item.steps.length === 0) return { kind: 'scored', scores: [], scorer };
    const plan = await this.planItem(item);
    if (plan.kind === 'unscored') return { kind: 'unscored', reason: plan.reason, scorer };
    let answer: PoolAnswer;
    try {
      answer = await this.served.post('/pooling', { model, input: plan.request.input, task: 'token_classify' }, signal);
    } catch (error) {
      // An over-long text input is this rollout's problem, not the run's.
      if (error instanceof EndpointError && error.status === 400 && CONTEXT_MESSAGE.test(error.serverMessage ?? '')) {
        return { kind: 'unscored', reason: `unscored (context): ${error.serverMessage ?? ''}`, scorer };
      }
      throw error;
    }
    return toScoring(answer, plan.request, scorer);
  }
}

const CONFIGURATION_HINT = 'the server must run a process reward model with STEP pooling on the <extra_0> separator '
  + '(vllm serve Qwen/Qwen2.5-Math-PRM-7B --runner pooling)';

function toScoring({ body, url }: PoolAnswer, request: PoolingInput, scorer: string): StepScoring {
  let pairs: number[][];
  try {
    pairs = readPairs(body);
  } catch (error) {
    // Whatever went wrong reading the answer names the server that gave it.
    const what = error instanceof PoolingShapeError ? error.message : `its answer could not be read (${errorText(error)})`;
    throw new EndpointError(`configuration error: ${url} answered, but not as a PRM does: ${what}; ${CONFIGURATION_HINT}`, { url, isConfiguration: true });
  }
  if (pairs.length !== request.expectedPairs) {
    const counts = `${count(pairs.length, 'step score')} for ${count(request.expectedPairs, 'step')}`;
    throw new EndpointError(`configuration error: ${url} answered with ${counts}; ${CONFIGURATION_HINT}`, { url, isConfiguration: true });
  }
  const scores: (number | null)[] = pairs.map((pair) => pair[1] ?? null);
  if (request.droppedSteps === 0) return { kind: 'scored', scores, scorer };
  const notes: (string | null)[] = scores.map(() => null);
  for (let i = 0; i < request.droppedSteps; i++) {
    scores.push(null);
    notes.push('unscored (context)');
  }
  return { kind: 'scored', scores, notes, scorer };
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
