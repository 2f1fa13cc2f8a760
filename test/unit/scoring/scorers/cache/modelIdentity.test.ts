/**
 * Cached scores follow the model, not its name: a served model swapped behind the same served name
 * (another root, or the same root with other weights) and a model folder overwritten in place with
 * `cp -p` semantics (same size, same mtime) both get fresh scores; an unchanged model is answered
 * from the cache and its files are not hashed again.
 */
import { copyFileSync, cpSync, mkdtempSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { StepScoring } from '../../../../../src/core/model';
import type { ModelConfig } from '../../../../../src/protocol/modelConfig';
import { servedModelIdentity } from '../../../../../src/scoring/scorers/cache/identity';
import { forgetModelHashes, modelContentHash } from '../../../../../src/scoring/scorers/cache/modelHash';
import { openModelScorer } from '../../../../../src/scoring/scorers/modelScorers';
import type { ScoreItem } from '../../../../../src/scoring/scorers/scorer';
import { startFakeChatServer, type FakeChatServer } from '../critic/fakeChatServer';
import { startFakeServer, type FakeServer } from '../http/fakePoolingServer';
import { makeOnnxFixtures, type OnnxFixtures } from '../onnx/fixtures';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'prof-lens-identity-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  forgetModelHashes();
});

const rollouts: ScoreItem[] = [
  { id: 0, prompt: 'What is 3 × 12?', steps: ['Three twelves.', 'That is 3 × 12 = 38.', 'So \\boxed{38}.'] },
  { id: 1, prompt: 'What is 2 + 2?', steps: ['2 + 2 = 4.', 'So \\boxed{4}.'] },
];

/** One session: open the model (behind the cache), score, close. */
async function session(config: ModelConfig): Promise<StepScoring[]> {
  const scorer = await openModelScorer(config);
  try {
    return await scorer.score(rollouts);
  } finally {
    await scorer.dispose();
  }
}

const facts = { id: 'm', root: '/ckpt/a', maxModelLen: 4096, parent: null, ownedBy: 'vllm' };

describe('the identity of a served model', () => {
  it('changes with anything /v1/models says about the model, and with the probe fingerprint', () => {
    const base = servedModelIdentity({ kind: 'http', facts, fingerprint: '0.93,0.88', bases: ['http://a:1'] });
    expect(base.startsWith('http:m#')).toBe(true);
    expect(servedModelIdentity({ kind: 'http', facts: { ...facts, root: '/ckpt/b' }, fingerprint: '0.93,0.88', bases: ['http://a:1'] })).not.toBe(base);
    expect(servedModelIdentity({ kind: 'http', facts: { ...facts, maxModelLen: 8192 }, fingerprint: '0.93,0.88', bases: ['http://a:1'] })).not.toBe(base);
    expect(servedModelIdentity({ kind: 'http', facts, fingerprint: '0.93,0.87', bases: ['http://a:1'] })).not.toBe(base);
  });

  it('is shared by replicas of one checkpoint, but not by two hosts that report no checkpoint', () => {
    const one = servedModelIdentity({ kind: 'critic', facts, fingerprint: 'f', bases: ['http://a:1'] });
    expect(servedModelIdentity({ kind: 'critic', facts, fingerprint: 'f', bases: ['http://b:2', 'http://a:1'] })).toBe(one);
    const hosted = { ...facts, root: null };
    const x = servedModelIdentity({ kind: 'critic', facts: hosted, fingerprint: 'f', bases: ['https://api.one.example'] });
    expect(servedModelIdentity({ kind: 'critic', facts: hosted, fingerprint: 'f', bases: ['https://api.two.example'] })).not.toBe(x);
  });
});

describe('a PRM swapped behind the same served name gets fresh scores', () => {
  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeServer({ model: { root: '/ckpt/prm-v1', maxModelLen: 4096 } });
  });
  afterAll(() => server.close());

  it('is answered from the cache while unchanged, and asked again after each kind of swap', async () => {
    const config: ModelConfig = { kind: 'http', urls: [server.url], cacheDir: tempDir() };
    const pooling = (): number => server.requests.filter((r) => r.path === '/pooling').length;
    const first = await session(config);
    // One probe per session, plus one request per rollout.
    expect(pooling()).toBe(1 + rollouts.length);
    expect(await session(config)).toEqual(first);
    expect(pooling()).toBe(2 + rollouts.length);
    server.swap({ root: '/ckpt/prm-v1', maxModelLen: 4096, shift: 0.1 });
    const sameRootNewWeights = await session(config);
    expect(pooling()).toBe(3 + 2 * rollouts.length);
    expect(sameRootNewWeights).not.toEqual(first);
    server.swap({ root: '/ckpt/prm-v2', maxModelLen: 4096, shift: 0.1 });
    expect(await session(config)).toEqual(sameRootNewWeights);
    expect(pooling()).toBe(4 + 3 * rollouts.length);
  });
});

