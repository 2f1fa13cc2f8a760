/** One analysed rollout, the row every surface reads (the file's analysis holds them; see fileAnalysis.ts). */
import type { Decision, Outcome, RewardField, Rollout, Step } from '../model';
import type { FalsePositive } from '../rules/groups';
import type { RolloutFacts } from '../presentation/rolloutFacts';
import type { PromptReading, QuestionReading } from '../transcript/promptReading';
import type { Turn } from '../transcript/turns';

/** One rollout as every surface sees it; the facts (low steps, evidence …) are derived once, here. */
export interface AnalysedRollout extends RolloutFacts {
  id: number;
  /** 1-based line of the record. */
  line: number;
  /** Response index within the record. */
  index: number;
  /** 0-based index of the record in a JSON array file (absent for JSONL). */
  item?: number | undefined;
  format: Rollout['format'];
  group: string;
  /** Empty when the analysis was asked not to keep texts (large files in the CLI). */
  prompt: string;
  response: string;
  /** Length of the response in UTF-16 code units, kept even when the texts are not. */
  responseChars: number;
  gold: string | null;
  steps: Step[];
  /** The steps as [start, end) offsets in the raw line; null when the response is not one literal there. */
  rawSteps: { start: number; end: number }[] | null;
  stepScores: (number | null)[];
  /** Per-step notes (`neutral`, a false claim, `unscored (context)`); empty when there are none. */
  stepNotes: (string | null)[];
  /** Which scorer scored it (`file`, `checker`, `onnx …`), or why none could. */
  scorer: string;
  unscoredReason: string | null;
  outcome: Outcome;
  decision: Decision;
  falsePositive: FalsePositive;
  /** Labels the file carries per step (PRM800K ratings, ProcessBench, Math-Shepherd), if any. */
  stepLabels: (number | null)[] | null;
  /** How the question (`prompt`) was read from the record: plain, a chat transcript, used whole. */
  questionReading: QuestionReading;
  /** The prompt's turns and system prompt; kept with the texts (absent when they are not). */
  promptReading?: PromptReading;
  /** The response's turns (tool calls, tool replies, user turns) as spans of `response`; null when it is all the assistant's. */
  responseTurns: Turn[] | null;
  /** The field the file's outcome came from (`score`, `accuracy_reward`, `reward > 0` …), if the format names one. */
  outcomeField: string | null;
  /** Per-sample reward fields the record carries, as the file names them. */
  rewards: RewardField[] | null;
}
