// SkyRL's evaluation dumps (skyrl/train/evaluate.py with `trainer.dump_eval_results`, and
// skyrl/train/utils/trainer_utils.py `dump_per_dataset_eval_results`): per evaluated step a folder
// `{export_path}/dumped_evals/global_step_{N}_evals/` with one `{data_source}.jsonl` per data source
// ("/" → "_") written with `json.dumps(entry, ensure_ascii=False)`: `input_prompt` and
// `output_response` decoded with `tokenizer.decode` (special tokens kept), `score`, `stop_reason`,
// `env_class`, `env_extras` (the dataset row's other columns: `data_source`, `reward_spec` with the
// `ground_truth`, `extra_info` with the clean `question`), `data_source`; and
// `aggregated_results.jsonl`, one line of metrics. The dataset is examples/train/gsm8k's (the
// question, a space, and the `####` instruction), four samples per prompt.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OUT, chatml, problem, pyDumps, round } from './gsm8k.mjs';

const INSTRUCTION = 'Let\'s think step by step and output the final answer after "####".';
const EVALUATED = [[0, [0, 1, 3], 0], [40, [0, 1, 3], 3]];

export function writeSkyrl() {
  const root = join(OUT, 'skyrl/export/dumped_evals');
  for (const [step, indices] of EVALUATED) {
    const dir = join(root, `global_step_${step}_evals`);
    mkdirSync(dir, { recursive: true });
    const lines = [];
    let correct = 0;
    for (const index of indices) {
      const p = problem(index);
      const question = `${p.question} ${INSTRUCTION}`;
      // Step 0 answers with the first two solvers twice each, step 40 with all four.
      const picked = step === 0 ? [0, 0, 1, 1] : [0, 1, 2, 3];
      for (const k of picked) {
        const r = p.responses[k];
        if (r.isCorrect) correct++;
        lines.push(pyDumps({
          input_prompt: chatml([{ role: 'user', content: question }]),
          output_response: `${r.text}<|im_end|>`,
          score: r.isCorrect ? 1.0 : 0.0,
          stop_reason: 'stop',
          env_class: 'gsm8k',
          env_extras: {
            data_source: 'openai/gsm8k',
            reward_spec: { method: 'rule', ground_truth: p.gold },
            extra_info: { split: 'test', index, answer: p.reference, question: p.question },
          },
          data_source: 'openai/gsm8k',
        }, { floatKeys: new Set(['score']), ensureAscii: false }));
      }
    }
    writeFileSync(join(dir, 'openai_gsm8k.jsonl'), lines.join('\n') + '\n');
    const avg = round(correct / lines.length, 4);
    writeFileSync(join(dir, 'aggregated_results.jsonl'), pyDumps({ 'eval/openai_gsm8k/avg_score': avg, 'eval/openai_gsm8k/pass_at_4': 1.0, 'eval/all/avg_score': avg, 'eval/all/pass_at_4': 1.0 }, { floatKeys: new Set(['eval/openai_gsm8k/pass_at_4', 'eval/all/pass_at_4']) }) + '\n');
  }
}
