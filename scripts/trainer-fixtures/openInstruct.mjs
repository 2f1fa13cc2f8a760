// open-instruct's saved traces (open_instruct/rl_utils.py: `save_rollout_metadata`,
// `_save_rollouts`, turned on by `save_traces`): `{run_name}_metadata.jsonl` (run, commit, model,
// time) and `{run_name}_rollouts_{shard:06d}.jsonl`, one `RolloutRecord` per line: token ids only
// (the prompt rendered with the chat template and tokenized; the sampled response tokens), the
// total `reward` (the verifiable reward is 10.0 when the answer is right), `advantage`,
// `prompt_idx` = sample // samples per prompt within the step.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OUT, STEPS, advantages, chatml, problem, pyDumps, random, round } from './gsm8k.mjs';

const FLOATS = new Set(['reward', 'advantage', 'tool_runtimes', 'logprobs']);

export const OPEN_INSTRUCT_MODEL = 'Qwen/Qwen2.5-0.5B-Instruct';
const RUN = 'grpo_qwen_gsm8k__1__1766000000';

export function writeOpenInstruct(tokenizer) {
  const dir = join(OUT, 'open-instruct/rollouts');
  mkdirSync(dir, { recursive: true });
  const metadata = { run_name: RUN, git_commit: 'e6c3044aa6201c8bfa4573c1b03142af599e730d', model_name: OPEN_INSTRUCT_MODEL, timestamp: '2026-08-20T10:12:03.511204+00:00' };
  writeFileSync(join(dir, `${RUN}_metadata.jsonl`), pyDumps(metadata) + '\n');
  const next = random(11);
  const lines = [];
  for (const step of ['1', '2']) {
    let sample = 0;
    for (const index of STEPS[step]) {
      const p = problem(index);
      const promptTokens = tokenizer.encode(chatml([{ role: 'user', content: `${p.question} Put your final answer after ####.` }]));
      const rewards = p.responses.map((r) => (r.isCorrect ? 10.0 : 0.0));
      const adv = advantages(rewards);
      p.responses.forEach((r, i) => {
        const responseTokens = [...tokenizer.encode(r.text), 151645];
        lines.push({
          step: Number(step),
          sample_idx: sample,
          prompt_idx: Math.floor(sample / p.responses.length),
          prompt_tokens: promptTokens,
          response_tokens: responseTokens,
          reward: rewards[i],
          advantage: adv[i],
          finish_reason: 'stop',
          dataset: 'gsm8k',
          ground_truth: p.gold,
          request_info: { num_calls: 0, timeouts: 0, tool_errors: '', tool_outputs: '', tool_runtimes: 0.0, tool_calleds: false, tool_call_stats: [], rollout_state: {} },
          logprobs: responseTokens.map(() => round(-next() * 0.7, 4)),
        });
        sample++;
      });
    }
  }
  writeFileSync(join(dir, `${RUN}_rollouts_000000.jsonl`), lines.map((l) => pyDumps(l, { floatKeys: FLOATS })).join('\n') + '\n');
}
