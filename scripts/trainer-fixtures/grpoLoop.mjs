// A hand-written GRPO loop's run folder, as a first RL loop on r1-zero-style math writes one: a
// folder per sampled step, `grpo_step_{step:06d}/sample_rollouts.jsonl` (one rollout per line,
// Python's `json.dumps`), with the run's `metrics.jsonl`, its `config.json` and one evaluation
// summary per evaluated step beside them. Each rollout carries the clean `question`, the r1-zero
// `prompt` ("A conversation between User and Assistant … User: <q>\nAssistant: <think>"), the
// `response` (which closes the think block and answers in `<answer>` tags), the `answer`, and the
// r1-zero grader's three rewards.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OUT, STEPS, problem, pyDumps, random, round } from './gsm8k.mjs';

const R1_ZERO = 'A conversation between User and Assistant. The User asks a question, and the Assistant solves it. The Assistant first thinks about the reasoning process in the mind and then provides the User with the answer. The reasoning process is enclosed within <think> </think> and answer is enclosed within <answer> </answer> tags, respectively, i.e., <think> reasoning process here </think> <answer> answer here </answer>.\nUser: {question}\nAssistant: <think>';

const FLOATS = new Set(['reward', 'format_reward', 'answer_reward', 'loss', 'reward_mean', 'reward_std', 'lr', 'grad_norm', 'accuracy', 'format_rate', 'mean_response_length']);

/** The run's global steps that sampled rollouts were saved at, and the problems of each. */
const SAVED = [[100, STEPS[1]], [200, STEPS[2]], [300, STEPS[3]]];

export function writeGrpoLoop() {
  const run = join(OUT, 'grpo-loop/runs/qwen2.5-math-1.5b-r1zero');
  for (const [step, indices] of SAVED) {
    const lines = [];
    for (const index of indices) {
      const p = problem(index, (a) => `</think> <answer>${a}</answer>`);
      for (const r of p.responses) {
        const reward = r.isCorrect ? 1.0 : 0.0;
        lines.push(pyDumps({
          question: p.question,
          prompt: R1_ZERO.replace('{question}', p.question),
          response: r.text,
          answer: p.gold,
          reward,
          format_reward: 1.0,
          answer_reward: reward,
        }, { floatKeys: FLOATS }));
      }
    }
    const dir = join(run, `grpo_step_${String(step).padStart(6, '0')}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'sample_rollouts.jsonl'), lines.join('\n') + '\n');
  }
  const next = random(31);
  const metrics = [];
  for (let step = 10; step <= 300; step += 10) {
    metrics.push(pyDumps({
      step,
      loss: round(0.05 - next() * 0.1, 6),
      reward_mean: round(0.2 + step / 1000 + next() * 0.05, 6),
      reward_std: round(0.3 + next() * 0.1, 6),
      lr: 1e-6,
      grad_norm: round(0.5 + next(), 6),
    }, { floatKeys: FLOATS }));
  }
  writeFileSync(join(run, 'metrics.jsonl'), metrics.join('\n') + '\n');
  writeFileSync(join(run, 'config.json'), JSON.stringify({
    model: 'Qwen/Qwen2.5-Math-1.5B', prompt_template: 'r1_zero', group_size: 4, rollout_batch_size: 256,
    learning_rate: 1e-6, n_grpo_steps: 300, save_samples_every: 100, eval_every: 100,
  }, null, 2) + '\n');
  for (const [step, accuracy] of [[100, 0.384], [200, 0.452], [300, 0.497]]) {
    writeFileSync(join(run, `eval_summary_step_${String(step).padStart(6, '0')}.json`), JSON.stringify({
      step, dataset: 'gsm8k/test', n_examples: 1319, accuracy, format_rate: round(0.9 + step / 10000, 4), mean_response_length: round(240 + step / 5, 1),
    }, null, 2) + '\n');
  }
}
