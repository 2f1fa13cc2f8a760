import { describe, expect, it } from 'vitest';
import { isHostToWorkerMessage, isWorkerToHostMessage } from '../../../../../src/protocol/onnx';

describe('worker protocol guards', () => {
  it('accepts well-formed requests and rejects malformed ones', () => {
    const init = {
      type: 'init', id: 1, modelPath: '/m/model.onnx', providers: ['cpu'], intraOpThreads: null,
      profile: 'qwen-prm', readout: { kind: 'softmax', labelIndex: 1 },
    };
    expect(isHostToWorkerMessage(init)).toBe(true);
    expect(isHostToWorkerMessage({ ...init, readout: { kind: 'max', labelIndex: 1 } })).toBe(false);
    expect(isHostToWorkerMessage({ type: 'run', id: 2, rows: [[1, 2]], positions: [[1]], padId: 0 })).toBe(true);
    expect(isHostToWorkerMessage({ type: 'run', id: 2, rows: [[1, 2]], positions: [], padId: 0 })).toBe(false);
    expect(isHostToWorkerMessage({ type: 'run', rows: [[1]], positions: [[0]], padId: 0 })).toBe(false);
    expect(isHostToWorkerMessage({ type: 'shutdown', id: 3 })).toBe(true);
    expect(isHostToWorkerMessage({ type: 'explode', id: 3 })).toBe(false);
  });

  it('accepts well-formed responses and rejects malformed ones', () => {
    expect(isWorkerToHostMessage({ type: 'scores', id: 1, scores: [[0.5]], runMs: 1 })).toBe(true);
    expect(isWorkerToHostMessage({ type: 'scores', id: 1, scores: [['x']], runMs: 1 })).toBe(false);
    expect(isWorkerToHostMessage({ type: 'failed', id: 1, message: 'boom' })).toBe(true);
    expect(
      isWorkerToHostMessage({ type: 'ready', id: 1, provider: 'cpu', fallbackReason: null, inputNames: ['input_ids'], outputName: 'logits' }),
    ).toBe(true);
    expect(isWorkerToHostMessage(null)).toBe(false);
  });
});
