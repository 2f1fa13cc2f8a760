/**
 * The settings an analysis is made with, read for the document's scope, turned into the worker's
 * `analyse` request (less its id): the PROF settings, the scorer plan, the threshold's origin, the
 * calibrations' folder, the lines to send first.
 */
import type * as vscode from 'vscode';
import type { AnalyseRequest, AnalysisSource } from '../../protocol/analysis';
import { defaultCacheDir } from '../../scoring/scorers/cache/identity';
import type { HostScorerPlan } from '../scoringSettings';
import { readSettings } from '../settings';
import { priorityLines } from './priorityLines';

export interface RequestParts {
  uri: vscode.Uri;
  fileName: string;
  source: AnalysisSource;
  plan: HostScorerPlan;
  shouldRetryModel: boolean;
  shouldConfirmSend: boolean;
}

export function analyseRequest(parts: RequestParts): Omit<AnalyseRequest, 'type' | 'requestId'> {
  const settings = readSettings(parts.uri);
  return {
    documentKey: parts.uri.toString(),
    fileName: parts.fileName,
    source: parts.source,
    settings: settings.prof,
    scorer: parts.plan.choice,
    model: parts.plan.model,
    shouldRetryModel: parts.shouldRetryModel,
    shouldConfirmSend: parts.shouldConfirmSend,
    priorityLines: priorityLines(parts.uri),
    isThresholdGiven: settings.isThresholdGiven,
    // Where `prof-lens eval --calibrate` stores the thresholds it calibrates.
    calibrationsDir: defaultCacheDir(),
  };
}
