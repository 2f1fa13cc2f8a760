/** An in-process summariser for tests that remembers which files it read (by name). */
import { fileBatches } from '../../../../src/scoring/run/fileBatches';
import type { ProfSettings } from '../../../../src/core/profSettings';
import type { FileSummariser } from '../../../../src/scoring/run/runFiles';
import { summariseRecords } from '../../../../src/scoring/run/summariseRecords';

export function countingSummariser(settings: Partial<ProfSettings> = {}): { summarise: FileSummariser; read: string[] } {
  const read: string[] = [];
  return {
    read,
    summarise: async (file, options) => {
      read.push(file.replace(/^.*[\\/]/, ''));
      return { figures: await summariseRecords(fileBatches(file, options.onBytes), { file, settings, scorer: 'auto' }), scorerLabel: 'file, else checker' };
    },
  };
}
