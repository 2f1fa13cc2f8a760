/**
 * The setup check on real model folders (tiny generated models through the real onnxruntime-node;
 * their scores test plumbing only) and a local stand-in for a vLLM server: each step that can fail
 * fails on its own line with a message a user can act on, and the smoke scores are the model's.
 */
import { rmSync, writeFileSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPrmInput } from '../../../../src/scoring/scorers/profiles/prmInput';
import { formatSetupReport, runSetupCheck, type CheckLine, type SetupCheckOptions, type SetupReport } from '../../../../src/scoring/setup/setupCheck';
import { SMOKE_ROLLOUT } from '../../../../src/scoring/scorers/probes';
import { startFakeChatServer } from '../scorers/critic/fakeChatServer';
import { fakeScore, startFakeServer, type FakeServer } from '../scorers/http/fakePoolingServer';
import { makeOnnxFixtures, qwenTokenizer, tinyScore, type OnnxFixtures } from '../scorers/onnx/fixtures';

let fx: OnnxFixtures;
let server: FakeServer;

beforeAll(async () => {
  fx = await makeOnnxFixtures(['tiny', 'tiny-bad-inputs']);
  server = await startFakeServer({ modelId: 'Qwen/Qwen2.5-Math-PRM-7B' });
});
afterAll(async () => {
  await server.close();
  fx.cleanup();
});

function check(options: Partial<SetupCheckOptions>): Promise<SetupReport> {
  return runSetupCheck({ version: '9.9.9', host: 'unit test', workerPath: fx.workerPath, providers: ['cpu'], ...options });
}

function line(report: SetupReport, section: string, label: string): CheckLine | undefined {
  return report.sections.find((s) => s.title === section)?.lines.find((l) => l.label === label);
}

/** The tiny model's score at each separator of the smoke rollout, from its construction. */
function expectedSmokeScores(): string {
  const profile = {
    name: 'qwen-prm', model: 't', maxTokens: 4096, separatorId: 151651, readout: { kind: 'softmax', labelIndex: 1 },
    bosId: null, padId: 151643, promptSuffix: '\n',
  } as const;
  const input = buildPrmInput({ profile, tokenizer: qwenTokenizer(), prompt: SMOKE_ROLLOUT.prompt, steps: SMOKE_ROLLOUT.steps });
  return input.separatorPositions.map((p) => tinyScore(input.ids, p).toFixed(3)).join(', ');
}

