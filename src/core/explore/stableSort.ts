/**
 * Sorting a million rows by one numeric key in tens of milliseconds: a stable least-significant-
 * digit radix sort on the key's IEEE-754 bits (16 bits a pass, passes whose digit never changes
 * skipped). A comparison sort with a comparator took seconds on a million rows. Ties keep the order
 * the rows came in (file order); rows without a number (NaN) go last, in that order, whichever the
 * direction.
 */

const DIGIT = 1 << 16;

/**
 * `rows` ordered by `keyOf(row)`, ascending or descending; stable. Returns a new array.
 * `keyOf` is called once per row.
 */
export function sortRows(rows: Int32Array, keyOf: (row: number) => number, descending: boolean): Int32Array {
  const n = rows.length;
  const hi = new Uint32Array(n);
  const lo = new Uint32Array(n);
  const bits = new Float64Array(1);
  const words = new Uint32Array(bits.buffer);
  let present = 0;
  const missing: number[] = [];
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const row = rows[i] as number;
    const key = keyOf(row);
    if (Number.isNaN(key)) {
      missing.push(row);
      continue;
    }
    // +0 folds -0 into 0; a descending sort is an ascending one of the negated keys (ties stay in file order).
    bits[0] = (descending ? -key : key) + 0;
    let h = words[1] as number;
    let l = words[0] as number;
    // Order-preserving unsigned form: flip the sign bit of positives, every bit of negatives.
    if (h & 0x80000000) {
      h = ~h >>> 0;
      l = ~l >>> 0;
    } else h = (h | 0x80000000) >>> 0;
    hi[present] = h;
    lo[present] = l;
    order[present] = row;
    present++;
  }
  let from = order.subarray(0, present);
  let keysHi = hi.subarray(0, present);
  let keysLo = lo.subarray(0, present);
  const count = new Uint32Array(DIGIT);
  for (let pass = 0; pass < 4; pass++) {
    const word = pass < 2 ? keysLo : keysHi;
    const shift = pass % 2 === 0 ? 0 : 16;
    count.fill(0);
    for (let i = 0; i < present; i++) count[((word[i] as number) >>> shift) & 0xffff]!++;
    // A digit every key shares moves nothing.
    if (present === 0 || count[((word[0] as number) >>> shift) & 0xffff] === present) continue;
    let sum = 0;
    for (let d = 0; d < DIGIT; d++) {
      const c = count[d] as number;
      count[d] = sum;
      sum += c;
    }
    const toRows = new Int32Array(present);
    const toHi = new Uint32Array(present);
    const toLo = new Uint32Array(present);
    for (let i = 0; i < present; i++) {
      const at = count[((word[i] as number) >>> shift) & 0xffff]!++;
      toRows[at] = from[i] as number;
      toHi[at] = keysHi[i] as number;
      toLo[at] = keysLo[i] as number;
    }
    from = toRows;
    keysHi = toHi;
    keysLo = toLo;
  }
  const out = new Int32Array(n);
  out.set(from, 0);
  for (let i = 0; i < missing.length; i++) out[present + i] = missing[i] as number;
  return out;
}
