/**
 * Which execution providers onnxruntime-node can load on this machine without trying them.
 * onnxruntime-node ships cpu (and, per platform, dml, coreml, webgpu) inside its binding; the CUDA
 * and TensorRT providers are separate libraries a user adds beside it (docs/gpu.md). Trying one
 * whose libraries are absent fails in native code that prints a red error line on stderr before the
 * scorer can catch it, so a provider with missing files is skipped and the reason said instead.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Provider libraries onnxruntime-node loads from its binary folder when a provider is not bundled. */
export const PROVIDER_FILES: Readonly<Record<string, readonly string[]>> = {
  cuda: ['libonnxruntime_providers_shared.so', 'libonnxruntime_providers_cuda.so'],
  tensorrt: ['libonnxruntime_providers_shared.so', 'libonnxruntime_providers_tensorrt.so'],
};

/** The folder onnxruntime-node loads its native binding and provider libraries from. */
export function binaryFolder(): string | null {
  try {
    const entry = require.resolve('onnxruntime-node');
    return join(dirname(entry), '..', 'bin', 'napi-v6', process.platform, process.arch);
  } catch {
    return null;
  }
}

/**
 * The library files `provider` needs that are not in `folder`; empty when it needs none or all are
 * there, and when the folder is unknown (then onnxruntime itself decides).
 */
export function missingProviderFiles(provider: string, folder: string | null): string[] {
  const files = PROVIDER_FILES[provider];
  if (!files || folder === null) return [];
  return files.filter((f) => !existsSync(join(folder, f)));
}

/**
 * Splits the requested providers into those worth trying and, for the rest, why not. The order of
 * those kept is the order asked for.
 */
export function loadableProviders(requested: readonly string[], folder: string | null): { providers: string[]; skipped: string[] } {
  const providers: string[] = [];
  const skipped: string[] = [];
  for (const p of requested) {
    const missing = missingProviderFiles(p, folder);
    if (missing.length === 0) providers.push(p);
    else skipped.push(`${p} unavailable: provider library not installed (${missing.join(', ')} missing)`);
  }
  return { providers, skipped };
}
