/**
 * What every webview shares in talking to its host: the one `acquireVsCodeApi` handle, messages
 * checked by the protocol's guard on arrival, and requests that each resolve with exactly the one
 * `response` message that carries their request id. Each panel's channel adds its typed requests
 * and saved state on top.
 */

/** The part of VS Code's webview API the panels use. */
export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

let api: VsCodeApi | null = null;

/** The webview's API handle (VS Code allows `acquireVsCodeApi` to be called once per webview). */
export function vscodeApi(): VsCodeApi {
  api ??= acquireVsCodeApi();
  return api;
}

/** A host message that answers a request. */
interface Response<R> {
  type: 'response';
  requestId: number;
  result: R;
}

/**
 * `In`: what the host sends (its guard checks each message); `Out`: what the webview sends; `R`:
 * what a request resolves with.
 */
export class HostChannel<In extends { type: string }, Out, R> {
  readonly api = vscodeApi();
  private readonly pending = new Map<number, (result: R) => void>();
  private nextRequestId = 1;

  constructor(private readonly isIn: (message: unknown) => message is In) {}

  /** Listens to the host; messages that fail the guard are ignored, responses go to their request. */
  listen(onMessage: (message: Exclude<In, { type: 'response' }>) => void): void {
    window.addEventListener('message', (event: MessageEvent<unknown>) => {
      const message = event.data;
      if (!this.isIn(message)) return;
      if (message.type === 'response') {
        const { requestId, result } = message as unknown as Response<R>;
        const resolve = this.pending.get(requestId);
        this.pending.delete(requestId);
        resolve?.(result);
        return;
      }
      onMessage(message as Exclude<In, { type: 'response' }>);
    });
  }

  post(message: Out): void {
    this.api.postMessage(message);
  }

  /** Sends the request `build` makes for a fresh id; resolves with the host's one answer to it. */
  request(build: (requestId: number) => Out): Promise<R> {
    const requestId = this.nextRequestId++;
    return new Promise((resolve) => {
      this.pending.set(requestId, resolve);
      this.post(build(requestId));
    });
  }
}
