import { describe, expect, it } from 'vitest';
import { runScoring } from '../../../../src/vscode/run/runScoring';

const onnx = { kind: 'onnx' as const, modelDir: '/models/prm', cacheDir: '/c' };
const critic = { kind: 'critic' as const, urls: ['https://api.example'], cacheDir: '/c' };

describe('how the Run Dashboard scores a run', () => {
  it('follows the settings: file scores, else the configured model, else the checker', () => {
    expect(runScoring({ choice: 'auto', model: onnx })).toEqual({ choice: 'auto', model: onnx, label: 'file, else onnx' });
    expect(runScoring({ choice: 'auto', model: null })).toEqual({ choice: 'auto', model: null, label: 'file, else checker' });
    expect(runScoring({ choice: 'checker', model: onnx })).toEqual({ choice: 'checker', model: null, label: 'checker' });
    expect(runScoring({ choice: 'onnx', model: onnx }).model).toBe(onnx);
  });

  it('never sends a whole run to a critic, and says so', () => {
    const scoring = runScoring({ choice: 'critic', model: critic });
    expect(scoring.model).toBeNull();
    expect(scoring.choice).toBe('auto');
    expect(scoring.label).toBe('file, else checker (the critic is not used for training runs in the editor)');
  });
});
