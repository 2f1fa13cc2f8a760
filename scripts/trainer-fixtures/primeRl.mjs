// prime-rl's episode logs (src/prime_rl/monitors/file.py `log_episodes`): one
// `Episode.to_record()` per line (verifiers v1: pydantic `model_dump(mode="json",
// exclude_none=True)`, the nodes' tensor fields left out) in
// `<output_dir>/rollouts/step_{step}/{train,eval}/{all,effective}/traces.jsonl`. `all` grows as
// episodes complete (a group's episodes are not together); `effective` is the trained-on subset.
// The gsm8k taskset (verifiers environments/gsm8k) puts its instructions in the prompt and the
// gold in `task.data.answer`; its one reward is `correct`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OUT, STEPS, chatml, problem, random, round, shuffle, uuid } from './gsm8k.mjs';

const SYSTEM = "Solve the grade-school math problem. Reason step by step, then give the final answer as a single number on the last line, prefixed with '#### ' (e.g. '#### 42').";

function hex(next, length = 32) {
  return Array.from({ length }, () => Math.floor(next() * 16).toString(16)).join('');
}

function episode({ p, r, groupId, step, kind, next, tokenizer }) {
  const prompt = `${SYSTEM}\n\n${p.question}`;
  const data = { idx: p.index, prompt, answer: p.gold, network_allow: ['*'], network_block: [], artifacts: [], timeout: {}, resources: {} };
  const task = { type: 'GSM8KTask', data, key: hex(next, 64), hash: hex(next, 64) };
  const started = 1766000000 + step * 60 + next() * 30;
  const userIds = tokenizer.encode(chatml([{ role: 'user', content: prompt }]));
  const replyIds = [...tokenizer.encode(r.text), 151645];
  const logprobs = replyIds.map(() => round(-next() * 0.8, 4));
  const score = r.isCorrect ? 1.0 : 0.0;
  const trace = {
    version: 1,
    id: hex(next),
    verifiers: { version: '0.2.0', commit: hex(next, 40) },
    task,
    agent: { config: { model: 'Qwen/Qwen2.5-1.5B-Instruct', timeout: {}, retries: {} }, name: 'agent', trainable: kind === 'train' },
    tools: [],
    nodes: [
      { message: { role: 'user', content: prompt }, sampled: false, timestamp: started, token_ids: userIds, mask: userIds.map(() => false), is_content: [], logprobs: [] },
      { parent: 0, message: { role: 'assistant', content: r.text }, sampled: true, timestamp: started + 4.2, token_ids: replyIds, mask: replyIds.map(() => true), is_content: [], logprobs },
    ],
    calls: [{ node: 1, model: 'Qwen/Qwen2.5-1.5B-Instruct', endpoint: '/chat/completions', finish_reason: 'stop', usage: { input_tokens: userIds.length, output_tokens: replyIds.length, total_tokens: userIds.length + replyIds.length }, time: { start: started, end: started + 4.2 } }],
    request_rewrites: [],
    response_rewrites: [],
    rewards: { correct: { score, weight: 1.0 } },
    metrics: {},
    info: {},
    extra_usage: [],
    is_completed: true,
    ok: true,
    stop_condition: 'stop',
    errors: [],
    timing: { start: started, boot: { start: 0, end: 0 }, setup: { start: started, end: started + 0.1 }, agent: { start: started + 0.1, end: started + 4.2, model: { duration: 4.1 }, harness: { duration: 0 } }, finalize: { start: 0, end: 0 }, scoring: { start: started + 4.2, end: started + 4.9 } },
  };
  const run = kind === 'train'
    ? { type: 'train', id: 'gsm8k-grpo', work: { type: 'train', step, policy: { start: Math.max(0, step - 1), end: step } } }
    : { type: 'train', id: 'gsm8k-grpo', work: { type: 'eval', step } };
  return { id: hex(next), env: { id: 'gsm8k', name: 'gsm8k' }, task, group: { id: groupId }, run, ok: true, errors: [], traces: [trace] };
}

function write(path, episodes) {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, episodes.map((e) => JSON.stringify(e)).join('\n') + '\n');
}

export function writePrimeRl(tokenizer) {
  const next = random(3);
  const root = join(OUT, 'prime-rl/outputs/rollouts');
  for (const [step, indices] of [[0, STEPS[1]], [1, STEPS[2]]]) {
    const all = [];
    const effective = [];
    for (const index of indices) {
      const p = problem(index);
      const groupId = uuid(next);
      const episodes = p.responses.map((r) => episode({ p, r, groupId, step, kind: 'train', next, tokenizer }));
      all.push(...episodes);
      // A group whose rewards all agree carries no signal and is not trained on.
      if (new Set(p.responses.map((r) => r.isCorrect)).size > 1) effective.push(...episodes);
    }
    write(join(root, `step_${step}/train/all/traces.jsonl`), shuffle(all, next));
    write(join(root, `step_${step}/train/effective/traces.jsonl`), effective);
  }
  const evalEpisodes = STEPS[3].map((index) => {
    const p = problem(index);
    return episode({ p, r: p.responses[3], groupId: uuid(next), step: 1, kind: 'eval', next, tokenizer });
  });
  write(join(root, 'step_1/eval/all/traces.jsonl'), evalEpisodes);
}
