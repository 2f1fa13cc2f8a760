/**
 * The model parts of the setup check: a model folder is validated step by step with the same
 * functions the ONNX scorer uses (manifest parser, tokenizer loader, the worker's session checks),
 * then scores one short rollout; an endpoint is asked for its models and scores the same rollout.
 * Each step becomes a report line, so a user sees which step failed and why.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { StepScoring } from '../core/model';
import { createHttpScorer } from './http/httpScorer';
import { createOnnxScorer } from './onnx/onnxScorer';
import { parseProfileManifest, resolveProfile, type ProfileManifest } from './profiles/profile';
import { loadPrmTokenizer } from './profiles/tokenizer';
import type { ScoreItem } from './scorer';
import type { CheckLine, CheckSection } from './setupCheck';

/** The rollout every smoke score uses: short, three steps, plain arithmetic. */
export const SMOKE_ROLLOUT: ScoreItem = {
  id: 0,
  prompt: 'A box holds 12 pencils. How many pencils are in 3 boxes?',
  steps: ['Each box holds 12 pencils.', 'Three boxes hold 3 × 12 = 36 pencils.', 'The answer is \\boxed{36}.'],
};

const REQUIRED_FILES = ['model.onnx', 'tokenizer.json', 'tokenizer_config.json', 'prof-lens.json'];
const SMOKE_TIMEOUT_MS = 30_000;

/** An error's first line without a trailing full stop, for a report line. */
export function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!.replace(/\.$/, '');
}

function fileSize(bytes: number): string {
  if (bytes >= 2 ** 30) return `${(bytes / 2 ** 30).toFixed(1)} GiB`;
  if (bytes >= 2 ** 20) return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  return bytes >= 2 ** 10 ? `${(bytes / 2 ** 10).toFixed(1)} KiB` : `${bytes} B`;
}

function elapsed(since: number): string {
  return `${Math.round(performance.now() - since)} ms`;
}

function describeScoring(result: StepScoring | undefined, since: number): CheckLine {
  if (result?.kind !== 'scored') {
    return { status: 'error', label: 'smoke score', detail: `the rollout was not scored: ${result?.reason ?? 'no result'}` };
  }
  const scores = result.scores.map((s) => (s === null ? 'null' : s.toFixed(3))).join(', ');
  return { status: 'ok', label: 'smoke score', detail: `${result.scores.length} steps scored in ${elapsed(since)}: ${scores}` };
}

async function filesLine(modelDir: string): Promise<CheckLine> {
  const info = await stat(modelDir).catch(() => null);
  if (!info?.isDirectory()) return { status: 'error', label: 'files', detail: `${modelDir} is not a folder` };
  const sizes = await Promise.all(
    [...REQUIRED_FILES, 'model.onnx_data'].map(async (name) => [name, (await stat(join(modelDir, name)).catch(() => null))?.size] as const),
  );
  const missing = sizes.filter(([name, size]) => size === undefined && name !== 'model.onnx_data').map(([name]) => name);
  if (missing.length > 0) return { status: 'error', label: 'files', detail: `missing ${missing.join(', ')}` };
  const present = sizes.filter(([, size]) => size !== undefined).map(([name, size]) => `${name} ${fileSize(size ?? 0)}`);
  return { status: 'ok', label: 'files', detail: present.join(', ') };
}

async function manifestStep(modelDir: string): Promise<{ line: CheckLine; manifest: ProfileManifest | null }> {
  try {
    const manifest = parseProfileManifest(JSON.parse(await readFile(join(modelDir, 'prof-lens.json'), 'utf8')) as unknown);
    return { line: { status: 'ok', label: 'prof-lens.json', detail: `profile ${manifest.profile}, model ${manifest.model}` }, manifest };
  } catch (error) {
    return { line: { status: 'error', label: 'prof-lens.json', detail: messageOf(error) }, manifest: null };
  }
}

