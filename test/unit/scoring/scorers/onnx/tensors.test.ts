import { describe, expect, it } from 'vitest';
import { floatToHalf, halfToFloat, padBatch, readScores } from '../../../../../src/scoring/scorers/onnx/tensors';

describe('halfToFloat', () => {
  it('decodes the binary16 bit patterns onnxruntime returns for float16 outputs', () => {
    expect(halfToFloat(0x3c00)).toBe(1);
    expect(halfToFloat(0xc000)).toBe(-2);
    expect(halfToFloat(0x3a00)).toBe(0.75);
    expect(halfToFloat(0xb400)).toBe(-0.25);
    expect(halfToFloat(0x7bff)).toBe(65504);
    expect(halfToFloat(0x0001)).toBe(2 ** -24);
    expect(halfToFloat(0x7c00)).toBe(Infinity);
    expect(halfToFloat(0xfc00)).toBe(-Infinity);
    expect(halfToFloat(0x7e00)).toBeNaN();
    expect(Object.is(halfToFloat(0x8000), -0)).toBe(true);
  });

  it('round-trips through floatToHalf within half a unit in the last place', () => {
    for (const v of [0, 1, -1, 0.5, 0.1, 3.14159, 1000, -65504, 2 ** -20]) {
      const error = Math.abs(halfToFloat(floatToHalf(v)) - v);
      expect(error).toBeLessThanOrEqual(Math.max(Math.abs(v) * 2 ** -11, 2 ** -25));
    }
    expect(floatToHalf(1)).toBe(0x3c00);
    expect(floatToHalf(0)).toBe(0);
    expect(floatToHalf(1e6)).toBe(0x7c00);
  });
});

describe('padBatch', () => {
  it('right-pads with the pad id and masks the padding', () => {
    expect(padBatch([[1, 2, 3], [4]], 0)).toEqual({ rows: 2, width: 3, ids: [1, 2, 3, 4, 0, 0], mask: [1, 1, 1, 1, 0, 0] });
  });
});

describe('readScores', () => {
  it('reads softmax(logits)[label] at each position', () => {
    const logits = { type: 'float32', dims: [1, 2, 2], data: Float32Array.from([0, 0, 0, Math.log(3)]) };
    const [row] = readScores(logits, [[0, 1]], { kind: 'softmax', labelIndex: 1 });
    expect(row?.[0]).toBeCloseTo(0.5);
    expect(row?.[1]).toBeCloseTo(0.75);
  });

  it('reads sigmoid(value) from [B, T] and [B, T, 1] value heads', () => {
    const flat = { type: 'float32', dims: [2, 1], data: Float32Array.from([0, Math.log(3)]) };
    expect(readScores(flat, [[0], [0]], { kind: 'sigmoid', labelIndex: 1 })).toEqual([[0.5], [expect.closeTo(0.75)]]);
    const column = { ...flat, dims: [2, 1, 1] };
    expect(readScores(column, [[0], [0]], { kind: 'sigmoid', labelIndex: 1 })[1]?.[0]).toBeCloseTo(0.75);
  });

  it('converts float16 logits before the softmax', () => {
    const logits = { type: 'float16', dims: [1, 1, 2], data: Uint16Array.from([0x0000, 0x3c00]) };
    expect(readScores(logits, [[0]], { kind: 'softmax', labelIndex: 1 })[0]?.[0]).toBeCloseTo(1 / (1 + Math.exp(-1)), 6);
  });

  it('names the shape when the output does not fit the readout', () => {
    const value = { type: 'float32', dims: [1, 3], data: new Float32Array(3) };
    expect(() => readScores(value, [[0]], { kind: 'softmax', labelIndex: 1 })).toThrow(/shape \[1, 3\]; expected \[B, T, C\] logits/);
    const wide = { type: 'float32', dims: [1, 3, 2], data: new Float32Array(6) };
    expect(() => readScores(wide, [[0]], { kind: 'sigmoid', labelIndex: 1 })).toThrow(/value head gives \[B, T\] or \[B, T, 1\]/);
    expect(() => readScores(wide, [[0], [0]], { kind: 'softmax', labelIndex: 1 })).toThrow(/expected \[2, 3/);
  });
});
