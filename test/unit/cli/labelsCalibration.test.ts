/**
 * The user's labels on the command line, and calibration: `eval <dump> --labels` measures the
 * dump's scores against a sidecar or a ProcessBench-shaped file (labels surviving a reorder and a
 * re-dump), `--calibrate` stores the F1-best threshold for the scores' model and report/filter use
 * it and say so; flags are listed strongest first. Figures hand-computed by ProcessBench's rule.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';
import { emptyLabelStore, serialiseLabels, sidecarPath, withLabel, type LabelStore } from '../../../src/core/labels/labelStore';
import { exportProcessBench } from '../../../src/core/labels/labelMatch';

let dir: string;
let cache: string;
const at = (name: string): string => join(dir, name);

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t), isStderrTty: false, cwd: dir, env: {} });
  return { code, out, err };
}

const META = { scorer: 'onnx', profile: 'qwen-prm', identity: 'onnx:0123456789abcdef0123456789abcdef' };
const row = (prompt: string, steps: string[], correct: boolean, scores: number[]) => ({ prompt, response: steps.join('\n\n'), correct, step_scores: scores, step_scores_meta: META });

/** Six rollouts; the first five labelled: wrong step 1, sound, sound, wrong step 1, wrong step 0. */
const ROWS = [
  row('P1', ['A1.', 'A2.'], true, [0.9, 0.3]), // first below .5: step 1 = the label: found
  row('P1', ['B1.', 'B2.'], true, [0.9, 0.8]), // sound, nothing below: passed
  row('P1', ['C1.', 'C2.'], true, [0.45, 0.9]), // sound, but step 0 below: not passed
  row('P2', ['D1.', 'D2.', 'D3.'], true, [0.9, 0.6, 0.2]), // wrong at 1, first below at 2: missed
  row('P2', ['E1.', 'E2.'], false, [0.1, 0.1]), // wrong at 0: found
  row('P2', ['F1.', 'F2.'], true, [0.9, 0.9]),
];
const LABELS: [number, number][] = [[0, 1], [1, -1], [2, -1], [3, 1], [4, 0]];

function store(): LabelStore {
  let s = emptyLabelStore();
  for (const [i, step] of LABELS) {
    const r = ROWS[i]!;
    s = withLabel(s, { prompt: r.prompt, response: r.response, steps: r.response.split('\n\n') }, step);
  }
  return s;
}

interface EvalJson {
  items: number;
  threshold: { value: number; source: string };
  report: { subsets: { errorItems: number; errorHits: number; correctItems: number; correctHits: number; f1: number }[] };
  flags: { precision: number; recall: number };
  labels: { matched: number; count: number; kind: string };
  calibration: { calibration: { threshold: number; f1: number; identity: string; heldOut: { calibratedOn: number; measuredOn: number } }; path: string } | null;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'prof-lens-labels-'));
  cache = join(dir, 'cache');
  writeFileSync(at('dump.jsonl'), ROWS.map((r) => JSON.stringify(r)).join('\n') + '\n');
  writeFileSync(sidecarPath(at('dump.jsonl')), serialiseLabels(store()));
  // The same rollouts re-dumped: another order, other key order, CRLF, other whitespace in the texts.
  const redumped = [ROWS[4], ROWS[0], ROWS[5], ROWS[2], ROWS[3], ROWS[1]].map((r) => {
    const { prompt, response, ...rest } = r!;
    return JSON.stringify({ ...rest, response: response.replace('\n\n', ' \n\n\n'), prompt: ` ${prompt}` });
  });
  writeFileSync(at('redumped.jsonl'), redumped.join('\r\n') + '\r\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('eval <dump> --labels', () => {
  it('measures the dump’s scores against the sidecar: figures by ProcessBench’s rule', async () => {
    const { code, out } = await cli(['eval', at('dump.jsonl'), '--labels', sidecarPath(at('dump.jsonl')), '--json', '--no-cache']);
    expect(code).toBe(0);
    const result = JSON.parse(out) as EvalJson;
    expect(result.labels).toMatchObject({ kind: 'sidecar', count: 5, matched: 5 });
    expect(result.report.subsets[0]).toMatchObject({ errorItems: 3, errorHits: 2, correctItems: 2, correctHits: 1 });
    // error accuracy 2/3, correct accuracy 1/2: F1 = (2/3) / (7/6) = 4/7.
    expect(result.report.subsets[0]!.f1).toBeCloseTo(4 / 7, 12);
    // Flagged at .5: A, C, D, E; flawed A, D, E: precision 3/4, recall 1.
    expect(result.flags).toMatchObject({ precision: 0.75, recall: 1 });
  });

  it('labels survive a reorder and a re-dump', async () => {
    const a = JSON.parse((await cli(['eval', at('dump.jsonl'), '--labels', sidecarPath(at('dump.jsonl')), '--json', '--no-cache'])).out) as EvalJson;
    const b = JSON.parse((await cli(['eval', at('redumped.jsonl'), '--labels', sidecarPath(at('dump.jsonl')), '--json', '--no-cache'])).out) as EvalJson;
    expect(b.labels.matched).toBe(5);
    expect(b.report.subsets[0]).toEqual({ ...a.report.subsets[0], subset: 'redumped' });
  });

  it('takes a ProcessBench-shaped labels file (the export) and matches it by content', async () => {
    const exported = exportProcessBench(store(), ROWS.map((r, i) => ({ prompt: r.prompt, response: r.response, steps: r.response.split('\n\n'), outcome: { kind: r.correct ? 'correct' : 'incorrect' }, id: `dump.jsonl:${i + 1}:0` })));
    writeFileSync(at('export.json'), JSON.stringify(exported));
    const { out } = await cli(['eval', at('redumped.jsonl'), '--labels', at('export.json'), '--json', '--no-cache']);
    const result = JSON.parse(out) as EvalJson;
    expect(result.labels).toMatchObject({ kind: 'processbench', count: 5, matched: 5 });
    expect(result.report.subsets[0]).toMatchObject({ errorItems: 3, errorHits: 2, correctItems: 2, correctHits: 1 });
  });
});

