// ROLL's RLVR rollout dump (roll/pipeline/rlvr/utils.py: `dump_rollout_to_specific_path` and
// `write_to_json_process`): per training step one file `rollout_dump_data.step_{global_step}.jsonl`
// in `rollout_dump_dir`, holding ONE JSON object written with `json.dumps(data, ensure_ascii=False)`
// whose every value is a list with one entry per response: the batch's non-tensor columns kept by
// COLUMMNS_CONFIG (`id`, `source`, `difficulty`, `prompt`, `messages` — a JSON string —,
// `ground_truth`, `tag`, `domain`), then `responses` (decoded with skip_special_tokens=True),
// `scores` (the math rule's 1/0 as float16 → float), `sampling_params` (the batch's meta_info as a
// JSON string) and `global_step`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OUT, STEPS, problem, pyDumps } from './gsm8k.mjs';

const SUFFIX = '\nPlease reason step by step, and put your final answer within \\boxed{}.';

export function writeRoll() {
  const dir = join(OUT, 'roll/output/rollout_dump');
  mkdirSync(dir, { recursive: true });
  for (const step of [1, 2]) {
    const columns = { id: [], source: [], difficulty: [], prompt: [], messages: [], ground_truth: [], tag: [], domain: [] };
    const responses = [];
    const scores = [];
    for (const index of STEPS[step]) {
      const p = problem(index, (a) => `The answer is $\\boxed{${a}}$.`);
      const prompt = p.question + SUFFIX;
      for (const r of p.responses) {
        columns.id.push(`gsm8k-train-${index}`);
        columns.source.push('gsm8k');
        columns.difficulty.push('0');
        columns.prompt.push(prompt);
        columns.messages.push(pyDumps([{ role: 'user', content: prompt }]));
        columns.ground_truth.push(p.gold);
        columns.tag.push('math_rule');
        columns.domain.push('math_rule');
        responses.push(r.text);
        scores.push(r.isCorrect ? 1.0 : 0.0);
      }
    }
    const metaInfo = pyDumps({ global_step: step, is_offload_states: false, generation_config: { temperature: 1.0, top_p: 1.0, max_new_tokens: 2048, num_return_sequences: 4 } }, { floatKeys: new Set(['temperature', 'top_p']) });
    const data = { ...columns, responses, scores, sampling_params: responses.map(() => metaInfo), global_step: responses.map(() => step) };
    writeFileSync(join(dir, `rollout_dump_data.step_${step}.jsonl`), pyDumps(data, { floatKeys: new Set(['scores']), ensureAscii: false }) + '\n');
  }
}
