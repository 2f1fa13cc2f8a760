/**
 * Every `profLens.*` setting id, declared once. No `vscode` import, so a unit test can check them
 * against package.json.
 */

/** Every `profLens.*` setting, by area. */
export const settingIds = {
  scorer: 'profLens.scoring.scorer',
  threshold: 'profLens.scoring.lowScoreThreshold',
  modelPath: 'profLens.scoring.modelPath',
  endpointUrl: 'profLens.scoring.endpointUrl',
  criticEndpointUrl: 'profLens.scoring.criticEndpointUrl',
  criticModel: 'profLens.scoring.criticModel',
  criticMaxTokens: 'profLens.scoring.criticMaxTokens',
  split: 'profLens.steps.split',
  m: 'profLens.prof.m',
  remove: 'profLens.prof.remove',
  variant: 'profLens.prof.variant',
  seed: 'profLens.prof.seed',
  penalty: 'profLens.prof.penalty',
  lambda: 'profLens.prof.lambda',
  maxSteps: 'profLens.prof.maxSteps',
  aggregate: 'profLens.prof.aggregate',
  falsePositiveRules: 'profLens.prof.falsePositiveRules',
  decorationsEnabled: 'profLens.display.decorations',
  tokenHeat: 'profLens.display.tokenHeat',
  summaryTemplate: 'profLens.display.summaryTemplate',
  codeLens: 'profLens.display.codeLens',
  debounceMs: 'profLens.display.debounceMs',
  maxProblems: 'profLens.display.maxProblems',
  fields: 'profLens.fields.mapping',
  tokenizerFolder: 'profLens.inputs.tokenizerFolder',
  curationRule: 'profLens.curation.rule',
  curationParams: 'profLens.curation.params',
} as const;

/**
 * Settings whose change needs the open rollout files analysed again (and runs summarised again):
 * what scores, splits, decides and reads. The end-of-line template and the Problems cap are here
 * too, since their surfaces are drawn from a finished analysis.
 */
export const reanalysisSettingIds: readonly string[] = [
  settingIds.scorer, settingIds.threshold, settingIds.modelPath, settingIds.endpointUrl, settingIds.criticEndpointUrl,
  settingIds.criticModel, settingIds.criticMaxTokens, settingIds.split, settingIds.m, settingIds.remove, settingIds.variant,
  settingIds.seed, settingIds.penalty, settingIds.lambda, settingIds.maxSteps, settingIds.aggregate, settingIds.falsePositiveRules,
  settingIds.summaryTemplate, settingIds.maxProblems, settingIds.fields, settingIds.tokenizerFolder, settingIds.curationRule, settingIds.curationParams,
];

/** Settings read each time they are used, so a change applies with no re-analysis. */
export const liveSettingIds: readonly string[] = [settingIds.decorationsEnabled, settingIds.tokenHeat, settingIds.codeLens, settingIds.debounceMs];

/** Settings that may name files or servers, or run code on file text: ignored from an untrusted workspace's settings. */
export const restrictedSettingIds: readonly string[] = [settingIds.modelPath, settingIds.endpointUrl, settingIds.criticEndpointUrl, settingIds.split, settingIds.tokenizerFolder];

/** The default end-of-line summary; `{placeholders}` are filled per rollout. */
export const DEFAULT_SUMMARY_TEMPLATE = '{outcome} {extracted} vs {gold} · weakest {weakest} · {decision}';