describe('eval --calibrate', () => {
  it('stores the F1-best threshold for the model that made the scores, with the held-out figure', async () => {
    const { code, out } = await cli(['eval', at('dump.jsonl'), '--labels', sidecarPath(at('dump.jsonl')), '--calibrate', '--cache-dir', cache, '--json']);
    expect(code).toBe(0);
    const result = JSON.parse(out) as EvalJson;
    // Thresholds 0.1 0.2 0.3 0.4 0.5 0.7 0.9 1 give F1 0 .5 .5 .8 4/7 2/3 0 0: 0.4 (A and E found, D missed; B, C passed).
    expect(result.calibration?.calibration).toMatchObject({ threshold: 0.4, identity: META.identity, heldOut: { calibratedOn: 3, measuredOn: 2 } });
    expect(result.calibration!.calibration.f1).toBeCloseTo(0.8, 12);
    const stored = JSON.parse(readFileSync(join(cache, 'calibrations.v1.json'), 'utf8'));
    expect(stored.calibrations[META.identity]).toMatchObject({ threshold: 0.4, set: { size: 5, errorItems: 3, correctItems: 2 } });
    const text = await cli(['eval', at('dump.jsonl'), '--labels', sidecarPath(at('dump.jsonl')), '--calibrate', '--cache-dir', cache]);
    expect(text.out).toMatch(/calibrated: threshold 0\.4, average F1 80\.0% on these 5 items \(chosen on them, so flattering\); held-out F1 [\d.]+% \(threshold [\d.]+ chosen on 3, measured on the other 2; seed 0\)/);
  });

  it('report and filter then use it for that model and say so; --threshold wins; other scores are uncalibrated', async () => {
    await cli(['eval', at('dump.jsonl'), '--labels', sidecarPath(at('dump.jsonl')), '--calibrate', '--cache-dir', cache]);
    const report = await cli(['report', at('redumped.jsonl'), '--cache-dir', cache]);
    expect(report.out).toMatch(/\nthreshold 0\.4, calibrated on 5 labelled solutions \(dump\.jsonl labelled by dump\.jsonl\.prof-labels\.json\): F1 0\.80, held-out [\d.]+\n/);
    const json = JSON.parse((await cli(['report', at('redumped.jsonl'), '--cache-dir', cache, '--json'])).out);
    expect(json.threshold).toMatchObject({ value: 0.4, source: 'calibrated' });
    expect(json.settings.threshold).toBe(0.4);
    const filter = await cli(['filter', at('redumped.jsonl'), '-o', at('kept.jsonl'), '--cache-dir', cache]);
    expect(filter.err).toContain('threshold 0.4, calibrated on 5 labelled solutions');
    const given = await cli(['report', at('redumped.jsonl'), '--cache-dir', cache, '--threshold', '0.5']);
    expect(given.out).toContain('\nthreshold 0.5 (as given)\n');
    writeFileSync(at('other.jsonl'), ROWS.map(({ step_scores_meta: _meta, ...r }) => JSON.stringify(r)).join('\n') + '\n');
    expect((await cli(['report', at('other.jsonl'), '--cache-dir', cache])).out).toContain('\nthreshold 0.5 (uncalibrated)\n');
    expect((await cli(['report', at('other.jsonl'), '--cache-dir', cache, '--scorer', 'checker'])).out).toContain('\nthreshold 0.5\n');
  });
});

describe('flags ranked by strength', () => {
  it('the report lists the strongest first', async () => {
    const { out } = await cli(['report', at('dump.jsonl'), '--no-cache']);
    const listed = out.split('\n').filter((l) => /^\s+line \d+ +strength/.test(l));
    // D: 0.33 below the upper half (0.3 below the threshold); A: 0.2 below the threshold; C: 0.05.
    expect(listed.map((l) => l.trim().split(/\s+/).slice(0, 4).join(' '))).toEqual(['line 4 strength 0.33', 'line 1 strength 0.20', 'line 3 strength 0.05']);
    expect(listed[0]).toContain('strength 0.33 · step 3 of 3 scores 0.20, below 0.5');
  });
});
