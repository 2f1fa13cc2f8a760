/**
 * A real verl `rollout_data_dir` dump nobody on the project wrote (GRPO on GSM8K with multi-turn
 * tool calls; test/fixtures/real/README.md names its source and licence). Every expectation is
 * computed here from the file's own truth — its `input` prompts, its `score` (the trainer's reward)
 * and the GSM8K questions and golds looked up independently — never from the tool's earlier output.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyseText } from '../../src/scoring/analysis/analyse';
import { eachRollout, groupNamesOfAnalysis } from '../../src/core/report/fileAnalysis';
import { runCli } from '../../src/cli/main';
import { MAX_GROUP_NAME } from '../../src/core/presentation/groupNames';

const REAL = fileURLToPath(new URL('../fixtures/real/', import.meta.url));
const DUMP = `${REAL}verl_gsm8k_multiturn_tool_step2.jsonl`;
const GOLD = `${REAL}verl_gsm8k_multiturn_tool_step2.gold.jsonl`;

interface VerlRecord {
  input: string;
  output: string;
  score: number;
  step: number;
}

const text = readFileSync(DUMP, 'utf8');
const records = text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as VerlRecord);
const golds = readFileSync(GOLD, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as { question: string; gold: string });
const goldOf = (input: string): { question: string; gold: string } => {
  const found = golds.find((g) => input.includes(g.question));
  if (!found) throw new Error(`no GSM8K question found in prompt ${input.slice(0, 80)}`);
  return found;
};

/** The dump with each prompt's gold merged in as `gts` and, unless asked, the trainer's score taken out. */
function withGold(keepScore: boolean): string {
  return records.map((r) => {
    const { score, ...rest } = r;
    return JSON.stringify({ ...rest, gts: goldOf(r.input).gold, ...(keepScore ? { score } : {}) });
  }).join('\n') + '\n';
}

describe('real verl dump: GSM8K, multi-turn tool calls (1,024 rollouts)', () => {
  it('reads every rollout and groups them by prompt, as verl does (no uid: same input, same group)', async () => {
    const a = await analyseText(text, { fileName: 'real.jsonl', scorer: 'checker' });
    expect(a.report.rollouts).toBe(records.length);
    expect(a.report.groups).toBe(new Set(records.map((r) => r.input)).size);
    expect(a.report.unreadableLines).toBe(0);
    // The outcome is the trainer's own reward, rollout by rollout.
    const outcomes = [...eachRollout(a)].map((r) => r.outcome.kind === 'correct');
    expect(outcomes).toEqual(records.map((r) => r.score > 0));
  }, 60_000);

  it('names each group by its GSM8K question: no system prompt, no instruction every prompt shares', async () => {
    const a = await analyseText(text, { fileName: 'real.jsonl', scorer: 'checker' });
    const names = groupNamesOfAnalysis(a);
    const firsts = [...eachRollout(a)].filter((r, i, all) => all.findIndex((o) => o.group === r.group) === i);
    expect(firsts.length).toBe(64);
    for (const r of firsts) {
      const name = names.get(r.id) ?? '';
      const question = goldOf(records[r.id]!.input).question.replace(/\s+/g, ' ').trim();
      if (question.length <= MAX_GROUP_NAME) expect(name).toBe(question);
      else expect(question.startsWith(name.slice(0, -1))).toBe(true);
    }
  }, 60_000);

  it("grades as the trainer does: with the gold merged in and the score taken out, it agrees with the trainer's reward", async () => {
    const a = await analyseText(withGold(false), { fileName: 'graded.jsonl', scorer: 'checker' });
    const graded = [...eachRollout(a)];
    const agree = graded.filter((r, i) => (r.outcome.kind === 'correct') === records[i]!.score > 0 && r.outcome.kind !== 'unknown').length;
    const unknown = graded.filter((r) => r.outcome.kind === 'unknown').length;
    // Target: at least 97% agreement and at most 1% unknown (a plain "last `#### N`" rule reaches 97.6%).
    expect(agree / records.length).toBeGreaterThanOrEqual(0.97);
    expect(unknown / records.length).toBeLessThanOrEqual(0.01);
    // A response that never writes the asked-for `####` is incorrect, as the trainer's rule gives it 0.
    const noMarker = graded.filter((r) => !records[r.id]!.output.includes('####'));
    expect(noMarker.length).toBeGreaterThan(0);
    for (const r of noMarker) expect(r.outcome.kind).toBe('incorrect');
  }, 60_000);

  it('report says how often its grading agrees with the score the file carries', async () => {
    let out = '';
    const dir = fileURLToPath(new URL('.', import.meta.url));
    const path = `${process.env.PROF_LENS_CACHE_DIR ?? dir}/real-with-gold.jsonl`;
    const { writeFileSync } = await import('node:fs');
    writeFileSync(path, withGold(true));
    const code = await runCli(['report', path, '--json'], { stdout: (t) => (out += t), stderr: () => undefined, isStderrTty: false, cwd: dir });
    expect(code).toBe(0);
    const json = JSON.parse(out) as { gradingAgreement: { graded: number; agrees: number } };
    expect(json.gradingAgreement.graded).toBe(records.length);
    expect(json.gradingAgreement.agrees / records.length).toBeGreaterThanOrEqual(0.97);
  }, 60_000);
});
