import { describe, expect, it } from 'vitest';
import { scorerInUse } from '../../../src/vscode/scorerInUse';

describe('the scorer the status bar names', () => {
  it('is the one that scored, not the chain that could have', () => {
    expect(scorerInUse({ checker: 72 }, 'file, else checker')).toBe('checker');
    expect(scorerInUse({ file: 10 }, 'file, else checker')).toBe('file');
  });

  it('keeps a model\'s label with its provider', () => {
    expect(scorerInUse({ 'onnx qwen-prm': 4 }, 'file, else onnx qwen-prm (cpu; cuda unavailable)')).toBe('onnx qwen-prm (cpu; cuda unavailable)');
  });

  it('names each scorer of a mixed file with its count, most first', () => {
    expect(scorerInUse({ file: 3, checker: 40 }, 'file, else checker')).toBe('checker (40) + file (3)');
  });

  it('falls back to the chain before anything was scored', () => {
    expect(scorerInUse({}, 'file, else checker')).toBe('file, else checker');
  });
});
