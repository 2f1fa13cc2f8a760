/**
 * The decider on one group given as a list (the panel's what-if, the editor's exports, the tests of
 * PROF's semantics): the members become the columns of a one-group table, and the same two passes
 * as `decideTable` run on them — PROF, then the settings' rule. No second implementation of either.
 */
import type { Decision, ReasonCode } from '../model';
import type { ProfSettings } from '../profSettings';
import type { DecisionColumns } from '../table/rolloutTable';
import { IS_KEPT, IS_PENALISED, IS_SCORED, REASONS } from '../table/rolloutTable';
import { COLUMN_PAGE } from '../table/columns';
import { falsePositivesOf, type FalsePositive, type GroupMember, type GroupOutcome } from './groups';
import { decideProf } from './prof';
import type { RankInput } from './profMath';
import { applyRule } from './decide';
import { chosenRule } from './registry';

export interface ListOutcome {
  /** One decision per member, in member order. */
  decisions: Decision[];
  /** The false-positive verdicts, made on PROF's figures whatever the rule (as the table's are). */
  falsePositives: FalsePositive[];
}

const NO_SIGNALS = Object.freeze({});

/** Decides one group. `groupKey` seeds PROF's POS draw, so a group's decision does not depend on the other groups. */
export function decideList(members: readonly RankInput[], settings: ProfSettings, groupKey = ''): ListOutcome {
  const n = members.length;
  // Rows in id order: ids are file-order ids, and PROF breaks ties and draws by row.
  const byId = Array.from({ length: n }, (_, at) => at).sort((a, b) => members[a]!.id - members[b]!.id);
  const rowOf = new Int32Array(n);
  byId.forEach((at, row) => (rowOf[at] = row));
  const columns = columnsOf(members, byId);
  const groups = { starts: Int32Array.of(0, n), order: Int32Array.from({ length: n }, (_, row) => row), key: () => groupKey };
  decideProf(columns, groups, settings, null);
  const profDecisions = members.map((m, at) => decisionOf(columns, rowOf[at]!, m.id));
  const falsePositives = falsePositivesOf(members, profDecisions, settings);
  const { rule, params } = chosenRule(settings);
  if (rule.decideGroup === null) return { decisions: profDecisions, falsePositives };
  applyRule(rule, params, columns, groups, settings.threshold, (row) => members[byId[row]!]!.signals ?? NO_SIGNALS);
  return { decisions: members.map((m, at) => decisionOf(columns, rowOf[at]!, m.id)), falsePositives };
}

/** PROF's decisions of one group (the first pass only; `decideList` for a rule's). */
export function decideGroup(members: readonly RankInput[], settings: ProfSettings, groupKey = ''): Decision[] {
  return decideList(members, { ...settings, curation: undefined }, groupKey).decisions;
}

function columnsOf(members: readonly RankInput[], byId: readonly number[]): DecisionColumns {
  const n = members.length;
  const c: DecisionColumns = {
    groups: new Int32Array(n), flags: new Uint8Array(n), scoreStart: new Int32Array(n), scoreCount: new Int32Array(n), scorePages: [],
    outcomeKinds: new Uint8Array(n), reason: new Uint8Array(n), steps: new Int32Array(n), score: new Float64Array(n), consistency: new Float64Array(n), rank: new Int32Array(n),
  };
  let total = 0;
  for (const m of members) total += m.scores?.length ?? 0;
  const pages: Float64Array[] = [];
  for (let from = 0; from < total || pages.length === 0; from += COLUMN_PAGE) pages.push(new Float64Array(COLUMN_PAGE));
  let at = 0;
  byId.forEach((member, row) => {
    const m = members[member]!;
    c.outcomeKinds[row] = m.nonBinary ? 3 : m.correct === null ? 2 : m.correct ? 0 : 1;
    c.scoreStart[row] = at;
    c.scoreCount[row] = m.scores?.length ?? 0;
    if (m.scores !== null) c.flags[row] = IS_SCORED;
    for (const s of m.scores ?? []) {
      pages[Math.floor(at / COLUMN_PAGE)]![at % COLUMN_PAGE] = s === null ? Number.NaN : s;
      at++;
    }
  });
  c.scorePages = pages;
  return c;
}

/** A row's decision, as `RolloutTable.decision` reads it. */
function decisionOf(c: DecisionColumns, row: number, id: number): Decision {
  const score = c.score[row]!;
  const consistency = c.consistency[row]!;
  const rank = c.rank[row]!;
  return {
    id,
    kept: (c.flags[row]! & IS_KEPT) !== 0,
    reason: REASONS[c.reason[row]!] as ReasonCode,
    steps: c.steps[row]!,
    score: Number.isNaN(score) ? null : score,
    consistency: Number.isNaN(consistency) ? null : consistency,
    penalised: (c.flags[row]! & IS_PENALISED) !== 0,
    rank: rank === -1 ? null : rank,
  };
}

/**
 * Decide every group. Inputs may come in any order; outputs are aligned with the inputs.
 * Group order of first appearance is kept so reports list groups as the file does.
 */
export function decideAll(members: readonly GroupMember[], settings: ProfSettings): GroupOutcome {
  const byGroup = new Map<string, number[]>();
  members.forEach((m, i) => {
    const list = byGroup.get(m.group);
    if (list) list.push(i);
    else byGroup.set(m.group, [i]);
  });
  const decisions = new Array<Decision>(members.length);
  const falsePositives = new Array<FalsePositive>(members.length);
  for (const [key, indices] of byGroup) {
    const groupMembers = new Array<GroupMember>(indices.length);
    for (let k = 0; k < indices.length; k++) groupMembers[k] = members[indices[k] as number] as GroupMember;
    const { decisions: groupDecisions, falsePositives: fps } = decideList(groupMembers, settings, key);
    for (let k = 0; k < indices.length; k++) {
      const i = indices[k] as number;
      decisions[i] = groupDecisions[k] as Decision;
      falsePositives[i] = fps[k] as FalsePositive;
    }
  }
  return { decisions, falsePositives };
}
