/** `prof-lens grade <cases.jsonl>`: answer equivalence, one `{"equal": bool}` line per `{"pred","gold"}` line. */
import { readFile } from 'node:fs/promises';
import { loadAnswerGrader } from '../../core/answer/grade';
import { readText } from '../../core/reader';
import { asText } from '../../core/fields';
import { UsageError } from '../args';
import { EXIT_OK, EXIT_UNREADABLE_LINES, type CliIo } from '../io';

export async function gradeCommand(argv: string[], io: CliIo): Promise<number> {
  const file = argv.find((a) => !a.startsWith('-'));
  if (!file) throw new UsageError('grade needs a file of {"pred": …, "gold": …} lines: prof-lens grade <cases.jsonl>');
  const read = readText(await readFile(file, 'utf8'), file);
  const grader = await loadAnswerGrader({ cache: true });
  let problems = read.diagnostics.length;
  const byLine = new Map(read.records.map((r) => [r.line, r]));
  const lastLine = Math.max(0, ...read.records.map((r) => r.line), ...read.diagnostics.map((d) => d.line));
  for (const d of read.diagnostics) io.stderr(`${file}:${d.line}: ${d.message}\n`);
  for (let line = 1; line <= lastLine; line++) {
    const record = byLine.get(line);
    if (!record) continue;
    const v = record.value as Record<string, unknown>;
    const pred = asText(v.pred);
    const gold = asText(v.gold);
    if (pred === null || gold === null) {
      io.stderr(`${file}:${line}: expected string fields "pred" and "gold"\n`);
      io.stdout(JSON.stringify({ equal: null, error: 'expected "pred" and "gold"' }) + '\n');
      problems++;
      continue;
    }
    const verdict = grader.grade(pred, gold);
    io.stdout(JSON.stringify(verdict.equal === null ? { equal: false, undecided: true } : { equal: verdict.equal }) + '\n');
  }
  return problems > 0 ? EXIT_UNREADABLE_LINES : EXIT_OK;
}