async function tokenizerLine(modelDir: string, manifest: ProfileManifest): Promise<CheckLine> {
  try {
    const since = performance.now();
    const profile = resolveProfile(manifest, await loadPrmTokenizer(modelDir));
    const detail = `loads in ${elapsed(since)}; step separator id ${profile.separatorId}, pad id ${profile.padId}, context ${profile.maxTokens} tokens`;
    return { status: 'ok', label: 'tokenizer', detail };
  } catch (error) {
    return { status: 'error', label: 'tokenizer', detail: messageOf(error) };
  }
}

interface SessionCheck {
  modelDir: string;
  workerPath?: string;
  providers?: string[];
}

/** Opens the model with the ONNX scorer (the worker checks inputs and outputs) and scores one rollout. */
async function sessionLines(options: SessionCheck, profile: string): Promise<{ lines: CheckLine[]; provider: string | null }> {
  const scorer = await createOnnxScorer(options);
  try {
    const since = performance.now();
    const info = await scorer.start();
    const provider = info.provider ?? null;
    const opened: CheckLine = info.fallbackReason
      ? { status: 'warning', label: 'session', detail: `opened on ${provider} in ${elapsed(since)}; ${info.fallbackReason} (GPU set-up: docs/gpu.md)` }
      : { status: 'ok', label: 'session', detail: `opened on ${provider} in ${elapsed(since)}` };
    const io = scorer.modelIo;
    const ioDetail = `inputs ${io?.inputNames.join(', ') ?? '?'}; output ${io?.outputName ?? '?'} (names, types and shapes fit ${profile})`;
    const scoredAt = performance.now();
    const [result] = await scorer.score([SMOKE_ROLLOUT]);
    return { lines: [opened, { status: 'ok', label: 'inputs/outputs', detail: ioDetail }, describeScoring(result, scoredAt)], provider };
  } finally {
    await scorer.dispose();
  }
}

/** Validates a model folder and scores one rollout with it. */
export async function checkModelFolder(options: SessionCheck): Promise<{ section: CheckSection; provider: string | null }> {
  const lines: CheckLine[] = [{ status: 'info', label: 'folder', detail: options.modelDir }];
  const section = { title: 'Model folder', lines };
  lines.push(await filesLine(options.modelDir));
  // A missing file would only fail again in the steps that read it.
  const { line, manifest } = lines.some((l) => l.status === 'error') ? { line: null, manifest: null } : await manifestStep(options.modelDir);
  if (line) lines.push(line);
  if (manifest) lines.push(await tokenizerLine(options.modelDir, manifest));
  if (lines.some((l) => l.status === 'error') || !manifest) {
    lines.push({ status: 'info', label: 'session', detail: 'not opened: fix the problems above first' });
    return { section, provider: null };
  }
  try {
    const session = await sessionLines(options, manifest.profile);
    lines.push(...session.lines);
    return { section, provider: session.provider };
  } catch (error) {
    lines.push({ status: 'error', label: 'session', detail: messageOf(error) });
    return { section, provider: null };
  }
}

/** Asks a vLLM server for its models (short timeout), then scores one rollout through `/pooling`. */
export async function checkEndpoint(options: { url: string; timeoutMs: number }): Promise<CheckSection> {
  const lines: CheckLine[] = [{ status: 'info', label: 'url', detail: options.url }];
  const section = { title: 'vLLM endpoint', lines };
  let model: string;
  try {
    const since = performance.now();
    const probe = createHttpScorer({ url: options.url, timeoutMs: options.timeoutMs, retries: 0 });
    model = (await probe.ready()).model ?? '';
    await probe.dispose();
    lines.push({ status: 'ok', label: 'GET /v1/models', detail: `answered in ${elapsed(since)}; serves ${model}` });
  } catch (error) {
    lines.push({ status: 'error', label: 'GET /v1/models', detail: messageOf(error) });
    return section;
  }
  const scorer = createHttpScorer({ url: options.url, modelName: model, timeoutMs: SMOKE_TIMEOUT_MS, retries: 0 });
  try {
    const since = performance.now();
    const [result] = await scorer.score([SMOKE_ROLLOUT]);
    lines.push({ ...describeScoring(result, since), label: 'POST /pooling' });
  } catch (error) {
    lines.push({ status: 'error', label: 'POST /pooling', detail: messageOf(error) });
  } finally {
    await scorer.dispose();
  }
  return section;
}