describe('a critic swapped behind the same served name gets fresh judgements', () => {
  let server: FakeChatServer;
  beforeAll(async () => {
    server = await startFakeChatServer();
  });
  afterAll(() => server.close());

  it('keys its cache on the checkpoint, its verdict on a fixed probe, the prompt version and max_tokens', async () => {
    const config: ModelConfig = { kind: 'critic', urls: [server.url], cacheDir: tempDir() };
    const chats = (): number => server.chats().length;
    const first = await session(config);
    expect(first[0]).toMatchObject({ scores: [1, 0, null] });
    expect(chats()).toBe(1 + rollouts.length);
    await session(config);
    expect(chats()).toBe(2 + rollouts.length);
    await session({ ...config, maxTokens: 1024 });
    expect(chats()).toBe(3 + 2 * rollouts.length);
    // Same root, another judge: the probe's verdict moves, so nothing cached is reused.
    server.swap({ verdictShift: 1 });
    const second = await session(config);
    expect(second[0]).toMatchObject({ scores: [1, 1, 0] });
    expect(chats()).toBe(4 + 3 * rollouts.length);
    server.swap({ root: '/models/fake-critic-7b-v2', verdictShift: 1 });
    await session(config);
    expect(chats()).toBe(5 + 4 * rollouts.length);
  });
});

describe('a model folder is known by the content of its files', () => {
  let fx: OnnxFixtures;
  beforeAll(async () => {
    fx = await makeOnnxFixtures(['tiny', 'tiny-retrained']);
  });
  afterAll(() => fx.cleanup());

  it('hashes the files once, then only checks size, mtime, ctime and inode, even in a new process', async () => {
    const folder = join(tempDir(), 'model');
    cpSync(fx.model('tiny'), folder, { recursive: true });
    const remember = tempDir();
    const hashed: string[] = [];
    const first = await modelContentHash(folder, { rememberIn: remember, onHashFile: (f) => hashed.push(f) });
    expect(hashed.map((f) => f.slice(folder.length + 1)).sort()).toEqual(['model.onnx', 'prof-lens.json', 'tokenizer.json', 'tokenizer_config.json']);
    forgetModelHashes();
    hashed.length = 0;
    expect(await modelContentHash(folder, { rememberIn: remember, onHashFile: (f) => hashed.push(f) })).toBe(first);
    expect(hashed).toEqual([]);
    // Touching a file makes it look changed, so it is hashed again, and the content says it is the same model.
    utimesSync(join(folder, 'model.onnx'), new Date(), new Date(Date.now() + 5_000));
    expect(await modelContentHash(folder, { rememberIn: remember, onHashFile: (f) => hashed.push(f) })).toBe(first);
    expect(hashed.length).toBeGreaterThan(0);
  });

  it('scores afresh after a re-export is copied over it keeping size and mtime (cp -p)', async () => {
    const folder = join(tempDir(), 'model');
    cpSync(fx.model('tiny'), folder, { recursive: true });
    const config: ModelConfig = { kind: 'onnx', modelDir: folder, workerPath: fx.workerPath, providers: ['cpu'], cacheDir: tempDir() };
    const before = statSync(join(folder, 'model.onnx'));
    const old = await session(config);
    expect(await session(config)).toEqual(old);
    copyFileSync(fx.model('tiny-retrained') + '/model.onnx', join(folder, 'model.onnx'));
    utimesSync(join(folder, 'model.onnx'), before.atimeMs / 1000, before.mtimeMs / 1000);
    const after = statSync(join(folder, 'model.onnx'));
    expect([after.size, Math.round(after.mtimeMs)]).toEqual([before.size, Math.round(before.mtimeMs)]);
    const swapped = await session(config);
    const fresh = await session({ ...config, modelDir: fx.model('tiny-retrained'), cacheDir: null });
    expect(swapped).not.toEqual(old);
    expect(swapped.map((s) => (s.kind === 'scored' ? s.scores : null))).toEqual(fresh.map((s) => (s.kind === 'scored' ? s.scores : null)));
  }, 60_000);
});
