/**
 * The words of the question asked before rollouts go to a critic, in the editor's modal and on the
 * command line (`audit --critic`). Pure (no `vscode` import), so a
 * test reads exactly what the user reads.
 */
import type { SendPlan } from '../../../protocol/analysis';
import { hostOf } from '../endpoints/endpointUrls';

/** The modal's title and detail for a plan, with a warning about the API key when there is one. */
export function consentText(plan: SendPlan, keyWarning: string | null): { message: string; detail: string } {
  const rollouts = `${plan.rollouts} rollout${plan.rollouts === 1 ? '' : 's'}`;
  const hosts = plan.urls.map(hostOf).join(', ');
  const detail = [
    `About ${plan.approxTokens.toLocaleString('en-US')} tokens of problems and solutions go to ${hosts}${plan.model ? ` (model ${plan.model})` : ''},`
      + ` one request per rollout; each answer may use up to ${plan.maxAnswerTokens.toLocaleString('en-US')} tokens.`,
    'Rollouts already judged are answered from the score cache and not sent. Nothing from this file is sent until you agree.',
    ...(keyWarning ? [`Warning: ${keyWarning}.`] : []),
  ].join('\n\n');
  return { message: `PROF Lens: send ${rollouts} to the critic at ${hosts}?`, detail };
}
