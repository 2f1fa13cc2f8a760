/**
 * A real evaluation-harness dump nobody on the project wrote: ToRA-70B on the 1,319 GSM8K test
 * problems, as ToRA's evaluation code wrote it, solution texts included (tool-integrated programs,
 * their ```output``` blocks, then a `\boxed{}` answer). test/fixtures/real/README.md names its
 * source and licence. Every expectation is computed here from the file's own truth: its `gt`, its
 * `pred` (the harness's extracted answer) graded by the harness's own rule for numbers, and the
 * mean score the harness published beside it (`.metrics`: "Mean score: [84.3]").
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyseText } from '../../src/scoring/analysis/analyse';
import { eachRollout, groupNamesOfAnalysis } from '../../src/core/report/fileAnalysis';
import { runCli } from '../../src/cli/main';
import { MAX_GROUP_NAME } from '../../src/core/presentation/groupNames';

const REAL = fileURLToPath(new URL('../fixtures/real/', import.meta.url));
const DUMP = `${REAL}tora_70b_gsm8k_test.jsonl`;
const METRICS = `${REAL}tora_70b_gsm8k_test.metrics`;

interface ToraRecord {
  idx: number;
  question: string;
  gt_cot: string;
  gt: string;
  code: string[];
  pred: string[];
  report: unknown[];
}

const text = readFileSync(DUMP, 'utf8');
const records = text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as ToraRecord);

/** The harness's published mean score, read from the `.metrics` file it wrote beside the dump. */
const publishedMean = Number(/Mean score: \[([\d.]+)\]/.exec(readFileSync(METRICS, 'utf8'))?.[1]);

/**
 * The harness's verdict on one record: ToRA's `math_equal` on numbers compares the prediction with
 * the gold, the gold / 100 and the gold × 100, relative tolerance 1e-4. A prediction that is not a
 * number (2 of the 1,319 here: `\frac{840}{13}` for 42, and a fragment of the docstring) is wrong.
 */
function harnessVerdict(r: ToraRecord): boolean {
  const pred = Number((r.pred[0] ?? '').replace(/,/g, ''));
  const gold = Number(r.gt.replace(/,/g, ''));
  if (!Number.isFinite(pred) || (r.pred[0] ?? '').trim() === '') return false;
  return [gold, gold / 100, gold * 100].some((g) => Math.abs(pred - g) <= 1e-4 * Math.max(Math.abs(pred), Math.abs(g)));
}
const verdicts = records.map(harnessVerdict);

/** The dump with the harness's extracted answer (`pred`, `report`) taken out: only the texts and the gold remain. */
function withoutPred(): string {
  return records.map(({ pred: _pred, report: _report, ...rest }) => JSON.stringify(rest)).join('\n') + '\n';
}

describe('real harness dump: ToRA-70B, GSM8K test (1,319 problems, one solution each)', () => {
  it('the harness rule applied to its own pred reproduces the mean score it published', () => {
    expect(records.length).toBe(1319);
    expect(Math.round((1000 * verdicts.filter(Boolean).length) / records.length) / 10).toBe(publishedMean);
  });

  it('reads every record, one group per problem, and reproduces the published accuracy', async () => {
    const a = await analyseText(text, { fileName: 'real.jsonl', scorer: 'checker' });
    expect(a.report.rollouts).toBe(records.length);
    expect(a.report.groups).toBe(new Set(records.map((r) => r.question)).size);
    expect(a.report.unreadableLines).toBe(0);
    const correct = [...eachRollout(a)].filter((r) => r.outcome.kind === 'correct').length;
    expect(Math.round((1000 * correct) / records.length) / 10).toBe(publishedMean);
  }, 60_000);

  it('names each group by its question', async () => {
    const a = await analyseText(text, { fileName: 'real.jsonl', scorer: 'checker' });
    const names = groupNamesOfAnalysis(a);
    for (const r of eachRollout(a)) {
      const question = records[r.id]!.question.replace(/\s+/g, ' ').trim();
      const name = names.get(r.id) ?? '';
      if (question.length <= MAX_GROUP_NAME) expect(name).toBe(question);
      else expect(question.startsWith(name.slice(0, -1))).toBe(true);
    }
  }, 60_000);

  it("grades the solution texts as the harness does: with pred taken out, it agrees with the harness's verdict", async () => {
    const a = await analyseText(withoutPred(), { fileName: 'graded.jsonl', scorer: 'checker' });
    const graded = [...eachRollout(a)];
    expect(graded.length).toBe(records.length);
    const agree = graded.filter((r) => r.outcome.kind !== 'unknown' && (r.outcome.kind === 'correct') === verdicts[r.id]).length;
    const unknown = graded.filter((r) => r.outcome.kind === 'unknown').length;
    // It reaches 1,319 of 1,319 today (the suite's floor is 97%; this file holds it to 99.5%).
    expect(agree / records.length).toBeGreaterThanOrEqual(0.995);
    expect(unknown).toBe(0);
    // The two predictions that are not numbers are wrong for the harness, and for the tool.
    for (const r of graded.filter((g) => !Number.isFinite(Number(records[g.id]!.pred[0]!.replace(/,/g, ''))))) {
      expect(r.outcome.kind).toBe('incorrect');
    }
  }, 60_000);

  it('report without pred says the same accuracy', async () => {
    let out = '';
    const dir = fileURLToPath(new URL('.', import.meta.url));
    const path = `${process.env.PROF_LENS_CACHE_DIR ?? dir}/tora-without-pred.jsonl`;
    writeFileSync(path, withoutPred());
    const code = await runCli(['report', path, '--json'], { stdout: (t) => (out += t), stderr: () => undefined, isStderrTty: false, cwd: dir });
    expect(code).toBe(0);
    const json = JSON.parse(out) as { rollouts: number; accuracy: number };
    expect(json.rollouts).toBe(records.length);
    expect(Math.round(json.accuracy * 1000) / 10).toBe(publishedMean);
  }, 60_000);
});
