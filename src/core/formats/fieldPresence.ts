/**
 * Whether the paths of the user's field mapping name anything in the file. A mapped path that no
 * record has is a mistake (a typo, another format), not a value: read as missing on every record,
 * `--field group=meta.uid` would put every rollout in one group `null` without a word.
 */
import type { Diagnostic } from '../model';
import type { FieldRole } from '../profSettings';
import { getPath, parsePath } from './fields';

/** Follows, record by record, which mapped paths have been found. */
export class FieldPresence {
  private readonly pending: { role: FieldRole; path: string; parts: (string | number)[] }[] = [];

  constructor(fields: Partial<Record<FieldRole, string>>) {
    for (const role of Object.keys(fields) as FieldRole[]) {
      const path = fields[role];
      if (typeof path === 'string' && path !== '') this.pending.push({ role, path, parts: parsePath(path) });
    }
  }

  /** Notes the paths `value` has (cheap once every path has been seen). */
  observe(value: unknown): void {
    if (this.pending.length === 0) return;
    for (let i = this.pending.length - 1; i >= 0; i--) {
      if (getPath(value, this.pending[i]!.parts) !== undefined) this.pending.splice(i, 1);
    }
  }

  /** The mapped roles whose path no record had, in the order given. */
  missing(): { role: FieldRole; path: string }[] {
    return this.pending.map(({ role, path }) => ({ role, path }));
  }

  /** One diagnostic per path no record had (after at least one record was read). */
  diagnostics(line: number): Diagnostic[] {
    return this.pending.map(({ role, path }) => ({
      line,
      severity: 'error',
      code: FIELD_NOT_FOUND,
      message: `no record has "${path}", the path the field mapping gives for ${role}`,
    }));
  }
}

/** The code of a mapped path that no record has. */
export const FIELD_NOT_FOUND = 'field-not-found';
