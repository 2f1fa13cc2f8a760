import { describe, expect, it } from 'vitest';
import { isHostToWorker, isWorkerToHost } from '../../../src/protocol/analysis';
import { modelConfigKey, type ModelConfig } from '../../../src/protocol/modelConfig';

const onnx: ModelConfig = { kind: 'onnx', modelDir: '/m', workerPath: '/ext/dist/onnxWorker.js', cacheDir: '/c' };
const analyse = { type: 'analyse', requestId: 1, documentKey: 'file:///r.jsonl', fileName: '/r.jsonl', source: { kind: 'path', path: '/r.jsonl' }, settings: {}, scorer: 'onnx' };

describe('host → analysis worker messages', () => {
  it('accepts an analysis with a model, without one, and every scorer choice', () => {
    expect(isHostToWorker({ ...analyse, model: onnx })).toBe(true);
    expect(isHostToWorker({ ...analyse, model: { kind: 'http', urls: ['http://127.0.0.1:8000'], cacheDir: '/c' } })).toBe(true);
    const critic = { kind: 'critic', urls: ['http://a:1', 'http://b:2'], cacheDir: null, modelName: 'm', maxTokens: 512, apiKey: 'k' };
    expect(isHostToWorker({ ...analyse, scorer: 'critic', model: critic, shouldConfirmSend: true })).toBe(true);
    for (const scorer of ['auto', 'file', 'checker', 'onnx', 'http', 'critic']) expect(isHostToWorker({ ...analyse, scorer, model: null })).toBe(true);
  });

  it('rejects a malformed model or an unknown scorer', () => {
    expect(isHostToWorker({ ...analyse })).toBe(false);
    expect(isHostToWorker({ ...analyse, model: { kind: 'onnx', modelDir: '/m', workerPath: 42, cacheDir: '/c' } })).toBe(false);
    expect(isHostToWorker({ ...analyse, model: { kind: 'onnx', modelDir: '/m', providers: 'cuda', cacheDir: '/c' } })).toBe(false);
    expect(isHostToWorker({ ...analyse, model: { kind: 'onnx', modelDir: '/m', cacheDir: 7 } })).toBe(false);
    expect(isHostToWorker({ ...analyse, model: { kind: 'http', urls: ['http://x'], concurrency: 'many', cacheDir: null } })).toBe(false);
    expect(isHostToWorker({ ...analyse, model: { kind: 'http', urls: [], cacheDir: null } })).toBe(false);
    expect(isHostToWorker({ ...analyse, model: { kind: 'critic', urls: ['http://x'], cacheDir: null, maxTokens: 'lots' } })).toBe(false);
    expect(isHostToWorker({ ...analyse, model: { kind: 'ftp', url: 'x', cacheDir: '/c' } })).toBe(false);
    expect(isHostToWorker({ ...analyse, scorer: 'model', model: null })).toBe(false);
  });

  it('carries the consent exchange both ways', () => {
    expect(isHostToWorker({ type: 'consentReply', requestId: 3, isGranted: false })).toBe(true);
    expect(isHostToWorker({ type: 'consentReply', requestId: 3 })).toBe(false);
    const plan = { rollouts: 4, approxTokens: 900, maxAnswerTokens: 4096, urls: ['http://127.0.0.1:8000'], model: 'm' };
    expect(isWorkerToHost({ type: 'consent', requestId: 3, plan })).toBe(true);
    expect(isWorkerToHost({ type: 'consent', requestId: 3, plan: { ...plan, urls: undefined } })).toBe(false);
    const endpoints = [{ url: 'http://a', state: 'set-aside', inFlight: 0, done: 2, failures: 1, retryAt: 5, lastError: 'HTTP 503' }];
    expect(isWorkerToHost({ type: 'progress', requestId: 3, done: 1, total: 2, endpoints })).toBe(true);
    expect(isWorkerToHost({ type: 'progress', requestId: 3, done: 1, total: 2, endpoints: [{ url: 'x', state: 'odd' }] })).toBe(false);
  });

  it('never puts the API key itself in the key that identifies a model configuration', () => {
    const config: ModelConfig = { kind: 'critic', urls: ['http://a:1'], cacheDir: null, apiKey: 'sk-secret-value' };
    expect(modelConfigKey(config)).not.toContain('sk-secret-value');
    expect(modelConfigKey(config)).not.toBe(modelConfigKey({ ...config, apiKey: 'sk-other-value' }));
    expect(modelConfigKey(config)).toBe(modelConfigKey({ ...config }));
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
