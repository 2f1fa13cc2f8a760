/**
 * A local stand-in for a vLLM server running a Qwen PRM: `GET /v1/models` (with vLLM's `root` and
 * `max_model_len`) and `POST /pooling` with the documented request and response shapes. Its
 * "probabilities" are a function of each step's text length, so a test can tell whether scores
 * landed on the right steps; `swap()` replaces the model behind the same served name.
 */
import { modelsAnswer, startLoopbackServer, type RecordedRequest } from '../loopbackServer';

export type { RecordedRequest };

export const SEPARATOR = '<extra_0>';
export const SEPARATOR_ID = 151651;

/** The fake PRM's p_pos for a step: depends only on the step's length. */
export function fakeScore(stepText: string): number {
  return ((stepText.length % 50) + 1) / 64;
}

/** The fake PRM's p_pos for the k-th separator of a token input. */
export function fakeTokenScore(separatorIndex: number): number {
  return (separatorIndex + 1) / 100;
}

/** A canned answer that replaces the normal pooling response. */
export interface Reply {
  status?: number;
  body?: unknown;
  /** Extra response headers (e.g. `retry-after`). */
  headers?: Record<string, string>;
  /** Answer after this delay (the server still answers late if the client gave up). */
  delayMs?: number;
  /** Replace the computed pairs. */
  pairs?: number[][];
}

/** What `/v1/models` says about the served model, and how the model scores. */
export interface FakeModel {
  root?: string;
  maxModelLen?: number;
  /** Added to every p_pos (kept in [0, 1]): another checkpoint scores differently. */
  shift?: number;
}

export interface FakeServerOptions {
  modelId?: string;
  model?: FakeModel;
  /** Called for each `/pooling` request with its 1-based number; undefined → normal answer. */
  onPooling?: (call: number, body: unknown) => Reply | undefined;
}

export interface FakeServer {
  url: string;
  requests: RecordedRequest[];
  /** Highest number of `/pooling` requests being handled at the same time. */
  maxInFlight: number;
  /** Serve another model under the same name from now on. */
  swap(model: FakeModel): void;
  close(): Promise<void>;
}

/** Start the fake server on 127.0.0.1 with a free port. */
export async function startFakeServer(options: FakeServerOptions = {}): Promise<FakeServer> {
  const modelId = options.modelId ?? 'Qwen/Qwen2.5-Math-PRM-7B';
  let model: FakeModel = options.model ?? { root: modelId, maxModelLen: 4096 };
  let inFlight = 0;
  let poolingCalls = 0;
  const state: FakeServer = { url: '', requests: [], maxInFlight: 0, swap: (next) => (model = next), close: async () => undefined };
  const server = await startLoopbackServer(({ method, path, body }, send) => {
    if (method === 'GET' && path === '/v1/models') {
      send(200, modelsAnswer(modelId, model.root ?? null, model.maxModelLen ?? null));
      return;
    }
    if (method !== 'POST' || path !== '/pooling') {
      send(404, { detail: 'Not Found' });
      return;
    }
    const reply = options.onPooling?.(++poolingCalls, body) ?? {};
    inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    setTimeout(() => {
      inFlight--;
      if (reply.status !== undefined && reply.status !== 200) send(reply.status, reply.body ?? {}, reply.headers);
      else send(200, reply.body ?? poolingResponse(modelId, reply.pairs ?? pairsFor(body, model.shift ?? 0)), reply.headers);
    }, reply.delayMs ?? 5);
  });
  return Object.assign(state, { url: server.url, requests: server.requests, close: server.close });
}

function pairsFor(body: unknown, shift: number): number[][] {
  const input = (body as { input?: unknown }).input;
  if (Array.isArray(input)) {
    const count = input.filter((id) => id === SEPARATOR_ID).length;
    return Array.from({ length: count }, (_, k) => pair(fakeTokenScore(k), shift));
  }
  const text = String(input);
  const start = text.indexOf('<|im_start|>assistant\n') + '<|im_start|>assistant\n'.length;
  const pieces = text.slice(start).split(SEPARATOR);
  // The piece after the last separator is the closing `<|im_end|>`, not a step.
  return pieces.slice(0, -1).map((step) => pair(fakeScore(step), shift));
}

function pair(positive: number, shift = 0): number[] {
  const p = Math.min(1, Math.max(0, positive + shift));
  return [1 - p, p];
}

function poolingResponse(model: string, pairs: number[][]): unknown {
  return {
    id: 'pool-test',
    object: 'list',
    created: 0,
    model,
    data: [{ index: 0, object: 'pooling', data: pairs }],
    usage: { prompt_tokens: 10, total_tokens: 10, completion_tokens: 0 },
  };
}
