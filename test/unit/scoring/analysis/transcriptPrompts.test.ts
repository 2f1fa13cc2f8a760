/**
 * What the scorers receive for a rollout whose prompt is a rendered chat (verl's tool rollouts:
 * the stripped ChatML `system\n…\nuser\n…\nassistant\n`, a system prompt with the tool list): the
 * question alone, as the PRM's card asks, and steps from the assistant's text only.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyseText } from '../../../../src/scoring/analysis/analyse';
import { createHttpScorer } from '../../../../src/scoring/scorers/http/httpScorer';
import { createCriticScorer } from '../../../../src/scoring/scorers/critic/criticScorer';
import { buildPrmInput } from '../../../../src/scoring/scorers/profiles/prmInput';
import { parseProfileManifest, resolveProfile } from '../../../../src/scoring/scorers/profiles/profile';
import { prepareRecord } from '../../../../src/core/formats/prepareRollout';
import { readText } from '../../../../src/core/read/reader';
import { resolveSettings } from '../../../../src/core/profSettings';
import { qwenTokenizer } from '../scorers/onnx/fixtures';
import { startFakeServer, type FakeServer } from '../scorers/http/fakePoolingServer';
import { paragraphsOf, startFakeChatServer, type ChatBody, type FakeChatServer } from '../scorers/critic/fakeChatServer';

const STEP_FILE = join(__dirname, '../../../fixtures/trainers/verl/rollout_data/3.jsonl');
/** One tool rollout of the step file: its line and the question its user turn asks. */
const lines = readFileSync(STEP_FILE, 'utf8').split('\n').filter((l) => l.includes('calc_gsm8k_reward'));
const line = lines[0]!;
const input = (JSON.parse(line) as { input: string }).input;
const QUESTION = input.slice(input.indexOf('\nuser\n') + '\nuser\n'.length, input.length - '\nassistant\n'.length);

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('a chat transcript prompt reaches the scorers as its question alone', () => {
  it('the question is the user turn, without role words or the system prompt with its tools', () => {
    expect(QUESTION).toMatch(/Let's think step by step and output the final answer after `####`\.$/);
    const [rollout] = prepareRecord(readText(line).records[0]!, { settings: resolveSettings(), rawOffsets: false, firstId: 0 }).rollouts;
    expect(rollout!.rollout.prompt).toBe(QUESTION);
  });

  it('/pooling gets ChatML around the question, and only the assistant\'s steps', async () => {
    const server: FakeServer = await startFakeServer();
    servers.push(server);
    const modelScorer = createHttpScorer({ urls: [server.url], modelName: 'Qwen/Qwen2.5-Math-PRM-7B', retryBaseMs: 1 });
    await analyseText(line, { fileName: 'x.jsonl', scorer: 'http', modelScorer });
    const body = server.requests.find((r) => r.path === '/pooling')?.body as { input: string };
    expect(body.input).toContain(`<|im_start|>user\n${QUESTION}<|im_end|>`);
    expect(body.input).not.toContain('You are a math expert');
    expect(body.input).not.toMatch(/<\|im_start\|>user\nsystem\n/);
    expect(body.input).not.toContain('<tool_response>');
    expect(body.input).not.toContain('<tool_call>');
    await modelScorer.dispose();
  });

  it('the critic gets the question as the problem, and the assistant\'s steps as its paragraphs', async () => {
    const server: FakeChatServer = await startFakeChatServer();
    servers.push(server);
    const modelScorer = createCriticScorer({ urls: [server.url], retryBaseMs: 1 });
    await analyseText(line, { fileName: 'x.jsonl', scorer: 'critic', modelScorer });
    const content = (server.chats()[0]?.body as ChatBody).messages?.[0]?.content ?? '';
    expect(content).toContain(QUESTION);
    expect(content).not.toContain('You are a math expert');
    expect(paragraphsOf(content).some((p) => p.includes('<tool_response>') || p.includes('calc_gsm8k_reward'))).toBe(false);
    await modelScorer.dispose();
  });

  it('the ONNX PRM input is built from the question, as for a plain prompt', () => {
    const tokenizer = qwenTokenizer();
    const profile = resolveProfile(parseProfileManifest({ model: 'test', profile: 'qwen-prm' }), tokenizer);
    const [prepared] = prepareRecord(readText(line).records[0]!, { settings: resolveSettings(), rawOffsets: false, firstId: 0 }).rollouts;
    const steps = prepared!.steps.map((s) => s.text);
    const built = buildPrmInput({ profile, tokenizer, prompt: prepared!.rollout.prompt, steps });
    expect(built).toEqual(buildPrmInput({ profile, tokenizer, prompt: QUESTION, steps }));
    expect(built.ids.join(',')).not.toContain(tokenizer.encode('You are a math expert').join(','));
  });
});
