/**
 * The base of the local stand-ins for model servers: a JSON server on 127.0.0.1 (never another
 * interface) on a free port, recording every request, answering through `send`, and vLLM's
 * `/v1/models` card.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** Answers with a JSON body (nothing when the client already went away). */
export type Send = (status: number, payload: unknown, headers?: Record<string, string>) => void;

export interface LoopbackServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Starts a server whose `handle` sees each request (already recorded) with its parsed body. */
export async function startLoopbackServer(handle: (request: RecordedRequest, send: Send) => void): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: raw ? (JSON.parse(raw) as unknown) : undefined };
      requests.push(request);
      handle(request, (status, payload, headers = {}) => {
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(payload));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * vLLM's `/v1/models` answer for one served model. Its `created` changes on every request, so it
 * must never count towards a model's identity.
 */
export function modelsAnswer(id: string, root: string | null, maxModelLen: number | null): unknown {
  return { object: 'list', data: [{ id, object: 'model', created: Date.now(), owned_by: 'vllm', root, parent: null, max_model_len: maxModelLen }] };
}
