/**
 * The threshold an editor analysis uses, decided as the CLI decides it (`chooseThreshold`): the
 * one the user set, else the one `prof-lens eval --calibrate` stored for this scorer's identity,
 * else the default — decided in the analysis worker once the model (if any) is open, since a
 * model's identity is known only then.
 */
import type { ThresholdSource } from '../../core/evaluation/thresholdChoice';
import { chooseThreshold } from '../../core/evaluation/thresholdChoice';
import { DEFAULT_SETTINGS, type ProfSettings } from '../../core/profSettings';
import type { ScorerChoice } from '../../core/scorerChoice';
import type { AnalysisSource } from '../../protocol/analysis';
import type { Scorer } from '../scorers/scorer';
import { readCalibrations } from './calibrationStore';
import { peekFileScores, peekTextScores, scorerIdentity, type ScoresPeek } from './scorerIdentity';

/** What the choice is made from. */
export interface AnalysisThresholdInput {
  source: AnalysisSource;
  fileName: string;
  settings: Partial<ProfSettings>;
  /** The user set the threshold (in settings): it is used as given. */
  isThresholdGiven: boolean;
  scorer: ScorerChoice;
  /** The model that scores this analysis, if any. */
  model?: Scorer;
  /** Where `eval --calibrate` stores calibrations; null: none are read. */
  calibrationsDir: string | null;
}

async function peekOf(input: AnalysisThresholdInput): Promise<ScoresPeek | null> {
  if (input.scorer !== 'auto' && input.scorer !== 'file') return null;
  if (input.source.kind === 'text') return peekTextScores(input.source.text, input.fileName);
  return peekFileScores(input.source.path).catch(() => null);
}

/** The threshold to analyse with and where it came from. A damaged calibrations file counts as none. */
export async function analysisThreshold(input: AnalysisThresholdInput): Promise<ThresholdSource> {
  const value = input.settings.threshold ?? DEFAULT_SETTINGS.threshold;
  const { identity, kind } = scorerIdentity({ scorer: input.scorer, ...(input.model ? { model: input.model } : {}), peek: await peekOf(input) });
  const calibrations = input.isThresholdGiven || input.calibrationsDir === null
    ? new Map()
    : (await readCalibrations(input.calibrationsDir).catch(() => ({ calibrations: new Map() }))).calibrations;
  return chooseThreshold({ given: input.isThresholdGiven ? value : null, fallback: value, identity, isChecker: kind === 'checker', calibrations });
}
