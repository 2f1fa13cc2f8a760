/**
 * The model parts of the setup check: a model folder is validated step by step with the same
 * functions the ONNX scorer uses (manifest parser, tokenizer loader, the worker's session checks),
 * then scores one short rollout. Each step becomes a report line, so a user sees which step failed
 * and why. (Endpoints: setupEndpointCheck.ts.)
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createOnnxScorer } from '../scorers/onnx/onnxScorer';
import { parseProfileManifest, type ProfileManifest } from '../scorers/profiles/profile';
import { TokenizerClient } from '../scorers/profiles/tokenizerClient';
import { SMOKE_ROLLOUT } from '../scorers/probes';
import { describeScoring, elapsed, messageOf, type CheckLine, type CheckSection } from './checkLines';

const REQUIRED_FILES = ['model.onnx', 'tokenizer.json', 'tokenizer_config.json', 'prof-lens.json'];

function fileSize(bytes: number): string {
  if (bytes >= 2 ** 30) return `${(bytes / 2 ** 30).toFixed(1)} GiB`;
  if (bytes >= 2 ** 20) return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  return bytes >= 2 ** 10 ? `${(bytes / 2 ** 10).toFixed(1)} KiB` : `${bytes} B`;
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
    const tokens = new TokenizerClient({ modelDir, manifest });
    const profile = await tokens.load().finally(() => tokens.dispose());
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
