/**
 * The trace decoder worker (bundled to `dist/traceDecoderWorker.js`): a tokenizer found through a
 * run's metadata, alone in a thread. Its `tokenizer.json` is input like any other — a decoder's
 * `Replace` pattern is a regular expression the run folder ships, and one that backtracks without
 * end would stall whoever runs it — so it runs here, where the host's time budget can end the
 * thread, under a heap limit, and each list's text is capped before it is sent back.
 */
import { parentPort } from 'node:worker_threads';
import { isHostToTraceDecoder, type HostToTraceDecoder, type TraceDecoderToHost } from '../../protocol/traceDecoder';
import { errorText } from '../../core/errorText';
import { readSideFile } from './sideFiles';
import { MAX_TOKENIZER_BYTES, MAX_TOKENIZER_CONFIG_BYTES } from './traceLimits';

interface Decoding {
  decode(ids: number[], options: { skip_special_tokens: boolean }): string;
  model: { vocab?: unknown } | null;
}

const port = parentPort;
let loaded: { key: string; tokenizer: Decoding } | null = null;

function post(message: TraceDecoderToHost): void {
  port?.postMessage(message);
}

async function load(request: HostToTraceDecoder): Promise<Decoding> {
  const key = `${request.tokenizerPath}\u0000${request.tokenizerConfigPath ?? ''}`;
  if (loaded?.key === key) return loaded.tokenizer;
  const json = JSON.parse(readSideFile(request.tokenizerPath, MAX_TOKENIZER_BYTES)) as object;
  const config = request.tokenizerConfigPath ? (JSON.parse(readSideFile(request.tokenizerConfigPath, MAX_TOKENIZER_CONFIG_BYTES)) as object) : {};
  const { Tokenizer } = await import('@huggingface/tokenizers');
  const tokenizer = new Tokenizer(json, config) as unknown as Decoding;
  loaded = { key, tokenizer };
  return tokenizer;
}

/**
 * The characters the ids' tokens hold before the decoder runs: a decoder seldom makes text longer
 * than its tokens (byte-level tokens lose characters), so a list far over the cap is refused
 * without building its text.
 */
function tokenChars(tokenizer: Decoding, ids: readonly number[]): number {
  const vocab = tokenizer.model?.vocab;
  if (!Array.isArray(vocab)) return 0;
  let total = 0;
  for (const id of ids) total += typeof vocab[id] === 'string' ? (vocab[id] as string).length : 0;
  return total;
}

function decodeOne(tokenizer: Decoding, ids: number[], maxChars: number): { text: string | null; problem: string | null } {
  if (ids.length === 0) return { text: '', problem: null };
  const before = tokenChars(tokenizer, ids);
  if (before > 4 * maxChars) return { text: null, problem: `its ${ids.length.toLocaleString('en-US')} token ids hold ${before.toLocaleString('en-US')} characters, over the ${maxChars.toLocaleString('en-US')} one line may decode to` };
  // Special tokens are kept: the chat template's tags tell the transcript reader where turns are.
  const text = tokenizer.decode(ids, { skip_special_tokens: false });
  if (text.length > maxChars) return { text: null, problem: `its ${ids.length.toLocaleString('en-US')} token ids decode to ${text.length.toLocaleString('en-US')} characters, over the ${maxChars.toLocaleString('en-US')} one line may decode to` };
  return { text, problem: null };
}

port?.on('message', (message: unknown) => {
  if (!isHostToTraceDecoder(message)) return;
  void (async () => {
    try {
      const tokenizer = await load(message);
      message.items.forEach((ids, index) => {
        try {
          post({ type: 'text', id: message.id, index, ...decodeOne(tokenizer, ids, message.maxChars) });
        } catch (error) {
          post({ type: 'text', id: message.id, index, text: null, problem: `the tokenizer could not decode them: ${errorText(error)}` });
        }
      });
      post({ type: 'done', id: message.id });
    } catch (error) {
      post({ type: 'failed', id: message.id, message: errorText(error) });
    }
  })();
});
