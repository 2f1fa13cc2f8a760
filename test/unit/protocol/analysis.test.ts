import { describe, expect, it } from 'vitest';
import { isHostToWorker, modelConfigKey, type ModelConfig } from '../../../src/protocol/analysis';

const onnx: ModelConfig = { kind: 'onnx', modelDir: '/m', workerPath: '/ext/dist/onnxWorker.js', cacheDir: '/c' };
const analyse = { type: 'analyse', requestId: 1, documentKey: 'file:///r.jsonl', fileName: '/r.jsonl', source: { kind: 'path', path: '/r.jsonl' }, settings: {}, scorer: 'onnx' };

describe('host → analysis worker messages', () => {
  it('accepts an analysis with a model, without one, and every scorer choice', () => {
    expect(isHostToWorker({ ...analyse, model: onnx })).toBe(true);
    expect(isHostToWorker({ ...analyse, model: { kind: 'http', url: 'http://127.0.0.1:8000', cacheDir: '/c' } })).toBe(true);
    for (const scorer of ['auto', 'file', 'checker', 'onnx', 'http']) expect(isHostToWorker({ ...analyse, scorer, model: null })).toBe(true);
  });

  it('rejects a malformed model or an unknown scorer', () => {
    expect(isHostToWorker({ ...analyse })).toBe(false);
    expect(isHostToWorker({ ...analyse, model: { kind: 'onnx', modelDir: '/m', workerPath: 42, cacheDir: '/c' } })).toBe(false);
    expect(isHostToWorker({ ...analyse, model: { kind: 'onnx', modelDir: '/m', providers: 'cuda', cacheDir: '/c' } })).toBe(false);
    expect(isHostToWorker({ ...analyse, model: { kind: 'onnx', modelDir: '/m', cacheDir: 7 } })).toBe(false);
    expect(isHostToWorker({ ...analyse, model: { kind: 'http', url: 'http://x', concurrency: 'many', cacheDir: null } })).toBe(false);
    expect(isHostToWorker({ ...analyse, model: { kind: 'ftp', url: 'x', cacheDir: '/c' } })).toBe(false);
    expect(isHostToWorker({ ...analyse, scorer: 'model', model: null })).toBe(false);
  });

  it('accepts configure and shutdown', () => {
    expect(isHostToWorker({ type: 'configure', model: null })).toBe(true);
    expect(isHostToWorker({ type: 'configure', model: onnx })).toBe(true);
    expect(isHostToWorker({ type: 'configure' })).toBe(false);
    expect(isHostToWorker({ type: 'shutdown' })).toBe(true);
  });

  it('keys a model by what decides whether it can stay open', () => {
    expect(modelConfigKey(onnx)).toBe(modelConfigKey({ ...onnx }));
    expect(modelConfigKey(onnx)).not.toBe(modelConfigKey({ ...onnx, modelDir: '/other' }));
    expect(modelConfigKey(null)).toBe('');
  });
});
