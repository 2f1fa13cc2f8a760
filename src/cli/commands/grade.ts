/** `prof-lens grade <cases.jsonl>`: answer equivalence, one `{"equal": bool}` line per `{"pred","gold"}` line. */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { checkRegularFile } from '../../scoring/inputs/inputFile';
import { createBoundedGrader, type BoundedVerdict, type GradePair } from '../../core/answer/boundedGrade';
import { readText } from '../../core/read/reader';
import { asText } from '../../core/formats/fields';
import { holdCas } from '../../scoring/cas/casClient';
import { UsageError } from '../args';
import { EXIT_OK, EXIT_UNREADABLE_LINES, type CliIo } from '../io';
import { terminalJson } from '../terminalText';

/** Lines graded per request to the CAS worker. */
const BATCH = 512;

type Case = { line: number; pair: GradePair } | { line: number; error: string };

export async function gradeCommand(argv: string[], io: CliIo): Promise<number> {
  const file = argv.find((a) => !a.startsWith('-'));
  if (!file) throw new UsageError('grade needs a file of {"pred": …, "gold": …} lines: prof-lens grade <cases.jsonl>');
  const path = resolve(io.cwd, file);
  // Only a regular file: `/dev/zero` never ends and a FIFO blocks.
  checkRegularFile(path);
  const read = readText(await readFile(path, 'utf8'), file);
  const held = holdCas(io.cas);
  const grader = createBoundedGrader(held.cas);
  let problems = read.diagnostics.length;
  for (const d of read.diagnostics) io.stderr(`${file}:${d.line}: ${d.message}\n`);
  const cases: Case[] = [...read.records].sort((a, b) => a.line - b.line).map((record) => {
    const v = record.value as Record<string, unknown>;
    const pred = asText(v.pred);
    const gold = asText(v.gold);
    return pred === null || gold === null ? { line: record.line, error: 'expected "pred" and "gold"' } : { line: record.line, pair: { pred, gold } };
  });
  for (let start = 0; start < cases.length; start += BATCH) {
    const batch = cases.slice(start, start + BATCH);
    const pairs = batch.flatMap((c) => ('pair' in c ? [c.pair] : []));
    const verdicts = await grader.gradeMany(pairs);
    let next = 0;
    for (const c of batch) {
      if ('error' in c) {
        io.stderr(`${file}:${c.line}: expected string fields "pred" and "gold"\n`);
        io.stdout(terminalJson(JSON.stringify({ equal: null, error: c.error })) + '\n');
        problems++;
        continue;
      }
      const verdict = verdicts[next++] as BoundedVerdict;
      if (verdict.notDecided !== undefined) io.stderr(`${file}:${c.line}: not decided: ${verdict.notDecided}\n`);
      io.stdout(terminalJson(JSON.stringify(lineFor(verdict))) + '\n');
    }
  }
  return problems > 0 ? EXIT_UNREADABLE_LINES : EXIT_OK;
}

function lineFor(verdict: BoundedVerdict): Record<string, unknown> {
  if (verdict.equal !== null) return { equal: verdict.equal };
  return verdict.notDecided === undefined ? { equal: false, undecided: true } : { equal: false, undecided: true, reason: verdict.notDecided };
}
