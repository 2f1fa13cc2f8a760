/**
 * How a training run is scored in the editor: the settings' scorer plan, except that a critic is
 * never sent a whole run. Pure (no editor API), so it is tested directly.
 */
import type { ScorerChoice } from '../../core/scorerChoice';
import type { ModelConfig } from '../../protocol/modelConfig';
import type { HostScorerPlan } from '../scoringSettings';

/** How a run is scored in the editor: the settings' plan, except that a critic is never sent a whole run. */
export interface RunScoring {
  choice: ScorerChoice;
  model: Exclude<ModelConfig, { kind: 'critic' }> | null;
  label: string;
}

/**
 * The critic asks before anything is sent, rollout by rollout, in an open file; a training run is
 * thousands of files written while nobody watches, so runs are scored without it (the file's
 * scores, else the checker) and the dashboard says so. `prof-lens trend --scorer critic` is the way.
 */
export function runScoring(plan: Pick<HostScorerPlan, 'choice' | 'model'>): RunScoring {
  if (plan.choice === 'critic' || plan.model?.kind === 'critic') {
    const choice = plan.choice === 'critic' ? 'auto' : plan.choice;
    return { choice, model: null, label: `${choice === 'checker' ? 'checker' : choice === 'file' ? 'file' : 'file, else checker'} (the critic is not used for training runs in the editor)` };
  }
  const model = plan.model !== null && (plan.choice === 'auto' || plan.choice === plan.model.kind) ? plan.model : null;
  const kind = model?.kind ?? 'checker';
  const label = plan.choice === 'auto' ? `file, else ${kind}` : plan.choice === 'file' ? 'file' : plan.choice === 'checker' ? 'checker' : kind;
  return { choice: plan.choice, model, label };
}
