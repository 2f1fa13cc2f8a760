// NeMo-RL's GRPO logs (nemo_rl/algorithms/grpo.py; nemo_rl/utils/logger.py
// `log_batched_dict_as_jsonl`): `train_data_step{N}.jsonl` (N = total_steps + 1) and
// `val_data_step{N}.jsonl` in the log directory, one sample per line from a micro-batch of one,
// so every value is a list of one: `content` = [[message contents]], `rewards` = [r], and `idx`.
// The math data processor renders the user message with the chat template (its special tokens in
// the text); the response is decoded with skip_special_tokens; the math environment answers
// "Environment: correct" or "Environment: incorrect".
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OUT, STEPS, advantages, chatml, problem, pyDumps, random, round } from './gsm8k.mjs';

const FLOATS = new Set(['rewards', 'sample_loss_mask', 'advantages', 'generation_logprobs', 'prev_logprobs']);

/** examples/prompts/cot.txt, formatted with the problem (the file writes `\\boxed{{}}`). */
function cotPrompt(question) {
  return `Think step-by-step to solve the following problem. Output your answer inside of \\\\boxed{} tags.:\n${question}\n\nLet's think step-by-step`;
}

function writeJsonl(path, entries) {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, entries.map((e, i) => pyDumps({ ...e, idx: i }, { floatKeys: FLOATS })).join('\n') + '\n');
}

export function writeNemoRl(tokenizer) {
  const dir = join(OUT, 'nemo-rl/logs/exp_001');
  const next = random(7);
  for (const step of ['1', '2']) {
    const lines = [];
    for (const index of STEPS[step]) {
      const p = problem(index, (a) => `So the answer is $\\boxed{${a}}$.`);
      const user = chatml([{ role: 'user', content: cotPrompt(p.question) }]);
      const rewards = p.responses.map((r) => (r.isCorrect ? 1.0 : 0.0));
      const adv = advantages(rewards);
      p.responses.forEach((r, i) => {
        const env = r.isCorrect ? 'Environment: correct' : 'Environment: incorrect';
        const promptIds = tokenizer.encode(user);
        const responseIds = [...tokenizer.encode(r.text), 151645];
        const envIds = tokenizer.encode(env);
        const ids = [...promptIds, ...responseIds, ...envIds];
        const mask = ids.map((_, k) => (k >= promptIds.length && k < promptIds.length + responseIds.length ? 1 : 0));
        const logprobs = mask.map((m) => (m ? round(-next() * 0.9, 4) : 0.0));
        lines.push({
          content: [[user, r.text, env]],
          rewards: [rewards[i]],
          input_lengths: [ids.length],
          token_ids: [ids],
          token_loss_mask: [mask],
          sample_loss_mask: [1.0],
          advantages: [mask.map((m) => (m ? adv[i] : 0.0))],
          generation_logprobs: [logprobs],
          prev_logprobs: [logprobs.map((l) => (l ? round(l - 0.001, 4) : 0.0))],
        });
      });
    }
    writeJsonl(join(dir, `train_data_step${step}.jsonl`), lines);
  }
  // Validation before training (step 0) and at step 2: one generation per prompt, `{role, content}` messages.
  for (const [step, indices] of [['0', [0, 1, 3]], ['2', [0, 1, 3]]]) {
    const lines = indices.map((index) => {
      const p = problem(index, (a) => `So the answer is $\\boxed{${a}}$.`);
      const r = p.responses[step === '0' ? 0 : 3];
      return {
        content: [[
          { role: 'user', content: chatml([{ role: 'user', content: cotPrompt(p.question) }]) },
          { role: 'assistant', content: r.text },
          { role: 'environment', content: r.isCorrect ? 'Environment: correct' : 'Environment: incorrect' },
        ]],
        rewards: [r.isCorrect ? 1.0 : 0.0],
      };
    });
    writeJsonl(join(dir, `val_data_step${step}.jsonl`), lines);
  }
}
