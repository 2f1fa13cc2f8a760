/**
 * The onnxruntime side of the ONNX scorer, run inside the worker: opening a session with a
 * provider fallback, checking the model's inputs and outputs against the profile, and running
 * one padded batch. onnxruntime throws (rather than falling back) when a listed provider cannot
 * load, so every attempt is caught and retried on cpu.
 */
import * as ort from 'onnxruntime-node';
import type { ReadoutSpec } from '../../../protocol/onnx';
import { floatToHalf, padBatch, readScores } from './tensors';
import { binaryFolder, loadableProviders } from './providerFiles';

export interface OpenSessionOptions {
  modelPath: string;
  providers: readonly string[];
  intraOpThreads: number | null;
  profile: string;
  readout: ReadoutSpec;
  /** Where provider libraries are looked for; default onnxruntime-node's own binary folder. */
  binaryFolder?: string | null;
}

interface InputSlot {
  name: string;
  type: string;
}

/** An open session and what was learnt about the model while opening it. */
export interface PrmSession {
  session: ort.InferenceSession;
  provider: string;
  fallbackReason: string | null;
  readout: ReadoutSpec;
  inputs: { ids: InputSlot; mask: InputSlot | null; positionIds: InputSlot | null };
  outputName: string;
}

const KNOWN_INPUTS = ['input_ids', 'attention_mask', 'position_ids'];
const OUTPUT_PREFERENCE = ['logits', 'value', 'values', 'scores', 'rewards'];
const INT_TYPES = ['int64', 'int32'];
const MASK_TYPES = ['int64', 'int32', 'float32', 'float16', 'bool'];

