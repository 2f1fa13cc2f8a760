/**
 * Lookups over one document's rollout summaries: by line, by id, by group, and the navigation
 * targets (low-score steps, suspected false positives, groups). Pure: no `vscode` import, so it is
 * unit-tested directly. Lines here are 1-based like the analysis; columns are 0-based.
 */
import type { RolloutSummary } from '../protocol/analysis';

/** A position in a raw file: 1-based line, 0-based character. */
export interface RawPosition {
  line: number;
  character: number;
}

/** A low-score step located in the raw file. */
export interface StepLocation {
  rollout: RolloutSummary;
  step: number;
  start: number;
  end: number;
}

/** Indexes the rollouts of one analysed document. */
export class RolloutIndex {
  private readonly byLine = new Map<number, RolloutSummary[]>();
  private readonly byId = new Map<number, RolloutSummary>();
  private readonly byGroup = new Map<string, RolloutSummary[]>();
  /** Rollouts by id, which is their position in the file: file order without sorting. */
  private readonly byPosition: RolloutSummary[] = [];
  private count = 0;
  private ordered: RolloutSummary[] | null = null;

  /** Adds a chunk of rollouts; the chunk with the visible lines may come before the rest. */
  add(rollouts: readonly RolloutSummary[]): void {
    this.ordered = null;
    for (const rollout of rollouts) {
      this.byPosition[rollout.id] = rollout;
      this.count++;
      this.byId.set(rollout.id, rollout);
      pushTo(this.byLine, rollout.line, rollout);
      pushTo(this.byGroup, rollout.group, rollout);
    }
  }

  get size(): number {
    return this.count;
  }

  /** Every rollout in file order. */
  get all(): readonly RolloutSummary[] {
    // Ids are dense once every chunk is in; until then skip the holes.
    this.ordered ??= this.count === this.byPosition.length ? this.byPosition : this.byPosition.filter((r) => r !== undefined);
    return this.ordered;
  }

  onLine(line: number): readonly RolloutSummary[] {
    return this.byLine.get(line) ?? [];
  }

  byRolloutId(id: number): RolloutSummary | undefined {
    return this.byId.get(id);
  }

  group(key: string): readonly RolloutSummary[] {
    const list = this.byGroup.get(key) ?? [];
    // Small lists; the visible lines' chunk may have put some members ahead of earlier ones.
    return list.sort((a, b) => a.id - b.id);
  }

  /** The rollout and step whose raw span contains a position, if any. */
  stepAt(position: RawPosition): StepLocation | undefined {
    for (const rollout of this.onLine(position.line)) {
      const steps = rollout.rawSteps ?? [];
      for (let step = 0; step < steps.length; step++) {
        const span = steps[step];
        if (span && position.character >= span.start && position.character < span.end) {
          return { rollout, step, start: span.start, end: span.end };
        }
      }
    }
    return undefined;
  }

  /**
   * The rollout a position is in: the one whose step holds it, else, on a line holding several
   * responses, the last whose first step starts at or before it (the cursor between two steps of
   * response 4 is in response 4), else the line's first.
   */
  rolloutAt(position: RawPosition): RolloutSummary | undefined {
    const hit = this.stepAt(position)?.rollout;
    if (hit) return hit;
    const onLine = this.onLine(position.line);
    let best: RolloutSummary | undefined;
    for (const rollout of onLine) {
      const start = rollout.rawSteps?.[0]?.start;
      if (start !== undefined && start <= position.character && (best === undefined || start > (best.rawSteps?.[0]?.start ?? -1))) best = rollout;
    }
    return best ?? onLine[0];
  }

  /** Low-score steps on one line, in order. */
  lowStepsOnLine(line: number): StepLocation[] {
    const found: StepLocation[] = [];
    for (const rollout of this.onLine(line)) {
      for (const step of rollout.lowSteps) {
        const span = rollout.rawSteps?.[step];
        if (span) found.push({ rollout, step, start: span.start, end: span.end });
      }
    }
    return found;
  }

  /** The next (or previous) low-score step after a position, wrapping around the file. */
  nearestLowStep(from: RawPosition, direction: 1 | -1): StepLocation | undefined {
    const lines = [...this.byLine.keys()].sort((a, b) => a - b);
    if (direction < 0) lines.reverse();
    const isAfter = (s: StepLocation): boolean =>
      direction > 0
        ? s.rollout.line > from.line || (s.rollout.line === from.line && s.start > from.character)
        : s.rollout.line < from.line || (s.rollout.line === from.line && s.start < from.character);
    let first: StepLocation | undefined;
    for (const line of lines) {
      const steps = this.lowStepsOnLine(line);
      if (direction < 0) steps.reverse();
      for (const step of steps) {
        first ??= step;
        if (isAfter(step)) return step;
      }
    }
    return first;
  }

  /** The next rollout after a line that matches, wrapping around the file. */
  nextRollout(fromLine: number, matches: (rollout: RolloutSummary) => boolean): RolloutSummary | undefined {
    const candidates = this.all.filter(matches);
    return candidates.find((r) => r.line > fromLine) ?? candidates[0];
  }

  /** The first rollout of the next group after a line, in file order. */
  nextGroup(fromLine: number): RolloutSummary | undefined {
    const current = this.onLine(fromLine)[0]?.group;
    return this.nextRollout(fromLine, (r) => r.group !== current);
  }
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
