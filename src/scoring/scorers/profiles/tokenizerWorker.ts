/**
 * The tokenizer worker (bundled to `dist/tokenizerWorker.js`): the model folder's own tokenizer,
 * alone in a thread, so that a `tokenizer.json` whose pre-tokenizer pattern backtracks without end
 * (a regex is code the model folder ships) can be stopped by ending the thread. It loads the
 * tokenizer, resolves the profile against it and tokenizes one fixed rollout before saying it is
 * loaded; then each rollout's input ids are posted as soon as they are built.
 */
import { parentPort } from 'node:worker_threads';
import { isHostToTokenizer, type HostToTokenizer, type TokenizerToHost } from '../../../protocol/tokenizer';
import { SMOKE_ROLLOUT } from '../probes';
import { buildPrmInput } from './prmInput';
import { resolveProfile, type PrmProfile, type ProfileManifest } from './profile';
import { loadPrmTokenizer, type PrmTokenizer } from './checkpointTokenizer';
import { errorText } from '../../../core/errorText';

const port = parentPort;
let loaded: { modelDir: string; tokenizer: PrmTokenizer; profile: PrmProfile } | null = null;

function post(message: TokenizerToHost): void {
  port?.postMessage(message);
}

async function load(request: HostToTokenizer): Promise<{ tokenizer: PrmTokenizer; profile: PrmProfile }> {
  if (loaded?.modelDir === request.modelDir) return loaded;
  const tokenizer = await loadPrmTokenizer(request.modelDir);
  // The host parsed the manifest (`parseProfileManifest`) before sending it.
  const profile = resolveProfile(request.manifest as ProfileManifest, tokenizer);
  // A rollout like any other, tokenized before the tokenizer is called loaded: a pattern that
  // backtracks on ordinary text stops here, within the loading budget.
  buildPrmInput({ profile, tokenizer, prompt: SMOKE_ROLLOUT.prompt, steps: SMOKE_ROLLOUT.steps });
  loaded = { modelDir: request.modelDir, tokenizer, profile };
  return loaded;
}

port?.on('message', (message: unknown) => {
  if (!isHostToTokenizer(message)) return;
  void (async () => {
    try {
      const { tokenizer, profile } = await load(message);
      post({ type: 'loaded', id: message.id, profile });
      message.items.forEach((item, index) => {
        try {
          post({ type: 'input', id: message.id, index, input: buildPrmInput({ profile, tokenizer, prompt: item.prompt, steps: item.steps }), error: null });
        } catch (error) {
          post({ type: 'input', id: message.id, index, input: null, error: errorText(error) });
        }
      });
      post({ type: 'done', id: message.id });
    } catch (error) {
      post({ type: 'failed', id: message.id, message: errorText(error) });
    }
  })();
});
