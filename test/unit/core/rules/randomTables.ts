// Random tables of rollouts (groups interleaved, ties frequent) and random PROF settings, with
// the same rollouts as decideAll's members: what the table-level code is compared with.
import { RolloutTable } from '../../../../src/core/table/rolloutTable';
import type { GroupMember } from '../../../../src/core/rules/groups';
import { resolveSettings, type ProfSettings } from '../../../../src/core/profSettings';
import type { FormatId, Outcome, OutcomeKind } from '../../../../src/core/model';
import type { QuestionReading } from '../../../../src/core/transcript/promptReading';

const FORMATS: readonly FormatId[] = ['generic', 'verl', 'trl', 'chat'];
const SCORERS = ['file', 'checker', 'onnx:prm'];
const READINGS: readonly QuestionReading[] = [{ kind: 'plain' }, { kind: 'transcript', template: 'chatml', hasSpecialTokens: true }, { kind: 'whole', template: 'chatml', hasSpecialTokens: false, problem: 'two user turns' }];

const KINDS: OutcomeKind[] = ['correct', 'incorrect', 'unknown', 'non-binary'];

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 4294967296);
}

export interface Case {
  table: RolloutTable;
  members: GroupMember[];
}

/** A random table, groups interleaved, and the same rollouts as decideAll's members. */
export function makeCase(seed: number, rowCount?: number, varied = false): Case {
  const rand = random(seed);
  const table = new RolloutTable();
  const members: GroupMember[] = [];
  const rowsOf: { group: string; kind: OutcomeKind; isScored: boolean; stepScores: (number | null)[] }[] = [];
  const groups = 1 + Math.floor(rand() * 12);
  const rows = rowCount ?? Math.floor(rand() * 160);
  // A few score values only, so that consistencies tie often; sometimes a group far larger than 32.
  const values = [0, 0.25, 0.5, 0.5 + 1e-12, 0.75, 1, -0];
  for (let row = 0; row < rows; row++) {
    const group = rand() < 0.1 ? 'big' : `g${Math.floor(rand() * groups)}`;
    const kind = KINDS[rand() < 0.8 ? Math.floor(rand() * 2) : Math.floor(rand() * 4)] as OutcomeKind;
    const isScored = rand() < 0.9;
    const steps = Math.floor(rand() * 6);
    const stepScores = isScored ? Array.from({ length: steps }, () => (rand() < 0.1 ? null : (values[Math.floor(rand() * values.length)] as number))) : [];
    rowsOf.push({ group, kind, isScored, stepScores });
  }
  // `varied`: scorers, formats and question readings differ from row to row, as a file's may.
  const pick = <T>(xs: readonly T[]): T => (varied ? (xs[Math.floor(rand() * xs.length)] as T) : (xs[0] as T));
  for (const [row, { group, kind, isScored, stepScores }] of rowsOf.entries()) {
    const outcome: Outcome = { kind, source: 'file', value: kind === 'correct' ? 1 : 0 };
    table.add({
      line: row + 1, index: 0, item: undefined, format: pick(FORMATS), group, prompt: 'p', response: '', responseChars: 0, gold: null,
      steps: [], rawSteps: null, stepScores, stepNotes: [], scorer: pick(SCORERS), unscoredReason: isScored ? null : 'no scores', isScored,
      outcome, stepLabels: null, questionReading: pick(READINGS), promptReading: undefined, responseTurns: null, outcomeField: null, rewards: null,
    }, { texts: false, offsets: false });
    members.push({ id: row, group, correct: kind === 'correct' ? true : kind === 'incorrect' ? false : null, nonBinary: kind === 'non-binary', scores: isScored ? stepScores : null });
  }
  return { table, members };
}

export function settingsFor(seed: number): ProfSettings {
  const rand = random(seed * 7 + 1);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  return resolveSettings({
    m: 1 + Math.floor(rand() * 8),
    remove: rand() < 0.3 ? Math.floor(rand() * 6) : null,
    aggregate: pick(['mean', 'min', 'sum'] as const),
    penalty: pick(['card', 'reference'] as const),
    lambda: pick([0, 0.5, 10]),
    maxSteps: 1 + Math.floor(rand() * 6),
    threshold: pick([0, 0.3, 0.5, 0.9]),
    falsePositiveRules: pick([['prof-dropped', 'weak-step', 'bottom-half'], ['weak-step'], ['bottom-half', 'prof-dropped'], []] as const).slice(),
    variant: rand() < 0.2 ? 'pos' : 'both',
    seed: Math.floor(rand() * 5),
  });
}
