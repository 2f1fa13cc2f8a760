// verl's rollout dumps, laid out as its writers lay them out (test/fixtures/README.md names them):
// the legacy trainer's `_dump_generations`/`_write_generations` and the v1 trainer's, one
// `{global_step}.jsonl` per step in `rollout_data_dir` and `validation_data_dir`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OUT, STEPS, chatmlStripped, problem, pyDumps, random, shuffle, uuid } from './gsm8k.mjs';

const FLOATS = new Set(['score', 'reward']);

/** verl's GSM8K preprocessing appends this to each question (examples/data_preprocess/gsm8k.py). */
const GSM8K_INSTRUCTION = 'Let\'s think step by step and output the final answer after "####".';

/** The tool agent's system prompt (examples/data_preprocess/gsm8k_multiturn_w_tool.py), with Qwen2.5's tool section. */
const TOOL_SYSTEM = 'You are a math expert. You are given a question and you need to solve it step by step. Reasoning step by step before any tool call. You should use the `calc_gsm8k_reward` tool after step by step solving the question, before generate final answer at least once and refine your answer if necessary. Put your final answer in the format of `#### <answer>`.'
  + '\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>\n'
  + '{"type": "function", "function": {"name": "calc_gsm8k_reward", "description": "A tool for calculating the reward of gsm8k. (1.0 if parsed answer is correct, 0.0 if parsed answer is incorrect or not correctly parsed)", "parameters": {"type": "object", "properties": {"answer": {"type": "string", "description": "The model\'s answer to the GSM8K math problem, must be a digits"}}, "required": ["answer"]}}}'
  + '\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>';

/** The tool dataset's own wording (examples/data_preprocess/gsm8k_multiturn_w_tool.py). */
const TOOL_INSTRUCTION = "Let's think step by step and output the final answer after `####`.";

function input(question, system) {
  const messages = [{ role: 'user', content: `${question} ${system ? TOOL_INSTRUCTION : GSM8K_INSTRUCTION}` }];
  return chatmlStripped(system ? [{ role: 'system', content: system }, ...messages] : messages);
}

/**
 * A tool agent's response: the reasoning, a call to `calc_gsm8k_reward`, the tool's reply (the
 * agent loop appends it, decoded as `user\n<tool_response>…`), then the final `#### N`.
 */
function toolOutput(response) {
  const body = response.text.split('\n\n#### ')[0];
  const reward = response.isCorrect ? 1.0 : 0.0;
  return `${body}\n<tool_call>\n{"name": "calc_gsm8k_reward", "arguments": {"answer": "${response.final}"}}\n</tool_call>\nuser\n<tool_response>\nCurrent parsed answer='${response.final}' reward=${reward.toFixed(1)}\n</tool_response>\nassistant\nThe tool accepted my answer.\n\n#### ${response.final}`;
}

function writeJsonl(path, entries) {
  mkdirSync(join(path, '..'), { recursive: true });
  // Both writers: json.dumps(entry, ensure_ascii=False) + "\n" per line.
  writeFileSync(path, entries.map((e) => pyDumps(e, { floatKeys: FLOATS, ensureAscii: false })).join('\n') + '\n');
}

/** The legacy trainer: no uid; rows reordered by batch balancing; the reward's extra keys kept. */
export function writeVerlLegacy() {
  const next = random(16);
  const dir = join(OUT, 'verl/rollout_data');
  for (const [step, indices] of Object.entries(STEPS)) {
    const rows = [];
    for (const index of indices) {
      const p = problem(index);
      const isToolStep = step === '3' && index === 21;
      for (const r of p.responses) {
        rows.push({
          input: input(p.question, isToolStep ? TOOL_SYSTEM : null),
          output: isToolStep ? toolOutput(r) : r.text,
          gts: p.gold,
          score: r.isCorrect ? 1.0 : 0.0,
          step: Number(step),
          // A reward function that returns a dict adds its keys (verl's math_dapo returns score, acc, pred).
          acc: r.isCorrect,
          pred: r.final,
          request_id: uuid(next).replace(/-/g, ''),
        });
      }
    }
    writeJsonl(join(dir, `${step}.jsonl`), shuffle(rows, next));
  }
  // `_validate` dumps with the `reward` extra key it adds; one sample per prompt (val_kwargs.n = 1).
  const val = [0, 1, 3].map((index) => {
    const p = problem(index);
    const r = p.responses[3];
    return { input: input(p.question, null), output: r.text, gts: p.gold, score: r.isCorrect ? 1.0 : 0.0, step: 3, reward: r.isCorrect ? 1.0 : 0.0 };
  });
  writeJsonl(join(OUT, 'verl/validation_data/3.jsonl'), val);
}

/**
 * The v1 trainer (verl/trainer/ppo/v1/trainer_base.py): `uid` = `{prompt uuid}_{session}_{index}`
 * (agent_loop_tq.py), rows sorted by that key, scores from `rm_scores`, no extra reward keys.
 */
export function writeVerlV1() {
  const next = random(1);
  for (const step of ['1', '2']) {
    const rows = [];
    for (const index of STEPS[step]) {
      const p = problem(index);
      const promptUid = uuid(next);
      p.responses.forEach((r, session) => {
        rows.push({ key: [promptUid, session, 0], entry: { input: input(p.question, null), output: r.text, gts: p.gold, score: r.isCorrect ? 1.0 : 0.0, step: Number(step), uid: `${promptUid}_${session}_0` } });
      });
    }
    rows.sort((a, b) => (a.key[0] < b.key[0] ? -1 : a.key[0] > b.key[0] ? 1 : a.key[1] - b.key[1]));
    writeJsonl(join(OUT, `verl-v1/rollout_data/${step}.jsonl`), rows.map((r) => r.entry));
  }
}
