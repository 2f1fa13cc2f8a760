/**
 * Answer grading throughput on a synthetic dump shaped like RL rollouts: 2000 prompts, 8 responses
 * each, every response a unique solution ending in a boxed answer; within a group most responses
 * reach the same few answers, in assorted spellings. Cached against uncached in the same run,
 * plus the one-off cost of loading the algebra system.
 */
import { casIfLoaded, loadCas } from '../../src/core/cas/casEngine';
import { createBoundedGrader, type BoundedGrader } from '../../src/core/answer/boundedGrade';
import { gradeFast, loadAnswerGrader, type AnswerGrader } from '../../src/core/answer/gradeAnswer';
import { CasClient } from '../../src/scoring/cas/casClient';
import type { BenchResult } from './types';

const PROMPTS = 2000;
const RESPONSES_PER_PROMPT = 8;

/** Gold answers and, for each, spellings of it and wrong answers models give. */
const ANSWER_KINDS: { gold: string; right: string[]; wrong: string[] }[] = [
  { gold: '18', right: ['18', '18.0', '\\$18'], wrong: ['16', '20'] },
  { gold: '\\frac{3}{4}', right: ['\\frac34', '0.75', '\\dfrac{3}{4}'], wrong: ['\\frac{4}{3}', '0.7'] },
  { gold: '2\\sqrt{2}', right: ['\\sqrt{8}', '2\\sqrt2'], wrong: ['\\sqrt{2}', '4'] },
  { gold: '(1, 2)', right: ['(1,2)', '\\left(1, 2\\right)'], wrong: ['(2,1)', '[1,2]'] },
  { gold: '[0, 1)', right: ['[0,1)'], wrong: ['(0,1)', '[0,1]'] },
  { gold: 'x^2 - 1', right: ['(x-1)(x+1)', 'x^2-1'], wrong: ['(x-1)^2', 'x^2+1'] },
  { gold: '\\frac{\\pi}{3}', right: ['\\frac{1}{3}\\pi', '\\pi/3'], wrong: ['\\frac{\\pi}{6}'] },
  { gold: '7425000', right: ['7,425,000', '7425000'], wrong: ['742500'] },
];

interface Pair {
  pred: string;
  gold: string;
}

/** Deterministic pairs: each prompt picks a kind and a gold variant, each response an answer. */
export function makePairs(prompts = PROMPTS, perPrompt = RESPONSES_PER_PROMPT): Pair[] {
  let seed = 20250903;
  const rand = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return Math.floor((seed / 2147483648) * n);
  };
  const pairs: Pair[] = [];
  for (let p = 0; p < prompts; p++) {
    const kind = ANSWER_KINDS[p % ANSWER_KINDS.length] ?? ANSWER_KINDS[0];
    if (kind === undefined) break;
    // Numeric golds vary per prompt so that not every group shares one answer.
    const offset = p % 5;
    const gold = offset === 0 ? kind.gold : kind.gold.replace(/\d+/, (d) => String(Number(d) + offset));
    for (let r = 0; r < perPrompt; r++) {
      // One response in five ends in an answer of its own (a stray number), as weak models do.
      const stray = rand(5) === 0 ? [String(rand(1000))] : null;
      const pool = stray ?? (rand(2) === 0 ? kind.right : kind.wrong);
      const picked = pool[rand(pool.length)] ?? kind.gold;
      const answer = offset === 0 ? picked : picked.replace(/\d+/, (d) => String(Number(d) + offset));
      const pred = `Step 1: read problem ${p}, attempt ${r}.\n\nStep 2: compute ${rand(1000)} + ${rand(1000)}.\n\nSo the answer is $\\boxed{${answer}}$.`;
      pairs.push({ pred, gold });
    }
  }
  return pairs;
}

function throughput(grader: AnswerGrader, pairs: Pair[]): number {
  const start = performance.now();
  for (const { pred, gold } of pairs) grader.grade(pred, gold);
  return pairs.length / ((performance.now() - start) / 1000);
}

/** Pairs per request, as the analysis sends them (one batch of records). */
const BATCH = 2000;

async function boundedThroughput(grader: BoundedGrader, pairs: Pair[]): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < pairs.length; i += BATCH) await grader.gradeMany(pairs.slice(i, i + BATCH));
  return pairs.length / ((performance.now() - start) / 1000);
}

/**
 * The path the CLI and the editor take: cheap checks here, the rest batched to the CAS worker on
 * its budget. Compared with the in-process cached grader measured above on a warm engine, so the
 * worker's engine is warmed by one pass of its own first.
 */
async function workerFigures(pairs: Pair[], inProcessCached: number): Promise<BenchResult[]> {
  const client = new CasClient();
  try {
    const firstPass = await boundedThroughput(createBoundedGrader(client), pairs);
    const fresh = createBoundedGrader(client);
    const verdictsCold = await boundedThroughput(fresh, pairs);
    const cached = await boundedThroughput(fresh, pairs);
    const baseline = { name: 'grading, cached by (answer, gold)', value: inProcessCached };
    const note = `${BATCH} pairs per request, the engine in its own thread on a ${client.budgetMs} ms budget per task`;
    return [
      { name: 'grading via the CAS worker, first pass (engine cold)', value: firstPass, unit: 'pairs/s', baseline, ratio: firstPass / inProcessCached, note },
      { name: 'grading via the CAS worker, fresh verdict cache', value: verdictsCold, unit: 'pairs/s', baseline, ratio: verdictsCold / inProcessCached, note },
      { name: 'grading via the CAS worker, cached', value: cached, unit: 'pairs/s', baseline, ratio: cached / inProcessCached, note: `${fresh.cacheSize()} distinct verdicts` },
    ];
  } finally {
    await client.dispose();
  }
}

/** Benchmark entry point. */
export async function run(): Promise<BenchResult[]> {
  const alreadyLoaded = casIfLoaded() !== null;
  const loadStart = performance.now();
  await loadCas();
  const loadMs = performance.now() - loadStart;
  const pairs = makePairs();
  // Warm the engine's own lazy tables so the first measured run does not pay for them.
  throughput(await loadAnswerGrader({ cache: false }), pairs.slice(0, 200));
  const uncached = throughput(await loadAnswerGrader({ cache: false }), pairs);
  const cachedGrader = await loadAnswerGrader();
  const cached = throughput(cachedGrader, pairs);
  const baseline = { name: 'grading, uncached', value: uncached };
  const fastShare = pairs.filter(({ pred, gold }) => gradeFast(pred, gold) !== null).length / pairs.length;
  return [
    {
      name: 'algebra system load (import + construct)',
      value: loadMs,
      unit: 'ms',
      note: alreadyLoaded ? 'already loaded by an earlier module in this run' : 'first load in this process',
    },
    { name: 'grading, uncached', value: uncached, unit: 'pairs/s', note: `${pairs.length} (response, gold) pairs` },
    {
      name: 'grading, cached by (answer, gold)',
      value: cached,
      unit: 'pairs/s',
      baseline,
      ratio: cached / uncached,
      note: `${cachedGrader.cacheSize()} distinct verdicts`,
    },
    { name: 'pairs decided without the algebra system', value: 100 * fastShare, unit: '%' },
    ...(await workerFigures(pairs, cached)),
  ];
}
