/**
 * A file's text read and prepared as the analysis prepares it (no scoring): its rollouts and every
 * diagnostic, the reader's and the adapters'. Shared by the format tests.
 */
import { readText } from '../../../../src/core/read/reader';
import { prepareRecord, type PreparedRollout } from '../../../../src/core/formats/prepareRollout';
import { resolveSettings } from '../../../../src/core/profSettings';
import type { Diagnostic } from '../../../../src/core/model';

export function prepareText(text: string, fileName: string): { rollouts: PreparedRollout[]; diagnostics: Diagnostic[] } {
  const records = readText(text, fileName);
  const rollouts: PreparedRollout[] = [];
  const diagnostics = [...records.diagnostics];
  for (const record of records.records) {
    const prepared = prepareRecord(record, { settings: resolveSettings(), rawOffsets: true, firstId: rollouts.length });
    rollouts.push(...prepared.rollouts);
    diagnostics.push(...prepared.diagnostics);
  }
  return { rollouts, diagnostics };
}
