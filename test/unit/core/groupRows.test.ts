/**
 * What `report` lists per group and per suspected false positive is read from the analysis's
 * columns without making every rollout: it must be what the rollouts themselves say.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analysePath } from '../../../src/scoring/analysis/analysePath';
import { groupRowsOf } from '../../../src/core/lines/groupRows';
import { eachRollout, eachSuspected, groupIdsOfAnalysis, type FileAnalysis } from '../../../src/core/report/fileAnalysis';

const dir = mkdtempSync(join(tmpdir(), 'prof-lens-group-rows-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Groups of 6 (some named by a uid, some by their prompt), outcomes and step scores that flag some correct answers and tie others. */
function write(): string {
  const lines: string[] = [];
  for (let i = 0; i < 600; i++) {
    const g = Math.floor(i / 6);
    const weak = i % 7 === 0 ? 0.1 : 0.8;
    const record: Record<string, unknown> = { prompt: `Question ${g}: what is ${g} + 1?`, response: `We add.\n\n${g} + 1 = ${g + 1}.\n\nThe answer is ${g + 1}.`, correct: i % 3 !== 0, step_scores: [0.9, weak, i % 5 === 0 ? 0.9 : 0.7] };
    if (g % 4 === 0) record.uid = `u-${g}`;
    lines.push(JSON.stringify(record));
  }
  const path = join(dir, 'groups.jsonl');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/** The same analysis with its rollouts as a list (every rollout made), as before columns. */
function asList(a: FileAnalysis): FileAnalysis {
  // Not a spread: reading `rollouts` of an analysis with columns makes the list and lets the columns go.
  const { fileName, diagnostics, report, settings, scorer } = a;
  return { fileName, diagnostics, report, settings, scorer, rollouts: [...eachRollout(a)] };
}

describe('group rows and flagged rollouts read from columns', () => {
  it('match what every made rollout says', async () => {
    const { analysis } = await analysePath(write(), { scorer: 'file' });
    expect(analysis.rows).toBeDefined();
    const list = asList(analysis);
    expect(list.rows).toBeUndefined();
    const rows = groupRowsOf(analysis);
    expect(analysis.rows).toBeDefined();
    expect(rows).toHaveLength(100);
    expect(rows.filter((r) => r.group.startsWith('u-'))).toHaveLength(25);
    expect(rows.some((r) => r.droppedByTie > 0)).toBe(true);
    expect(rows).toEqual(groupRowsOf(list));
    expect([...groupIdsOfAnalysis(analysis)]).toEqual([...groupIdsOfAnalysis(list)]);
    const flagged = [...eachSuspected(analysis)];
    expect(flagged.length).toBeGreaterThan(0);
    expect(flagged.length).toBeLessThan(600);
    expect(flagged).toEqual([...eachSuspected(list)]);
    expect(flagged.every((r) => r.falsePositive.suspected)).toBe(true);
    // The columns were read, not let go for a list.
    expect(analysis.rows).toBeDefined();
  });
});
