/**
 * Message descriptors: every message between the extension host (or the CLI) and a webview or a
 * worker is declared once, here in `src/protocol/`, as a descriptor that names its `type`, which
 * way it goes, its fields (each with its guard) and, for a request, the messages that answer it.
 * The message's TypeScript type, the guard that checks it on arrival and the union each end
 * receives are all derived from that one declaration. The wire stays JSON-plain: a message is an
 * object discriminated on `type`.
 */
import { isCount, literal, shape, where, type Fields, type FieldsType, type Guard } from './guards';

/** `toHost`: to the extension host or the CLI; `fromHost`: from it, to a webview or a worker. */
export type Direction = 'toHost' | 'fromHost';

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** One message: its `type`, its direction, its guard (built from its fields). */
export interface MessageDescriptor<M extends { type: string } = { type: string }, D extends Direction = Direction> {
  readonly type: M['type'];
  readonly direction: D;
  readonly guard: Guard<M>;
  /** For a request: the messages that settle it; exactly one of them answers each request. */
  readonly replies?: readonly MessageDescriptor[];
  /** For a request: what may come before its reply, zero or more times (progress, chunks). */
  readonly updates?: readonly MessageDescriptor[];
}

/** A request: a message that carries an id and is answered by exactly one of its `replies`. */
export interface RequestDescriptor<M extends { type: string }, D extends Direction, R extends MessageDescriptor, U extends MessageDescriptor = never> extends MessageDescriptor<M, D> {
  readonly replies: readonly R[];
  readonly updates: readonly U[];
}

/** The message a descriptor declares. */
export type MessageOf<Desc> = Desc extends MessageDescriptor<infer M, Direction> ? M : never;

/** The messages that may settle a request. */
export type ReplyOf<Req> = Req extends RequestDescriptor<{ type: string }, Direction, infer R, MessageDescriptor> ? MessageOf<R> : never;

type Declared<T extends string, F extends Fields> = Simplify<{ type: T } & FieldsType<F>>;

function build<T extends string, F extends Fields>(type: T, fields: F, rule?: (message: Declared<T, F>) => boolean): Guard<Declared<T, F>> {
  const guard = shape({ type: literal(type), ...fields }) as unknown as Guard<Declared<T, F>>;
  return rule ? where(guard, rule) : guard;
}

/** A message that gets no answer (a command, a notification, a reply declared on its own). */
export function message<const T extends string, F extends Fields, D extends Direction>(
  direction: D,
  type: T,
  fields: F,
  rule?: (message: Declared<T, F>) => boolean,
): MessageDescriptor<Declared<T, F>, D> {
  return { type, direction, guard: build(type, fields, rule) } as MessageDescriptor<Declared<T, F>, D>;
}

/** A request and what answers it: `replies` (one settles it) and `updates` (zero or more before). */
export function request<const T extends string, F extends Fields, D extends Direction, R extends MessageDescriptor, U extends MessageDescriptor = never>(
  direction: D,
  type: T,
  fields: F,
  answers: { replies: readonly R[]; updates?: readonly U[] },
  rule?: (message: Declared<T, F>) => boolean,
): RequestDescriptor<Declared<T, F>, D, R, U> {
  return { type, direction, guard: build(type, fields, rule), replies: answers.replies, updates: answers.updates ?? [] } as RequestDescriptor<Declared<T, F>, D, R, U>;
}

/** Every webview's first message: it is loaded and listening, so the host sends what it shows. */
export const ready = message('toHost', 'ready', {});

/** The one answer of a webview's request: the request's id, its method, its result. */
export interface ViewResponse<T extends string, R> {
  type: 'response';
  requestId: number;
  method: T;
  result: R;
}

/** A webview's request to the host, answered by exactly one `response` carrying its `requestId`. */
export interface ViewRequest<T extends string, M extends { type: string }, R>
  extends RequestDescriptor<M, 'toHost', MessageDescriptor<ViewResponse<T, R>, 'fromHost'>> {
  readonly result: Guard<R>;
}

