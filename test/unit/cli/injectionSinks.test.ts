/**
 * Text from files and folder names reaching a sink that runs it: a CSV cell a spreadsheet reads as
 * a formula, a notification (or progress) title VS Code renders links in. Before: `trend --csv`
 * wrote a run folder named `=HYPERLINK(…)` as a live formula, and a file named
 * `[Run](command:…).jsonl` picked for Compare went into a progress title as a clickable command.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { csvCell } from '../../../src/core/presentation/csvCell';
import { plainNotificationText } from '../../../src/vscode/notificationText';

const ROOT = join(__dirname, '../../..');
const SMALL = join(ROOT, 'test/fixtures/run/small');
const VS_CODE_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;

/** Parses RFC 4180 CSV (enough for these tests: quoted cells, doubled quotes). */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  for (const line of text.trim().split('\n')) {
    const cells: string[] = [];
    for (const m of line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)) {
      const cell = m[1]!;
      cells.push(cell.startsWith('"') ? cell.slice(1, -1).replace(/""/g, '"') : cell);
      if (m[2] === '') break;
    }
    rows.push(cells);
  }
  return rows;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('CSV cells', () => {
  it('trend --csv writes a run folder named like a formula as text, and the steps are still written', () => {
    const parent = mkdtempSync(join(tmpdir(), 'prof-lens-csv-'));
    const run = join(parent, '=HYPERLINK("evil.example";"open")');
    mkdirSync(run);
    for (const name of readdirSync(SMALL).filter((n) => n.endsWith('.jsonl'))) copyFileSync(join(SMALL, name), join(run, name));
    // Named relative to the working folder, as a user in the runs' parent folder types it (the built command, run there).
    const done = spawnSync(process.execPath, [join(ROOT, 'dist/cli.js'), 'trend', relative(parent, run), '--csv', '--no-cache'], { cwd: parent, encoding: 'utf8', timeout: 60_000 });
    expect(done.status, done.stderr).toBe(0);
    const out = done.stdout;
    const rows = csvRows(out);
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows.slice(1)) {
      expect(row[0]).toMatch(/^'/);
      expect(row[0]).toContain('=HYPERLINK(');
      // The figures are still numbers: the step and its rollouts.
      expect(Number(row[1])).toBeGreaterThan(0);
    }
  });

  it('one cell writer for every CSV: numbers stay numbers, formula text becomes text', () => {
    expect(csvCell(-0.5)).toBe('-0.5');
    expect(csvCell('-1+2')).toBe("'-1+2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\uFF1D1+1')).toBe("'\uFF1D1+1");
    expect(csvCell('\t=1')).toBe("'\t=1");
    const writers = sourceFiles(join(ROOT, 'src')).filter((f) => /replace\(\/"\/g, '""'\)/.test(readFileSync(f, 'utf8'))).map((f) => relative(ROOT, f));
    expect(writers).toEqual([join('src', 'core', 'presentation', 'csvCell.ts')]);
  });
});

describe('notification and progress titles', () => {
  it('a file named as a command link is shown as its name, not a link', () => {
    const name = '[Run](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%22%7D).jsonl';
    const title = plainNotificationText(`PROF Lens: comparing ${name} with b.jsonl`);
    expect(title).toContain('[Run] (command:');
    expect(title.match(VS_CODE_LINK)).toBeNull();
  });

  it('no code opens a progress notification except through notify.ts', () => {
    const direct = sourceFiles(join(ROOT, 'src'))
      .filter((f) => !f.endsWith(join('vscode', 'notify.ts')))
      .filter((f) => /\bwithProgress\s*\(/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(ROOT, f));
    expect(direct).toEqual([]);
  });
});
