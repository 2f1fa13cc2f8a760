/**
 * Token heat in words, for hovers: a step's (or a response's) mean and extreme log-probability
 * and entropy, and why the tokens are not placed on the text when they are not.
 */
import type { HeatFigure, StepHeat } from './tokenHeat';
import type { HotStep } from './hotSteps';

function num(v: number): string {
  return v.toFixed(3).replace(/^-/, '−');
}

function figureLine(label: string, figure: HeatFigure | null, extreme: 'min' | 'max'): string | null {
  if (!figure) return null;
  return `${label}: mean ${num(figure.mean)}, ${extreme} ${num(figure.extreme)} over ${figure.count} token${figure.count === 1 ? '' : 's'}`;
}

/** The lines of one step's (or a response's) figures. */
export function heatFigureLines(heat: StepHeat, of: string): string[] {
  return [
    figureLine(`${of} log-probability`, heat.logprob, 'min'),
    figureLine(`${of} entropy`, heat.entropy, 'max'),
  ].filter((l): l is string => l !== null);
}

/** What the words need of a response's heat (the worker's `RolloutHeat`, or core's `ResponseHeat`). */
export interface HeatForWords {
  tokenCount: number;
  response: StepHeat;
  placement: { isPlaced: true; steps: StepHeat[] } | { isPlaced: false; reason: string };
}

/** What a hover says about the token heat of step `step` (null: the rollout as a whole). */
export function heatLines(heat: HeatForWords, step: number | null, hot: HotStep | null): string[] {
  if (!heat.placement.isPlaced) {
    return [
      `The record carries ${heat.tokenCount.toLocaleString('en-US')} per-token values that cannot be placed on the text: ${heat.placement.reason}.`,
      ...heatFigureLines(heat.response, 'Response'),
    ];
  }
  const figures = step === null ? heat.response : heat.placement.steps[step];
  const lines = figures ? heatFigureLines(figures, step === null ? 'Response' : `Step ${step + 1}`) : [];
  if (step !== null && lines.length === 0) lines.push(`Step ${step + 1}: no token of the record starts in it.`);
  if (hot) lines.push(`Among the ${hot.measure === 'logprob' ? 'lowest mean log-probabilities' : 'highest mean entropies'} of this file's steps (the hottest tenth).`);
  return lines;
}
