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
