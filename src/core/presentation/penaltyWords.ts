/**
 * The step-count penalty in the paper's terms, from the configured rule and Hλ (never a literal):
 * the zones a rule penalises, why one rollout is penalised, and its badge.
 */
import type { Decision } from '../model';
import type { ProfSettings } from '../profSettings';
import { penaltyBounds } from '../rules/profMath';

/** What the penalty words depend on. */
export type PenaltySettings = Pick<ProfSettings, 'lambda' | 'maxSteps' | 'penalty'>;
type RuleSettings = Pick<ProfSettings, 'maxSteps' | 'penalty'>;

/** The two penalised zones as conditions on H: `H ≤ 1` and `H ≥ 30` (card), `H < 2` and `H > 30` (reference). */
export function penaltyZoneLabels(settings: RuleSettings): { short: string; long: string } {
  const { shortest, longest } = penaltyBounds(settings.penalty, settings.maxSteps);
  return settings.penalty === 'card'
    ? { short: `H ≤ ${shortest}`, long: `H ≥ ${longest}` }
    : { short: `H < ${shortest + 1}`, long: `H > ${longest - 1}` };
}

/** The penalised zones in one phrase: `H ≤ 1 or H ≥ Hλ = 30`, `H < 2 or H > 30`. */
export function penaltyZonesText(settings: RuleSettings): string {
  const { short, long } = penaltyZoneLabels(settings);
  return settings.penalty === 'card' ? `${short} or ${long.replace('H ≥ ', 'H ≥ Hλ = ')}` : `${short} or ${long}`;
}

/** Why H steps are penalised (`H = 1 ≤ 1`, `H = 31 ≥ Hλ = 30`, `H = 31 > 30`); null when they are not. */
export function penaltyReason(steps: number, settings: RuleSettings): string | null {
  const { shortest, longest } = penaltyBounds(settings.penalty, settings.maxSteps);
  const { short, long } = penaltyZoneLabels(settings);
  if (steps <= shortest) return short.replace('H', `H = ${steps}`);
  if (steps < longest) return null;
  return settings.penalty === 'card' ? `H = ${steps} ≥ Hλ = ${longest}` : long.replace('H', `H = ${steps}`);
}

/** The short badge for a penalised step count: `H≤1`, `H≥30`, `H>30`. */
export function penaltyBadge(steps: number, settings: RuleSettings): string {
  const { shortest } = penaltyBounds(settings.penalty, settings.maxSteps);
  const { short, long } = penaltyZoneLabels(settings);
  return (steps <= shortest ? short : long).replace(/ /g, '');
}

/** A decision's penalty: `−λ = −10 (H = 1 ≤ 1)`, or `none (H = 4)`. */
export function penaltyText(decision: Pick<Decision, 'steps' | 'penalised'>, settings: PenaltySettings): string {
  const why = decision.penalised ? penaltyReason(decision.steps, settings) : null;
  return why === null ? `none (H = ${decision.steps})` : `−λ = −${settings.lambda} (${why})`;
}
