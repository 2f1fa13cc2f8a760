/**
 * A row of the Rollout Explorer as a page sends it, and a run's own columns: the shapes the
 * table, its column declarations and the webview share.
 */
import type { OutcomeKind, ReasonCode } from '../model';
import type { FalsePositiveRule } from '../profSettings';
import type { FlaggedId } from '../health/rolloutFlags';

/** One row of the explorer, JSON-plain: what a page sends to the view. */
export interface ExplorerRow {
  /** The rollout's id in its analysis (its row). */
  id: number;
  line: number;
  /** 0-based response index within the line. */
  index: number;
  /** 0-based element of a JSON array file, or null for JSONL. */
  item: number | null;
  /** The line holds several rollouts (a grouped line), so its place names the response. */
  isSharedLine: boolean;
  /** How many rollouts the row's line (or array item) holds: 1 for a flat record. */
  responsesOnLine: number;
  /** The readable group id (the file's uid, else g1, g2 … in order of first appearance). */
  group: string;
  /** The group's name: its question without the instruction every group of the file shares. */
  groupName?: string;
  outcome: OutcomeKind;
  /** The final answer extracted from the response (capped for display), if one was looked for. */
  extracted: string | null;
  gold: string | null;
  /** H, the number of steps the scores cover. */
  steps: number;
  meanScore: number | null;
  weakestScore: number | null;
  /** 0-based step of the weakest score. */
  weakestStep: number | null;
  consistency: number | null;
  kept: boolean;
  reason: ReasonCode;
  suspectedFalsePositive: boolean;
  /** The false-positive rules that fired (all of them, as the decision lines list them). */
  falsePositiveRules: FalsePositiveRule[];
  /** The evidence line of a flag, in words; null when no rule fired. */
  evidence: string | null;
  /** How strongly the evidence speaks (what flags are ranked by); null when not suspected. */
  strength: number | null;
  penalised: boolean;
  /** No scorer could score it (it is then not ranked). */
  unscored: boolean;
  unscoredReason: string | null;
  responseChars: number;
  /** Every reward column of the file: its value for this rollout (null when it has none). */
  rewards: Record<string, number | null>;
  /** The declared number columns the fields above do not carry (`explorerColumns.ts`: those worded by a format), by name. */
  figures: Record<string, number | null>;
  /** In a run's table: the training step, the step file the row came from, and the health detectors it shows. */
  step?: number;
  file?: string;
  health?: FlaggedId[];
}

/**
 * A run's columns (`runTable.ts`): each row's training step, its step file (an index into
 * `files`) and the health detectors it shows (bit i: `FLAGGED_IDS[i]`).
 */
export interface RunColumns {
  step: Int32Array;
  file: Int32Array;
  files: string[];
  health: Uint8Array;
}
