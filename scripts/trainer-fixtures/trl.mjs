// TRL GRPOTrainer's completion logs (trl/trainer/grpo_trainer.py, `log`): with `log_completions`,
// each logging step writes `<output_dir>/completions/completions_{global_step:05d}.parquet` from a
// pandas DataFrame of `step`, `prompt`, `completion`, one column per reward function, the columns
// reward functions log (`accuracy_reward` logs `solution`, `gold_parsed`, `answer_parsed`), then
// `advantage`. pandas writes Snappy-compressed parquet with its schema in the `pandas` metadata.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { OUT, STEPS, advantages, chatmlStripped, problem } from './gsm8k.mjs';

const COLUMNS = ['step', 'prompt', 'completion', 'accuracy_reward', 'format_reward', 'solution', 'gold_parsed', 'answer_parsed', 'advantage'];

function pandasMetadata(rows) {
  const kinds = { step: ['int64', 'int64'], accuracy_reward: ['float64', 'float64'], format_reward: ['float64', 'float64'], advantage: ['float64', 'float64'] };
  return JSON.stringify({
    index_columns: [{ kind: 'range', name: null, start: 0, stop: rows, step: 1 }],
    column_indexes: [{ name: null, field_name: null, pandas_type: 'unicode', numpy_type: 'object', metadata: { encoding: 'UTF-8' } }],
    columns: COLUMNS.map((c) => ({ name: c, field_name: c, pandas_type: kinds[c]?.[0] ?? 'unicode', numpy_type: kinds[c]?.[1] ?? 'object', metadata: null })),
    creator: { library: 'pyarrow', version: '17.0.0' },
    pandas_version: '2.2.2',
  });
}

export function writeTrl() {
  const dir = join(OUT, 'trl/grpo-qwen2.5-gsm8k/completions');
  mkdirSync(dir, { recursive: true });
  for (const [step, indices] of Object.entries(STEPS)) {
    const table = Object.fromEntries(COLUMNS.map((c) => [c, []]));
    for (const index of indices) {
      const p = problem(index, (a) => `The final answer is $\\boxed{${a}}$.`);
      // A conversational dataset: the prompt is the rendered chat, decoded with skip_special_tokens=True.
      const prompt = chatmlStripped([{ role: 'user', content: p.question }]);
      const accuracy = p.responses.map((r) => (r.isCorrect ? 1.0 : 0.0));
      // One response per group stops before its answer: no box, so the format reward is 0.
      const completions = p.responses.map((r, i) => (i === 1 ? r.text.split('\n\nThe final answer')[0] : r.text));
      const format = completions.map((c) => (c.includes('\\boxed{') ? 1.0 : 0.0));
      const rewards = accuracy.map((a, i) => (i === 1 ? 0.0 : a) + format[i]);
      const adv = advantages(rewards);
      completions.forEach((completion, i) => {
        table.step.push(BigInt(step));
        table.prompt.push(prompt);
        table.completion.push(completion);
        table.accuracy_reward.push(i === 1 ? 0.0 : accuracy[i]);
        table.format_reward.push(format[i]);
        table.solution.push(p.gold);
        table.gold_parsed.push(`[${p.gold}, '${p.gold}']`);
        table.answer_parsed.push(format[i] ? `[${p.responses[i].final}, '${p.responses[i].final}']` : '[unparseable]');
        table.advantage.push(adv[i]);
      });
    }
    const types = { step: 'INT64', accuracy_reward: 'DOUBLE', format_reward: 'DOUBLE', advantage: 'DOUBLE' };
    const buffer = parquetWriteBuffer({
      columnData: COLUMNS.map((name) => ({ name, data: table[name], type: types[name] ?? 'STRING' })),
      kvMetadata: [{ key: 'pandas', value: pandasMetadata(table.step.length) }],
      createdBy: 'parquet-cpp-arrow version 17.0.0',
    });
    writeFileSync(join(dir, `completions_${step.padStart(5, '0')}.parquet`), Buffer.from(buffer));
  }
}
