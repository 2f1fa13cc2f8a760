/**
 * A training run as one Explorer table: each step file's rollouts appended, file after file, to
 * one column store for the run (a `RolloutTable`, without texts), beside the run's own columns:
 * each row's training step, its step file and the health detectors it shows, and the evidence
 * line of each flagged row (worded while its file's analysis was at hand). A file's analysis is
 * let go once its rows are in, so the run's store is the only copy of its figures. Rows are
 * numbered in run order, so "file order" in a run's table is step files in order, then lines;
 * filters, sorts and searches run over a run exactly as over one file, through `ExplorerTable`.
 */
import type { AnalysedRollout } from '../table/analysedRollout';
import { Column } from '../table/columns';
import { RolloutTable } from '../table/rolloutTable';
import { groupIds } from '../report/groupIds';
import { questionNamer } from '../presentation/groupNames';
import { ExplorerTable } from './explorerTable';

/** One rollout of a step file, with what the run knows of it. */
export interface RunRow {
  rollout: AnalysedRollout;
  step: number;
  /** Bit i: `FLAGGED_IDS[i]` shows. */
  health: number;
}

const NO_NOTES: readonly (string | null)[] = [];

export class RunTable {
  private readonly store = new RolloutTable();
  private readonly steps = new Column(Int32Array);
  private readonly fileNumbers = new Column(Int32Array);
  private readonly health = new Column(Uint8Array);
  private readonly files: string[] = [];
  /** Readable group ids by the store's group number: `step 12 · g3`, as ids repeat from step to step. */
  private readonly groupIds: string[] = [];
  /** Each question named as its own file names it (the instruction its file's groups share taken away). */
  private readonly questionNames = new Map<string, string>();
  private readonly evidence = new Map<number, string>();

  get count(): number {
    return this.store.count;
  }

  /** Appends one step file's rollouts, in file order; returns how many. */
  addFile(file: string, rows: Iterable<RunRow>): number {
    const fileNumber = this.files.length;
    this.files.push(file);
    const before = this.store.count;
    const groupsBefore = this.store.groups.size;
    const firsts: { group: string; question: string; step: number }[] = [];
    for (const { rollout: r, step, health } of rows) {
      // Groups are the file's: the same id in two step files is two groups.
      // The Explorer shows neither step notes nor step labels: the run's store keeps none.
      const at = this.store.add({ ...r, group: `${fileNumber}\u0000${r.group}`, stepNotes: NO_NOTES, stepLabels: null }, { texts: false, offsets: false });
      this.store.setDecision(at, r.decision, r.falsePositive);
      if (this.store.groups.size > groupsBefore + firsts.length) firsts.push({ group: r.group, question: r.prompt, step });
      if (r.evidence !== null && r.falsePositive.rules.length > 0) this.evidence.set(at, r.evidence);
      this.steps.push(step);
      this.fileNumbers.push(fileNumber);
      this.health.push(health);
    }
    const ids = groupIds(firsts);
    const nameOf = questionNamer(firsts.map((f) => f.question));
    for (const f of firsts) {
      this.groupIds.push(`step ${f.step} · ${ids.get(f.group) as string}`);
      if (!this.questionNames.has(f.question)) this.questionNames.set(f.question, nameOf(f.question));
    }
    return this.store.count - before;
  }

  /** The Explorer's table over the rows appended so far. */
  table(): ExplorerTable {
    const count = this.store.count;
    return new ExplorerTable(this.store, {
      count,
      groupIds: this.groupIds.slice(),
      nameQuestion: (question) => this.questionNames.get(question) ?? question,
      evidenceOf: (row) => this.evidence.get(row) ?? null,
      run: { step: this.steps.storage(), file: this.fileNumbers.storage(), files: this.files.slice(), health: this.health.storage() },
    });
  }
}
