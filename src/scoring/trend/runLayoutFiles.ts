/**
 * A run folder's files as its trainer laid them out (core/run/runLayout.ts): the folder's own
 * files, and the files in the folders trainers nest their steps in (`completions/`, `rollouts/`,
 * `step_N/train/all/` …) — no other folder is walked, and the walk stops at a few levels and a
 * bounded number of entries, so pointing `trend` at a home folder costs little.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { classifyRunFiles, LAYOUT_FOLDERS, type RunLayout } from '../../core/run/runLayout';

/** How deep the walk goes (`outputs/rollouts/step_N/train/all/traces.jsonl` is five below `outputs`). */
const MAX_DEPTH = 5;
/** The most entries read in all. */
const MAX_ENTRIES = 200_000;

/** Every file under `folder` the walk reaches, relative, `/` between segments. */
async function walk(folder: string): Promise<string[]> {
  const found: string[] = [];
  let seen = 0;
  const visit = async (relative: string, depth: number): Promise<void> => {
    const entries = await readdir(relative ? join(folder, relative) : folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (++seen > MAX_ENTRIES) return;
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (depth < MAX_DEPTH && LAYOUT_FOLDERS.test(entry.name)) await visit(path, depth + 1);
      } else if (entry.isFile() || entry.isSymbolicLink()) found.push(path);
    }
  };
  await visit('', 0);
  return found;
}

/** The layout of a run folder, its paths relative to it. */
export async function readRunLayout(folder: string): Promise<RunLayout> {
  return classifyRunFiles(await walk(folder));
}
