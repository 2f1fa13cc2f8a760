/** A side analysed in the compare worker thread gives what the command's own thread gives. */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { analyseSide } from '../../../../src/scoring/compare/analyseSide';
import { analyseSideInWorker } from '../../../../src/scoring/compare/sideWorker';
import { CompareSourceError, resolveCompareSource } from '../../../../src/scoring/compare/compareSource';

const ROOT = join(__dirname, '../../../..');

describe('the compare side worker (dist/compareWorker.js)', () => {
  it('analyses a side as this thread does, and a side it cannot read fails as a source error', async () => {
    const source = await resolveCompareSource('test/fixtures/compare/b.jsonl', ROOT);
    const options = { settings: {}, scorer: 'auto' as const };
    expect(await analyseSideInWorker(source, options)).toEqual(await analyseSide(source, options));
    const stepped = { ...source, step: 3 };
    await expect(analyseSideInWorker(stepped, options)).rejects.toThrow(CompareSourceError);
  });
});
