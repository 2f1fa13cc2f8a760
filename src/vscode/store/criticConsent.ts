/**
 * Critic consent: an analysis with a critic asks the user (SendGuard's modal) before the worker
 * sends any rollout; with any other scorer, or without a guard, nothing is asked and nothing sent.
 */
import type { SendPlan } from '../../protocol/analysis';
import type { ModelConfig } from '../../protocol/modelConfig';
import type { SendGuard } from '../sendGuard';

/** How one analysis handles consent: whether the worker asks, and who answers. */
export interface ConsentHandling {
  shouldConfirmSend: boolean;
  onConsent?: (plan: SendPlan) => Promise<boolean>;
}

export function consentFor(model: ModelConfig | null, guard: SendGuard | undefined): ConsentHandling {
  guard?.noteModel(model);
  if (model?.kind !== 'critic' || !guard) return { shouldConfirmSend: false };
  return { shouldConfirmSend: true, onConsent: (plan) => guard.confirm(plan) };
}