describe('setup check', () => {
  it('validates a model folder step by step and smoke-scores one rollout on the provider that runs', async () => {
    const report = await check({ modelDir: fx.model('tiny') });
    expect(report.errors).toBe(0);
    expect(report.activeProvider).toBe('cpu');
    expect(line(report, 'Model folder', 'files')?.status).toBe('ok');
    expect(line(report, 'Model folder', 'prof-lens.json')?.detail).toBe('profile qwen-prm, model tiny-test-model (not a PRM)');
    expect(line(report, 'Model folder', 'tokenizer')?.detail).toMatch(/step separator id 151651/);
    expect(line(report, 'Model folder', 'session')?.detail).toMatch(/^opened on cpu in \d+ ms$/);
    expect(line(report, 'Model folder', 'inputs/outputs')?.detail).toMatch(/^inputs input_ids, attention_mask; output logits/);
    expect(line(report, 'Model folder', 'smoke score')?.detail).toMatch(new RegExp(`^3 steps scored in \\d+ ms: ${expectedSmokeScores()}$`));
  });

  it('reports versions, the platform and the execution providers onnxruntime offers', async () => {
    const report = await check({});
    expect(line(report, 'Environment', 'PROF Lens')?.detail).toBe('9.9.9');
    expect(line(report, 'Environment', 'Node')?.detail).toContain(process.versions.node);
    expect(line(report, 'ONNX Runtime', 'onnxruntime-node')).toMatchObject({ status: 'ok', detail: expect.stringMatching(/^1\.30\.0 from .*napi-v6/) });
    expect(line(report, 'ONNX Runtime', 'providers here')?.detail).toContain('cpu (bundled)');
    expect(line(report, 'ONNX Runtime', 'tried in order')?.detail).toMatch(/^cpu /);
    expect(line(report, 'Model folder', 'not configured')?.status).toBe('info');
    expect(report.activeProvider).toBeNull();
  });

  it('names the missing files and opens nothing', async () => {
    const dir = join(fx.root, 'incomplete');
    cpSync(fx.model('tiny'), dir, { recursive: true });
    rmSync(join(dir, 'tokenizer_config.json'));
    const report = await check({ modelDir: dir });
    expect(line(report, 'Model folder', 'files')).toEqual({ status: 'error', label: 'files', detail: 'missing tokenizer_config.json' });
    expect(line(report, 'Model folder', 'session')?.detail).toBe('not opened: fix the problems above first');
    expect(report.errors).toBe(1);
  });

  it('says which manifest field is wrong', async () => {
    const dir = join(fx.root, 'bad-manifest');
    cpSync(fx.model('tiny'), dir, { recursive: true });
    writeFileSync(join(dir, 'prof-lens.json'), JSON.stringify({ profile: 'qwen', model: 'x' }));
    const report = await check({ modelDir: dir });
    expect(line(report, 'Model folder', 'prof-lens.json')?.detail).toMatch(/"profile" must be one of qwen-prm, skywork-prm/);
  });

  it('reports a model whose inputs do not fit its profile as a session error', async () => {
    const report = await check({ modelDir: fx.model('tiny-bad-inputs') });
    expect(line(report, 'Model folder', 'session')).toMatchObject({ status: 'error', detail: expect.stringContaining('model inputs do not fit the qwen-prm profile') });
    expect(report.activeProvider).toBeNull();
  });

  it('reaches an endpoint: its served model, then one /pooling request scored per step', async () => {
    const report = await check({ endpointUrls: [server.url] });
    expect(line(report, 'vLLM endpoint', 'GET /v1/models')?.detail).toMatch(/^answered in \d+ ms; serves Qwen\/Qwen2\.5-Math-PRM-7B \(max_model_len 4096\)$/);
    const scores = SMOKE_ROLLOUT.steps.map((s) => fakeScore(s).toFixed(3)).join(', ');
    expect(line(report, 'vLLM endpoint', 'POST /pooling')?.detail).toMatch(new RegExp(`^3 steps scored in \\d+ ms: ${scores}$`));
  });

  it('checks each of several endpoints, saying which one is down', async () => {
    const report = await check({ endpointUrls: [server.url, 'http://127.0.0.1:9'], endpointTimeoutMs: 500 });
    const lines = report.sections.find((s) => s.title === 'vLLM endpoint')?.lines ?? [];
    expect(lines.map((l) => `${l.status} ${l.label}`)).toEqual(['info url', 'ok GET /v1/models', 'ok POST /pooling', 'info url', 'error GET /v1/models']);
    expect(lines[4]?.detail).toContain('cannot reach http://127.0.0.1:9/v1/models');
  });

  it('asks a critic to judge a tiny solution with a planted error', async () => {
    const critic = await startFakeChatServer();
    const misjudging = await startFakeChatServer({ onChat: () => ({ content: 'All fine. \\boxed{-1}' }) });
    try {
      const report = await check({ critic: { urls: [critic.url, misjudging.url] } });
      const lines = report.sections.find((s) => s.title === 'Critic endpoint')?.lines ?? [];
      expect(lines.map((l) => `${l.status} ${l.label}`)).toEqual(['info url', 'ok GET /v1/models', 'ok judged example', 'info url', 'ok GET /v1/models', 'warning judged example']);
      expect(lines[1]?.detail).toMatch(/serves fake-critic-7b \(root \/models\/fake-critic-7b, max_model_len 32768\)$/);
      expect(lines[2]?.detail).toMatch(/^found the planted error in paragraph 1 in \d+ ms \(flagged by the critic: 3 × 12 is 36, not 38\.\)$/);
      expect(lines[5]?.detail).toContain('with no error; the planted error is in paragraph 1');
    } finally {
      await Promise.all([critic.close(), misjudging.close()]);
    }
  });

  it('warns when an API key would go over plain http to another machine', async () => {
    const report = await runSetupCheck({ version: '1', host: 't', endpointUrls: ['http://192.0.2.1:8000'], apiKey: 'sk-123456', endpointTimeoutMs: 300 });
    expect(line(report, 'vLLM endpoint', 'API key')).toMatchObject({ status: 'warning', detail: expect.stringContaining('unencrypted (plain http) to 192.0.2.1:8000') });
    expect(JSON.stringify(report)).not.toContain('sk-123456');
  });

  it('says plainly when the endpoint cannot be reached, within the timeout', async () => {
    const started = Date.now();
    const report = await runSetupCheck({ version: '1', host: 't', endpointUrls: ['http://127.0.0.1:9'], endpointTimeoutMs: 500 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(line(report, 'vLLM endpoint', 'GET /v1/models')).toMatchObject({ status: 'error', detail: expect.stringContaining('cannot reach http://127.0.0.1:9/v1/models') });
  });

  it('formats a verdict, the active provider and one marked line per finding', async () => {
    const report = await check({ modelDir: fx.model('tiny-bad-inputs') });
    const text = formatSetupReport(report);
    expect(text.split('\n').slice(0, 2)).toEqual(['PROF Lens setup check: 1 problem', 'Active execution provider: none yet (decided when a model folder is opened)']);
    expect(text).toMatch(/\n {2}✗ session {12}model inputs do not fit/);
    expect(text).toMatch(/\n {2}✓ files {14}model\.onnx /);
  });
});
