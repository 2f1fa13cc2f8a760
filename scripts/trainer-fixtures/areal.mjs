// AReaL's trajectory dump (areal/infra/workflow_executor.py, `_dump_trajectory`, with
// `rollout.dump_to_file=true`): under `{fileroot}/logs/{user}/{experiment}/{trial}/rollout/`, a
// folder per weight version (the trajectory's `tail_version`) and in it one file per rollout task,
// `{task_id}.jsonl`, appended one line per sample with `json.dumps`: `task_id`, `sample_idx`,
// `seqlen`, `prompt_len`, `head_version`, `tail_version`, `reward`, then `prompt` and `completion`
// decoded with skip_special_tokens=False (the chat template's tokens and the closing `<|im_end|>`
// stay in). The GSM8K dataset (areal/dataset/gsm8k.py) asks for `\boxed{}`; no gold is written.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OUT, STEPS, chatml, problem, pyDumps } from './gsm8k.mjs';

const SUFFIX = '\nPlease put your final answer within \\boxed{}.';

export function writeAreal(tokenizer) {
  const root = join(OUT, 'areal/logs/root/gsm8k-grpo/trial0/rollout');
  let taskId = 0;
  for (const version of [1, 2]) {
    const dir = join(root, String(version));
    mkdirSync(dir, { recursive: true });
    for (const index of STEPS[version]) {
      const p = problem(index, (a) => `The final answer is $\\boxed{${a}}$.`);
      const prompt = chatml([{ role: 'user', content: p.question + SUFFIX }]);
      const promptLen = tokenizer.encode(prompt).length;
      // The task's second sample began under the previous weights (an off-policy sample).
      const lines = p.responses.map((r, i) => pyDumps({
        task_id: taskId,
        sample_idx: i,
        seqlen: promptLen + tokenizer.encode(r.text).length + 1,
        prompt_len: promptLen,
        head_version: i === 1 ? version - 1 : version,
        tail_version: version,
        reward: r.isCorrect ? 1.0 : 0.0,
        prompt,
        completion: `${r.text}<|im_end|>`,
      }, { floatKeys: new Set(['reward']) }));
      writeFileSync(join(dir, `${taskId}.jsonl`), lines.join('\n') + '\n');
      taskId += 7;
    }
  }
}