function firstLine(message: string): string {
  // onnxruntime appends its own log line (with colour codes) to loader errors.
  const line = message.split('\n')[0] ?? message;
  return line.replace(/\x1b\[[0-9;]*m/g, '').trim();
}

interface CreatedSession {
  session: ort.InferenceSession;
  provider: string;
  fallbackReason: string | null;
}

async function createWithFallback(options: OpenSessionOptions): Promise<CreatedSession> {
  const base: ort.InferenceSession.SessionOptions = {
    graphOptimizationLevel: 'all',
    ...(options.intraOpThreads === null ? {} : { intraOpNumThreads: options.intraOpThreads }),
  };
  const asked = options.providers.length > 0 ? [...options.providers] : ['cpu'];
  // A provider whose libraries are not installed is not tried: the attempt would fail anyway, and
  // onnxruntime prints that failure in red on stderr whatever log level is set once the process's
  // first session has fixed it. The user learns why from fallbackReason instead.
  const { providers: loadable, skipped } = loadableProviders(asked, options.binaryFolder === undefined ? binaryFolder() : options.binaryFolder);
  const requested = loadable.length > 0 ? loadable : ['cpu'];
  const skippedReason = skipped.length > 0 ? skipped.join('; ') : null;
  const isCpuOnly = requested.every((p) => p === 'cpu');
  // A GPU provider that is installed but cannot start (no driver, wrong CUDA) is reported through
  // fallbackReason; onnxruntime would also print it on stderr (the level applies from the first
  // session of the process).
  if (!isCpuOnly) ort.env.logLevel = 'fatal';
  try {
    const session = await ort.InferenceSession.create(options.modelPath, { ...base, executionProviders: requested });
    return { session, provider: requested[0] as string, fallbackReason: skippedReason };
  } catch (err) {
    if (isCpuOnly) throw new Error(`cannot load ${options.modelPath}: ${firstLine((err as Error).message)}`);
    const failed = `${requested.filter((p) => p !== 'cpu').join(', ')} unavailable: ${firstLine((err as Error).message)}`;
    const reason = skippedReason === null ? failed : `${skippedReason}; ${failed}`;
    try {
      const session = await ort.InferenceSession.create(options.modelPath, { ...base, executionProviders: ['cpu'] });
      return { session, provider: 'cpu', fallbackReason: reason };
    } catch (cpuErr) {
      throw new Error(`cannot load ${options.modelPath}: ${firstLine((cpuErr as Error).message)} (after ${reason})`);
    }
  }
}

type ValueMetadata = ort.InferenceSession.ValueMetadata;

function metadataOf(list: readonly ValueMetadata[], name: string): ValueMetadata | undefined {
  return list.find((m) => m.name === name);
}

function slot(session: ort.InferenceSession, name: string, allowed: readonly string[]): InputSlot {
  const meta = metadataOf(session.inputMetadata, name);
  const type = meta?.isTensor ? meta.type : 'int64';
  if (!allowed.includes(type)) throw new Error(`model input ${name} has type ${type}; expected one of ${allowed.join(', ')}`);
  return { name, type };
}

function checkInputs(session: ort.InferenceSession, profile: string): PrmSession['inputs'] {
  const found = session.inputNames;
  const unknown = found.filter((n) => !KNOWN_INPUTS.includes(n));
  if (!found.includes('input_ids') || unknown.length > 0) {
    throw new Error(
      `model inputs do not fit the ${profile} profile: found ${found.join(', ') || '(none)'}; ` +
        `expected input_ids, optionally attention_mask and position_ids`,
    );
  }
  return {
    ids: slot(session, 'input_ids', INT_TYPES),
    mask: found.includes('attention_mask') ? slot(session, 'attention_mask', MASK_TYPES) : null,
    positionIds: found.includes('position_ids') ? slot(session, 'position_ids', INT_TYPES) : null,
  };
}

function describeShape(meta: ValueMetadata | undefined): string {
  return meta?.isTensor ? `[${meta.shape.join(', ')}] ${meta.type}` : 'non-tensor';
}

function checkOutput(session: ort.InferenceSession, profile: string, readout: ReadoutSpec): string {
  const names = session.outputNames;
  const name = OUTPUT_PREFERENCE.find((n) => names.includes(n)) ?? (names.length === 1 ? names[0] : undefined);
  const expected =
    readout.kind === 'softmax' ? `logits [B, T, C] with C > ${readout.labelIndex}` : 'a value [B, T] or [B, T, 1]';
  if (name === undefined) {
    const found = names.join(', ') || '(none)';
    throw new Error(`model outputs do not fit the ${profile} profile: found ${found}; expected ${expected}`);
  }
  const meta = metadataOf(session.outputMetadata, name);
  if (!meta?.isTensor || meta.shape.length === 0) return name;
  const last = meta.shape[meta.shape.length - 1];
  const fits =
    readout.kind === 'softmax'
      ? meta.shape.length === 3 && (typeof last !== 'number' || last > readout.labelIndex)
      : meta.shape.length === 2 || (meta.shape.length === 3 && (typeof last !== 'number' || last === 1));
  if (!fits) throw new Error(`model output ${name} is ${describeShape(meta)}; the ${profile} profile expects ${expected}`);
  return name;
}

/** Opens a session (falling back to cpu), then checks the model fits the profile. */
export async function openPrmSession(options: OpenSessionOptions): Promise<PrmSession> {
  const { session, provider, fallbackReason } = await createWithFallback(options);
  try {
    const inputs = checkInputs(session, options.profile);
    const outputName = checkOutput(session, options.profile, options.readout);
    return { session, provider, fallbackReason, readout: options.readout, inputs, outputName };
  } catch (err) {
    await session.release();
    throw err;
  }
}

function tensorOf(type: string, values: readonly number[], dims: number[]): ort.Tensor {
  switch (type) {
    case 'int64':
      return new ort.Tensor('int64', BigInt64Array.from(values, (v) => BigInt(v)), dims);
    case 'int32':
      return new ort.Tensor('int32', Int32Array.from(values), dims);
    case 'float32':
      return new ort.Tensor('float32', Float32Array.from(values), dims);
    case 'float16':
      return new ort.Tensor('float16', Uint16Array.from(values, floatToHalf), dims);
    case 'bool':
      return new ort.Tensor('bool', Uint8Array.from(values), dims);
    default:
      throw new Error(`cannot feed an input of type ${type}`);
  }
}

/** Builds the feeds for one padded batch, in the element types the model declares. */
export function buildFeeds(prm: PrmSession, rows: readonly (readonly number[])[], padId: number): Record<string, ort.Tensor> {
  const batch = padBatch(rows, padId);
  const dims = [batch.rows, batch.width];
  const feeds: Record<string, ort.Tensor> = { [prm.inputs.ids.name]: tensorOf(prm.inputs.ids.type, batch.ids, dims) };
  if (prm.inputs.mask) feeds[prm.inputs.mask.name] = tensorOf(prm.inputs.mask.type, batch.mask, dims);
  if (prm.inputs.positionIds) {
    const positions = Array.from({ length: batch.rows * batch.width }, (_, i) => i % batch.width);
    feeds[prm.inputs.positionIds.name] = tensorOf(prm.inputs.positionIds.type, positions, dims);
  }
  return feeds;
}

/** Runs one batch and reads each row's scores at its positions. */
export async function runPrmBatch(
  prm: PrmSession,
  batch: { rows: readonly (readonly number[])[]; positions: readonly (readonly number[])[]; padId: number },
): Promise<number[][]> {
  const feeds = buildFeeds(prm, batch.rows, batch.padId);
  const results = await prm.session.run(feeds, [prm.outputName]);
  const output = results[prm.outputName];
  if (!output) throw new Error(`model returned no ${prm.outputName} output`);
  const view = { type: output.type, data: output.data as ArrayLike<number>, dims: output.dims };
  return readScores(view, batch.positions, prm.readout);
}
