/**
 * The endpoint parts of the setup check, one block per endpoint so a user sees each one's state:
 * its `/v1/models` answer (the model and what the server says about it), then one request of the
 * kind scoring makes — a PRM's `/pooling` score of the smoke rollout, or a critic's judgement of a
 * tiny solution with one planted error.
 */
import { createCriticScorer } from '../scorers/critic/criticScorer';
import { plainHttpKeyWarning } from '../scorers/endpoints/endpointUrls';
import { requestJson } from '../scorers/endpoints/request';
import { describeFacts, readModelFacts, type ModelFacts } from '../scorers/endpoints/servedModel';
import { createHttpScorer } from '../scorers/http/httpScorer';
import type { EndpointScorer } from '../scorers/endpoints/servedScorer';
import { CRITIC_PROBE, CRITIC_PROBE_ERROR_STEP, SMOKE_ROLLOUT } from '../scorers/probes';
import type { StepScoring } from '../../core/model';
import { describeScoring, elapsed, messageOf, type CheckLine, type CheckSection } from './checkLines';

/** Which endpoints to check, and as what. */
export interface EndpointCheckOptions {
  kind: 'http' | 'critic';
  urls: readonly string[];
  modelName?: string;
  apiKey?: string;
  /** Timeout of `/v1/models`. */
  timeoutMs: number;
  /** A critic's `max_tokens` for the judged example. */
  maxTokens?: number;
}

const SMOKE_TIMEOUT_MS = 30_000;
/** A critic that reasons at length needs longer than a PRM for the judged example. */
const JUDGE_TIMEOUT_MS = 120_000;

/** The section title for a kind of endpoint. */
export function endpointSectionTitle(kind: 'http' | 'critic'): string {
  return kind === 'critic' ? 'Critic endpoint' : 'vLLM endpoint';
}

/** A critic's judgement of the probe: found the planted error (ok), judged otherwise (warning), no answer (error). */
function describeJudgement(result: StepScoring | undefined, since: number): CheckLine {
  const label = 'judged example';
  if (result?.kind !== 'scored') return { status: 'error', label, detail: `no usable answer: ${result?.reason ?? 'no result'}` };
  const flagged = result.scores.indexOf(0);
  const time = `in ${elapsed(since)}`;
  if (flagged === CRITIC_PROBE_ERROR_STEP) {
    const why = result.notes?.[flagged] ?? '';
    return { status: 'ok', label, detail: `found the planted error in paragraph ${flagged} ${time}${why ? ` (${why})` : ''}` };
  }
  const said = flagged < 0 ? 'no error' : `an error in paragraph ${flagged}`;
  return { status: 'warning', label, detail: `answered ${time} with ${said}; the planted error is in paragraph ${CRITIC_PROBE_ERROR_STEP}: check the model before trusting its judgements` };
}

async function modelsLine(base: string, options: EndpointCheckOptions): Promise<{ line: CheckLine; facts: ModelFacts | null }> {
  const since = performance.now();
  const url = `${base.replace(/\/+$/, '')}/v1/models`;
  try {
    const headers: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};
    const body = await requestJson(url, undefined, { timeoutMs: options.timeoutMs, retries: 0, retryBaseMs: 0, headers, secrets: options.apiKey ? [options.apiKey] : [] });
    const facts = readModelFacts(body, url, options.modelName);
    return { line: { status: 'ok', label: 'GET /v1/models', detail: `answered in ${elapsed(since)}; serves ${describeFacts(facts)}` }, facts };
  } catch (error) {
    return { line: { status: 'error', label: 'GET /v1/models', detail: messageOf(error) }, facts: null };
  }
}

function scorerFor(base: string, facts: ModelFacts, options: EndpointCheckOptions): EndpointScorer {
  const common = { urls: [base], modelName: facts.id, retries: 0, ...(options.apiKey ? { apiKey: options.apiKey } : {}) };
  return options.kind === 'critic'
    ? createCriticScorer({ ...common, timeoutMs: JUDGE_TIMEOUT_MS, ...(options.maxTokens ? { maxTokens: options.maxTokens } : {}) })
    : createHttpScorer({ ...common, timeoutMs: SMOKE_TIMEOUT_MS });
}

async function requestLine(base: string, facts: ModelFacts, options: EndpointCheckOptions): Promise<CheckLine> {
  const label = options.kind === 'critic' ? 'judged example' : 'POST /pooling';
  let scorer: EndpointScorer | undefined;
  try {
    scorer = scorerFor(base, facts, options);
    const since = performance.now();
    const [result] = await scorer.score([options.kind === 'critic' ? CRITIC_PROBE : SMOKE_ROLLOUT]);
    return options.kind === 'critic' ? describeJudgement(result, since) : { ...describeScoring(result, since), label };
  } catch (error) {
    return { status: 'error', label, detail: messageOf(error) };
  } finally {
    await scorer?.dispose();
  }
}

/** Checks every endpoint in turn: its models, then one request of the kind scoring makes. */
export async function checkEndpoints(options: EndpointCheckOptions): Promise<CheckSection> {
  const lines: CheckLine[] = [];
  const section = { title: endpointSectionTitle(options.kind), lines };
  const warning = plainHttpKeyWarning(options.urls, Boolean(options.apiKey));
  if (warning) lines.push({ status: 'warning', label: 'API key', detail: warning });
  for (const url of options.urls) {
    lines.push({ status: 'info', label: 'url', detail: url });
    const { line, facts } = await modelsLine(url, options);
    lines.push(line);
    if (facts) lines.push(await requestLine(url, facts, options));
  }
  return section;
}