/** What a webview passes to make a request (its id is added by its channel). */
export type ParamsOf<V> = V extends ViewRequest<string, infer M, unknown> ? Simplify<Omit<M, 'type' | 'requestId'>> : never;
/** What a webview's request resolves with. */
export type ResultOf<V> = V extends ViewRequest<string, { type: string }, infer R> ? R : never;

type Requested<T extends string, F extends Fields> = Simplify<{ type: T; requestId: number } & FieldsType<F>>;

/** Declares a webview → host request with its result; the `response` message is derived from it. */
export function viewRequest<const T extends string, F extends Fields, R>(
  type: T,
  fields: F,
  result: Guard<R>,
  rule?: (message: Requested<T, F>) => boolean,
): ViewRequest<T, Requested<T, F>, R> {
  const response = message('fromHost', 'response', { requestId: isCount, method: literal(type), result }) as unknown as MessageDescriptor<ViewResponse<T, R>, 'fromHost'>;
  const guard = build(type, { ...fields, requestId: isCount }, rule as ((message: unknown) => boolean) | undefined);
  return { type, direction: 'toHost', guard, replies: [response], updates: [], result } as unknown as ViewRequest<T, Requested<T, F>, R>;
}

/** Every message a list of descriptors declares, their replies and updates included. */
type Expanded<D> = D | (D extends { replies: readonly (infer R)[] } ? R : never) | (D extends { updates: readonly (infer U)[] } ? U : never);

/** The union of the messages that go one way. */
export type MessagesIn<D extends readonly MessageDescriptor[], Dir extends Direction> =
  Expanded<D[number]> extends infer E ? (E extends MessageDescriptor<infer M, Dir> ? M : never) : never;

/** A channel's messages: every descriptor, and the guard of what arrives at each end. */
export interface Protocol<D extends readonly MessageDescriptor[]> {
  /** Every message, the replies and updates of requests included, each once. */
  readonly messages: readonly MessageDescriptor[];
  /** The guard of what goes `direction`: a message of a declared type that passes that type's guard. */
  guard<Dir extends Direction>(direction: Dir): Guard<MessagesIn<D, Dir>>;
}

/** The union of the messages a protocol sends `direction`. */
export type Sent<P, Dir extends Direction> = P extends Protocol<infer D> ? MessagesIn<D, Dir> : never;

/** Collects a channel's descriptors. */
export function protocol<const D extends readonly MessageDescriptor[]>(...descriptors: D): Protocol<D> {
  const all = new Set<MessageDescriptor>();
  for (const d of descriptors) for (const m of [d, ...(d.replies ?? []), ...(d.updates ?? [])]) all.add(m);
  const messages = [...all];
  const byType = (direction: Direction): Map<string, Guard<unknown>[]> => {
    const map = new Map<string, Guard<unknown>[]>();
    for (const m of messages) if (m.direction === direction) map.set(m.type, [...(map.get(m.type) ?? []), m.guard]);
    return map;
  };
  const guards = { toHost: byType('toHost'), fromHost: byType('fromHost') };
  return {
    messages,
    guard: <Dir extends Direction>(direction: Dir) => {
      const map = guards[direction];
      return (value: unknown): value is MessagesIn<D, Dir> => {
        const type = typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;
        return typeof type === 'string' && (map.get(type)?.some((guard) => guard(value)) ?? false);
      };
    },
  };
}

/** A webview's saved state: its version first, so a state saved by another version is ignored. */
export function savedState<const V extends number, F extends Fields>(version: V, fields: F): Guard<Simplify<{ version: V } & FieldsType<F>>> {
  return shape({ version: literal(version), ...fields }) as unknown as Guard<Simplify<{ version: V } & FieldsType<F>>>;
}

/** Called in a `switch`'s `default` over a message union: the compiler checks every case is handled. */
export function unhandled(message: never): void {
  void message;
}
