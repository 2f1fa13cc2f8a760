/**
 * The numeric side of a PRM run that needs no runtime: padding a batch, turning IEEE half floats
 * into numbers (onnxruntime returns float16 tensors as raw Uint16Array bits), and reading step
 * scores out of the model's output at the separator positions.
 */
import type { ReadoutSpec } from '../../../protocol/onnx';

/** Converts one IEEE 754 binary16 bit pattern to a number (subnormals, infinities, NaN included). */
export function halfToFloat(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 0x1f) return fraction === 0 ? sign * Infinity : NaN;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}

/** Converts a number to the nearest binary16 bit pattern (for float16 model inputs such as masks). */
export function floatToHalf(value: number): number {
  if (Number.isNaN(value)) return 0x7e00;
  const sign = value < 0 || Object.is(value, -0) ? 0x8000 : 0;
  const abs = Math.abs(value);
  if (abs >= 65520) return sign | 0x7c00;
  if (abs < 2 ** -24 / 2) return sign;
  if (abs < 2 ** -14) return sign | Math.round(abs / 2 ** -24);
  const exponent = Math.floor(Math.log2(abs));
  const fraction = Math.round((abs / 2 ** exponent - 1) * 1024);
  // Rounding the fraction up to 1024 carries into the exponent, which the addition does for free.
  return sign | (((exponent + 15) << 10) + fraction);
}

/** A right-padded batch: row-major [rows, width] ids and mask (1 = token, 0 = padding). */
export interface PaddedBatch {
  rows: number;
  width: number;
  ids: number[];
  mask: number[];
}

/** Pads rows to the longest with `padId`; padding is masked so causal models ignore it. */
export function padBatch(rows: readonly (readonly number[])[], padId: number): PaddedBatch {
  const width = Math.max(1, ...rows.map((r) => r.length));
  const ids = new Array<number>(rows.length * width).fill(padId);
  const mask = new Array<number>(rows.length * width).fill(0);
  rows.forEach((row, r) => {
    for (let t = 0; t < row.length; t++) {
      ids[r * width + t] = row[t] as number;
      mask[r * width + t] = 1;
    }
  });
  return { rows: rows.length, width, ids, mask };
}

/** A model output as the reader needs it: flat data, its element type and its dims. */
export interface OutputView {
  type: string;
  data: ArrayLike<number>;
  dims: readonly number[];
}

function toNumbers(output: OutputView): ArrayLike<number> {
  if (output.type === 'float32' || output.type === 'float64') return output.data;
  if (output.type === 'float16') return Array.from(output.data, halfToFloat);
  throw new Error(`model output has element type ${output.type}; expected float32 or float16`);
}

function classCount(output: OutputView, readout: ReadoutSpec, expectRows: number, expectWidth: number): number {
  const [b, t, c] = output.dims;
  if (b !== expectRows || t !== expectWidth) {
    throw new Error(`model output has shape [${output.dims.join(', ')}]; expected [${expectRows}, ${expectWidth}, …]`);
  }
  if (readout.kind === 'sigmoid') {
    if (output.dims.length === 2 || (output.dims.length === 3 && c === 1)) return 1;
    throw new Error(`model output has shape [${output.dims.join(', ')}]; a value head gives [B, T] or [B, T, 1]`);
  }
  if (output.dims.length !== 3 || c === undefined || c <= readout.labelIndex) {
    throw new Error(
      `model output has shape [${output.dims.join(', ')}]; expected [B, T, C] logits with C > label index ${readout.labelIndex}`,
    );
  }
  return c;
}

function softmaxAt(values: ArrayLike<number>, offset: number, classes: number, label: number): number {
  let max = -Infinity;
  for (let k = 0; k < classes; k++) max = Math.max(max, values[offset + k] as number);
  let sum = 0;
  for (let k = 0; k < classes; k++) sum += Math.exp((values[offset + k] as number) - max);
  return Math.exp((values[offset + label] as number) - max) / sum;
}

/**
 * Reads one score per separator position from a [B, T, C] logits or [B, T(, 1)] value output.
 * Throws, naming the shapes, when the output does not fit the readout.
 */
export function readScores(output: OutputView, positions: readonly (readonly number[])[], readout: ReadoutSpec): number[][] {
  const width = output.dims[1] ?? 0;
  const classes = classCount(output, readout, positions.length, width);
  const values = toNumbers(output);
  return positions.map((rowPositions, r) =>
    rowPositions.map((t) => {
      const offset = (r * width + t) * classes;
      if (readout.kind === 'sigmoid') return 1 / (1 + Math.exp(-(values[offset] as number)));
      return softmaxAt(values, offset, classes, readout.labelIndex);
    }),
  );
}
