/**
 * Messages between `prof-lens compare` and its side worker (`dist/compareWorker.js`), which
 * analyses one side while the command's own thread analyses the other. JSON-plain, discriminated
 * on `type`: each `analyseSide` request gets exactly one `side` or `failed`. Both ends check what
 * they receive with the guards below.
 */
import type { ProfSettings } from '../core/profSettings';
import { isScorerChoice } from '../core/scorerChoice';
import type { CompareSide } from '../core/compare/compareSide';
import { arrayOf, isArray, isBoolean, isNumber, isRecord, isString, nullable, outline, shape, type Guard } from './guards';
import { message, protocol, request, type MessageOf, type Sent } from './messages';

/** A side as resolved: its files, the step to keep (null: all records), each file's named step. */
export interface SideSource {
  label: string;
  files: string[];
  step: number | null;
  fileSteps: (number | null)[];
}

/** Problems found reading a side, as the command prints them. */
export interface SideProblem {
  where: string;
  line: number;
  severity: 'error' | 'warning' | 'info';
  message: string;
}

export const side = message('toHost', 'side', {
  id: isNumber,
  side: outline<CompareSide>({ prompts: isArray }),
  scorerLabel: isString,
  problems: isArray as Guard<SideProblem[]>,
  moreProblems: isNumber,
});
export const sideFailed = message('toHost', 'failed', {
  id: isNumber,
  message: isString,
  /** The side cannot be compared as named (a usage error, exit 2), rather than a failure while reading it. */
  isSourceError: isBoolean,
});

const isSideSource: Guard<SideSource> = shape({ label: isString, files: arrayOf(isString), step: nullable(isNumber), fileSteps: isArray as Guard<(number | null)[]> });

/** Analyse one side: answered by exactly one `side` or `failed`. */
export const analyseSide = request('fromHost', 'analyseSide', {
  id: isNumber,
  source: isSideSource,
  settings: isRecord as Guard<Partial<ProfSettings>>,
  scorer: isScorerChoice,
}, { replies: [side, sideFailed] });

/** The compare side worker's channel. */
export const compareWorkerProtocol = protocol(analyseSide);
export type AnalyseSideRequest = MessageOf<typeof analyseSide>;
export type CompareWorkerToHost = Sent<typeof compareWorkerProtocol, 'toHost'>;
export const isAnalyseSideRequest = compareWorkerProtocol.guard('fromHost');
export const isCompareWorkerToHost = compareWorkerProtocol.guard('toHost');
