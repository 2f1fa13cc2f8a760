/**
 * What every webview shares in talking to its host: the one `acquireVsCodeApi` handle, messages
 * checked by the protocol's guard on arrival, requests made from their descriptors (each resolves
 * with exactly the one `response` that carries its request id and method), and the saved state
 * checked by its versioned guard. Each panel's channel names its protocol on top.
 */
import type { Guard } from '../src/protocol/guards';
import type { ParamsOf, ResultOf, ViewRequest } from '../src/protocol/messages';

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

interface Pending {
  method: string;
  resolve: (result: unknown) => void;
}

/** A message that answers a request. */
type AnyResponse = { type: 'response'; requestId: number; method: string; result: unknown };

/** Host messages other than responses (those go to their request). */
export type Notification<In> = Exclude<In, { type: 'response' }>;

/** `In`: what the host sends (its guard checks each message); `Out`: what the webview sends; `S`: the saved state. */
export class HostChannel<In extends { type: string }, Out extends { type: string }, S = never> {
  readonly api = vscodeApi();
  private readonly pending = new Map<number, Pending>();
  private nextRequestId = 1;

  constructor(private readonly isIn: Guard<In>, private readonly isState?: Guard<S>) {}

  /** Listens to the host; messages that fail the guard are ignored, responses go to their request. */
  listen(onMessage: (message: Notification<In>) => void): void {
    window.addEventListener('message', (event: MessageEvent<unknown>) => {
      const message = event.data;
      if (!this.isIn(message)) return;
      if (message.type === 'response') {
        const { requestId, method, result } = message as unknown as AnyResponse;
        const pending = this.pending.get(requestId);
        // Exactly one response settles a request, and only one of the method it asked.
        if (pending?.method !== method) return;
        this.pending.delete(requestId);
        pending.resolve(result);
        return;
      }
      onMessage(message as Notification<In>);
    });
  }

  post(message: Out): void {
    this.api.postMessage(message);
  }

  /** Sends the request `descriptor` declares with a fresh id; resolves with the host's one answer to it. */
  request<V extends ViewRequest<Out['type'], Out, unknown>>(descriptor: V, params: ParamsOf<V>): Promise<ResultOf<V>> {
    const requestId = this.nextRequestId++;
    return new Promise((resolve) => {
      this.pending.set(requestId, { method: descriptor.type, resolve: resolve as (result: unknown) => void });
      this.post({ ...params, type: descriptor.type, requestId } as unknown as Out);
    });
  }

  /** The state saved before a reload, if it is one this version understands. */
  savedState(): S | null {
    const state = this.api.getState();
    return this.isState?.(state) ? state : null;
  }

  saveState(state: S): void {
    this.api.setState(state);
  }
}
