/**
 * Where a record sits in its file, in messages: `line 12` for JSONL, `item 3 (line 1)` for an
 * element of a JSON array (the 0-based index `jq '.[3]'` reads; a whole array is often on line 1).
 */

/** What a location is made of. */
export interface RecordPlace {
  /** 1-based line (for an array item: the line it starts on). */
  line: number;
  /** 0-based index in the file's top-level JSON array, when it is one. */
  item?: number | undefined;
}

/** `line 12` or `item 3 (line 1)`. */
export function recordLocation(place: RecordPlace): string {
  return place.item === undefined ? `line ${place.line}` : `item ${place.item} (line ${place.line})`;
}

/**
 * A rollout's place: its record's, and, when the record holds several responses (one prompt per
 * line with parallel `responses`, as evaluation harnesses write), which response, counted from 1.
 * Decision lines keep their 0-based `index`; everything a person reads says `response k of n`.
 */
export interface RolloutPlace extends RecordPlace {
  /** 0-based index of the response in its record. */
  index: number;
  /** How many responses the record holds, when the caller knows. */
  count?: number | undefined;
  /** The record is one prompt with a `responses` array (format `grouped`): read when `count` is not known. */
  isGrouped?: boolean | undefined;
}

/**
 * Does the place name a response: its record holds more than one (when the count is known), else
 * it is a later response or a grouped record's.
 */
export function namesResponse(place: Pick<RolloutPlace, 'index' | 'count' | 'isGrouped'>): boolean {
  if (place.count !== undefined) return place.count > 1 || place.index > 0;
  return place.index > 0 || place.isGrouped === true;
}

/** `response 4 of 16` (1-based); `response 4` when the count is not known. */
export function responseWords(place: Pick<RolloutPlace, 'index' | 'count'>): string {
  const known = place.count !== undefined && place.count > place.index;
  return `response ${place.index + 1}${known ? ` of ${place.count}` : ''}`;
}

/** `line 17, response 4 of 16` for a response of a record holding several; `line 17` otherwise. */
export function rolloutLocation(place: RolloutPlace): string {
  const record = recordLocation(place);
  return namesResponse(place) ? `${record}, ${responseWords(place)}` : record;
}
