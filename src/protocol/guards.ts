/**
 * The building blocks every protocol's guards are made of. A guard checks a value that arrived
 * from another thread or a webview (untyped at run time) and narrows its type; a message's guard
 * is built from its fields' guards (`shape`), so a message's type and its check come from one
 * declaration.
 */
import { isRecord } from '../core/isRecord';

/** Checks a value received from elsewhere and narrows it. */
export type Guard<T> = (value: unknown) => value is T;

/** The type a guard narrows to. */
export type Guarded<G> = G extends Guard<infer T> ? T : never;

/** A field that may be absent (or undefined); present, it must pass its guard. */
export interface Optional<T> {
  readonly optional: Guard<T>;
}

/** A message's or a payload's fields, each with its guard. */
export type Fields = Record<string, Guard<unknown> | Optional<unknown>>;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The object type a field list describes: optional fields are optional keys. */
export type FieldsType<F extends Fields> = Simplify<
  { -readonly [K in keyof F as F[K] extends Optional<unknown> ? never : K]: Guarded<F[K]> } & {
    -readonly [K in keyof F as F[K] extends Optional<unknown> ? K : never]?: F[K] extends Optional<infer T> ? T : never;
  }
>;

/** A plain object (not null, not an array): core's one definition, here beside the other blocks. */
export { isRecord };

export const isString: Guard<string> = (value): value is string => typeof value === 'string';
export const isBoolean: Guard<boolean> = (value): value is boolean => typeof value === 'boolean';
export const isNumber: Guard<number> = (value): value is number => typeof value === 'number';
export const isInteger: Guard<number> = (value): value is number => typeof value === 'number' && Number.isInteger(value);
/** A whole number ≥ 0 that JSON carries exactly: an id, an index, a count. */
export const isCount: Guard<number> = (value): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
/** A finite number ≥ 0. */
export const isNonNegative: Guard<number> = (value): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;
export const isArray: Guard<unknown[]> = (value): value is unknown[] => Array.isArray(value);
/** Anything: the receiver checks it itself (a query parsed by its own parser). */
export const isUnknown: Guard<unknown> = (_value): _value is unknown => true;

type Literal = string | number | boolean | null;

/** One of the given values. */
export function literal<const T extends readonly Literal[]>(...values: T): Guard<T[number]> {
  return (value): value is T[number] => values.includes(value as Literal);
}

export function nullable<T>(guard: Guard<T>): Guard<T | null> {
  return (value): value is T | null => value === null || guard(value);
}

export function optional<T>(guard: Guard<T>): Optional<T> {
  return { optional: guard };
}

export function arrayOf<T>(guard: Guard<T>): Guard<T[]> {
  return (value): value is T[] => Array.isArray(value) && value.every((item) => guard(item));
}

/** A guard with a further check on the narrowed value (a rule between fields). */
export function where<T>(guard: Guard<T>, test: (value: T) => boolean): Guard<T> {
  return (value): value is T => guard(value) && test(value);
}

/** Either guard. */
export function either<A, B>(a: Guard<A>, b: Guard<B>): Guard<A | B> {
  return (value): value is A | B => a(value) || b(value);
}

function fieldPasses(check: Guard<unknown> | Optional<unknown>, value: unknown): boolean {
  return typeof check === 'function' ? check(value) : value === undefined || check.optional(value);
}

/** An object whose every listed field passes its guard (fields not listed are not looked at). */
export function shape<F extends Fields>(fields: F): Guard<FieldsType<F>> {
  const entries = Object.entries(fields);
  return (value): value is FieldsType<F> => isRecord(value) && entries.every(([key, check]) => fieldPasses(check, value[key]));
}

/**
 * A payload the other side built (an analysis's figures): checked for its outline only, the
 * fields named here, and typed as the full `T`.
 */
export function outline<T>(fields: { [K in keyof T]?: Guard<unknown> | Optional<unknown> }): Guard<T> {
  const entries = Object.entries(fields) as [string, Guard<unknown> | Optional<unknown>][];
  return (value): value is T => isRecord(value) && entries.every(([key, check]) => fieldPasses(check, value[key]));
}
