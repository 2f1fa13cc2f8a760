/**
 * One builder makes every model configuration, for the CLI's flags and the editor's settings: an
 * option not given is absent, each kind takes only its own options, and the same model named both
 * ways is the same configuration (the same key, so an open model is kept).
 */
import { describe, expect, it } from 'vitest';
import { buildModelConfig, isModelConfig, modelConfigKey } from '../../../src/protocol/modelConfig';
import { modelConfigOf } from '../../../src/cli/scorerOptions';
import { parseArgs } from '../../../src/cli/args';

describe('buildModelConfig', () => {
  it('leaves out what was not given, and gives each kind only its own options', () => {
    expect(buildModelConfig({ kind: 'onnx', modelDir: '/m' }, { cacheDir: null, modelName: 'x', maxTokens: 9, providers: undefined })).toEqual({ kind: 'onnx', modelDir: '/m', cacheDir: null });
    expect(buildModelConfig({ kind: 'http', urls: ['http://a'] }, { cacheDir: '/c', apiKey: '', maxTokens: 9, providers: ['cuda'] })).toEqual({ kind: 'http', urls: ['http://a'], cacheDir: '/c' });
    const critic = buildModelConfig({ kind: 'critic', urls: ['http://a'] }, { cacheDir: '/c', apiKey: 'k', modelName: 'qwen', maxTokens: 9 });
    expect(critic).toEqual({ kind: 'critic', urls: ['http://a'], cacheDir: '/c', modelName: 'qwen', apiKey: 'k', maxTokens: 9 });
    expect(isModelConfig(critic)).toBe(true);
  });

  it('the CLI\'s flags and the editor\'s settings for one model make the same configuration', async () => {
    const io = { stdout: () => undefined, stderr: () => undefined, isStderrTty: false, cwd: '/', env: {} };
    const fromCli = await modelConfigOf(parseArgs(['report', 'x.jsonl', '--model', '/models/prm', '--cache-dir', '/c']), io);
    const fromEditor = buildModelConfig({ kind: 'onnx', modelDir: '/models/prm' }, { cacheDir: '/c', workerPath: undefined });
    expect(fromCli).toEqual(fromEditor);
    expect(modelConfigKey(fromCli)).toBe(modelConfigKey(fromEditor));
    const served = await modelConfigOf(parseArgs(['report', 'x.jsonl', '--scorer', 'critic', '--url', 'http://h:8000', '--no-cache', '--max-tokens', '64']), io);
    expect(served).toEqual(buildModelConfig({ kind: 'critic', urls: ['http://h:8000'] }, { cacheDir: null, maxTokens: 64 }));
  });
});
