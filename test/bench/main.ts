/** Runs the benchmark modules named on the command line (default: all) and prints their figures. */
import { mkdirSync, writeFileSync } from 'node:fs';
import type { BenchModule, BenchResult } from './types';
import * as checker from './checker';
import * as compare from './compare';
import * as core from './core';
import * as editor from './editor';
import * as endpoints from './endpoints';
import * as explore from './explore';
import * as grading from './grading';
import * as largeFile from './largeFile';
import * as longLine from './longLine';
import * as memory from './memory';
import * as scoring from './scoring';
import * as ties from './ties';
import * as runExplore from './runExplore';
import * as trend from './trend';
import * as verl from './verl';
import * as transcripts from './transcripts';

const MODULES: Record<string, BenchModule> = { core, transcripts, checker, grading, scoring, endpoints, longLine, largeFile, trend, ties, memory, explore, compare, verl, editor, runExplore };

async function main(): Promise<void> {
  // A benchmark that measures a child's peak memory runs this same bundle as `child <task> <path>`.
  if (process.argv[2] === 'child' && process.argv[3]?.startsWith('large-')) return largeFile.child(process.argv[3], process.argv[4] ?? '');
  if (process.argv[2] === 'child') return (process.argv[3]?.startsWith('explore-') ? explore.child : longLine.child)(process.argv[3] ?? '', process.argv[4] ?? '');
  const wanted = process.argv.slice(2).filter((a) => a in MODULES);
  const names = wanted.length ? wanted : Object.keys(MODULES);
  const all: Record<string, BenchResult[]> = {};
  for (const name of names) {
    console.log(`\n== ${name}`);
    const results = await MODULES[name]!.run();
    all[name] = results;
    for (const r of results) {
      const ratio = r.ratio === undefined ? '' : `   ratio ${r.ratio.toFixed(2)} vs ${r.baseline?.name}`;
      console.log(`${r.name.padEnd(58)} ${formatValue(r.value).padStart(12)} ${r.unit}${ratio}${r.note ? `   (${r.note})` : ''}`);
    }
  }
  mkdirSync('test-output/bench', { recursive: true });
  writeFileSync('test-output/bench/results.json', JSON.stringify({ date: new Date().toISOString(), node: process.version, results: all }, null, 2));
}

function formatValue(v: number): string {
  return Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(2);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
