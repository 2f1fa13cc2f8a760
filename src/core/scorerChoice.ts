/**
 * The scorer a user chooses, one list for the CLI (`--scorer`), the editor setting
 * (`profLens.scoring.scorer`) and the analysis worker's protocol: `auto` takes the file's scores,
 * else the configured model, else the embedded checker; `file` and `checker` take only those;
 * a model kind (`onnx`, `http`, `critic`) forces the configured model of that kind. The critic is
 * never chosen by `auto`: it sends rollouts to a chat model, only when asked to.
 */
export type ScorerChoice = 'auto' | 'file' | 'checker' | 'onnx' | 'http' | 'critic';

export const SCORER_CHOICES: readonly ScorerChoice[] = ['auto', 'file', 'checker', 'onnx', 'http', 'critic'];

/** Whether a value (a setting, a message field) is one of the choices. */
export function isScorerChoice(value: unknown): value is ScorerChoice {
  return typeof value === 'string' && (SCORER_CHOICES as readonly string[]).includes(value);
}

/** The choices that name a model kind. */
export type ModelChoice = Extract<ScorerChoice, 'onnx' | 'http' | 'critic'>;

/** Whether the choice names a model kind, so that it forces the configured model. */
export function isModelChoice(choice: ScorerChoice): choice is ModelChoice {
  return choice === 'onnx' || choice === 'http' || choice === 'critic';
}
