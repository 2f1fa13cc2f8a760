/**
 * A local stand-in for a vLLM server running a Qwen PRM: `GET /v1/models` and `POST /pooling` with
 * the documented request and response shapes. Its "probabilities" are a function of each step's
 * text length, so a test can tell whether scores landed on the right steps.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

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

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** A canned answer that replaces the normal pooling response. */
export interface Reply {
  status?: number;
  body?: unknown;
  /** Answer after this delay (the server still answers late if the client gave up). */
  delayMs?: number;
  /** Replace the computed pairs. */
  pairs?: number[][];
}

export interface FakeServerOptions {
  modelId?: string;
  /** Called for each `/pooling` request with its 1-based number; undefined → normal answer. */
  onPooling?: (call: number, body: unknown) => Reply | undefined;
}

export interface FakeServer {
  url: string;
  requests: RecordedRequest[];
  /** Highest number of `/pooling` requests being handled at the same time. */
  maxInFlight: number;
  close(): Promise<void>;
}

/** Start the fake server on 127.0.0.1 with a free port. */
export async function startFakeServer(options: FakeServerOptions = {}): Promise<FakeServer> {
  const modelId = options.modelId ?? 'Qwen/Qwen2.5-Math-PRM-7B';
  let inFlight = 0;
  let poolingCalls = 0;
  const state: FakeServer = { url: '', requests: [], maxInFlight: 0, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      const body: unknown = raw ? JSON.parse(raw) : undefined;
      state.requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      const send = (status: number, payload: unknown): void => {
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      if (req.method === 'GET' && req.url === '/v1/models') {
        send(200, { object: 'list', data: [{ id: modelId, object: 'model', owned_by: 'vllm' }] });
        return;
      }
      if (req.method !== 'POST' || req.url !== '/pooling') {
        send(404, { detail: 'Not Found' });
        return;
      }
      const reply = options.onPooling?.(++poolingCalls, body) ?? {};
      inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, inFlight);
      setTimeout(() => {
        inFlight--;
        if (reply.status !== undefined && reply.status !== 200) send(reply.status, reply.body ?? {});
        else send(200, reply.body ?? poolingResponse(modelId, reply.pairs ?? pairsFor(body)));
      }, reply.delayMs ?? 5);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.url = `http://127.0.0.1:${port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

function pairsFor(body: unknown): number[][] {
  const input = (body as { input?: unknown }).input;
  if (Array.isArray(input)) {
    const count = input.filter((id) => id === SEPARATOR_ID).length;
    return Array.from({ length: count }, (_, k) => pair(fakeTokenScore(k)));
  }
  const text = String(input);
  const start = text.indexOf('<|im_start|>assistant\n') + '<|im_start|>assistant\n'.length;
  const pieces = text.slice(start).split(SEPARATOR);
  // The piece after the last separator is the closing `<|im_end|>`, not a step.
  return pieces.slice(0, -1).map((step) => pair(fakeScore(step)));
}

function pair(positive: number): number[] {
  return [1 - positive, positive];
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
