/**
 * Which execution providers are tried: a GPU provider whose libraries are not beside
 * onnxruntime-node's binding is skipped with a reason (trying it would print a red native error and
 * fail anyway); one whose libraries are there is tried, in the order asked.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { binaryFolder, loadableProviders } from '../../../../../src/scoring/scorers/onnx/providerFiles';

const dir = mkdtempSync(join(tmpdir(), 'prof-lens-providers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadableProviders', () => {
  it('skips cuda when its provider libraries are missing, naming the files', () => {
    const empty = join(dir, 'empty');
    expect(loadableProviders(['cuda', 'cpu'], empty)).toEqual({
      providers: ['cpu'],
      skipped: ['cuda unavailable: provider library not installed (libonnxruntime_providers_shared.so, libonnxruntime_providers_cuda.so missing)'],
    });
  });

  it('names only the file that is missing', () => {
    const half = mkdtempSync(join(dir, 'half-'));
    writeFileSync(join(half, 'libonnxruntime_providers_shared.so'), '');
    expect(loadableProviders(['cuda', 'cpu'], half).skipped).toEqual([
      'cuda unavailable: provider library not installed (libonnxruntime_providers_cuda.so missing)',
    ]);
  });

  it('tries cuda when both of its libraries are installed', () => {
    const full = mkdtempSync(join(dir, 'full-'));
    for (const f of ['libonnxruntime_providers_shared.so', 'libonnxruntime_providers_cuda.so']) writeFileSync(join(full, f), '');
    expect(loadableProviders(['cuda', 'cpu'], full)).toEqual({ providers: ['cuda', 'cpu'], skipped: [] });
  });

  it('leaves bundled providers (dml, coreml, cpu) and an unknown folder to onnxruntime', () => {
    expect(loadableProviders(['dml', 'cpu'], join(dir, 'none'))).toEqual({ providers: ['dml', 'cpu'], skipped: [] });
    expect(loadableProviders(['coreml', 'cpu'], join(dir, 'none'))).toEqual({ providers: ['coreml', 'cpu'], skipped: [] });
    expect(loadableProviders(['cuda', 'cpu'], null)).toEqual({ providers: ['cuda', 'cpu'], skipped: [] });
  });

  it('finds onnxruntime-node\'s own binary folder', () => {
    expect(binaryFolder()).toMatch(/onnxruntime-node[\\/]bin[\\/]napi-v6[\\/]/);
  });
});
