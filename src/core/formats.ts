/**
 * Format detection and adaptation (DESIGN §5): each record becomes one rollout (flat formats) or
 * several (grouped lines, keyed solutions). Detection is per record and needs no configuration;
 * a field mapping overrides it.
 */
import type { Diagnostic, FormatId, Outcome, Rollout, SourceRecord } from './model';
import type { FieldRole } from './settings';
import { asScores, asText, firstKey, getPath, outcomeFromValue, parsePath, type Json } from './fields';
import { adaptLabelled } from './formatsLabelled';
import { adaptTrainerRecord, type AdaptContext } from './formatsTrainers';
import { parallelRewardFields, rewardFieldsOf } from './rewardFields';
import { questionOf, readRolloutTexts } from './rolloutText';
import { readMessages, type PromptTurn } from './transcript/prompt';
import { roleOf } from './transcript/turns';

/** A rollout as an adapter makes it: `id` and `line` are 0 until the caller sets them. */
export type RolloutDraft = Rollout;

export const PROMPT_KEYS = ['prompt', 'question', 'problem', 'input', 'query', 'instruction'] as const;
export const RESPONSE_KEYS = ['response', 'completion', 'output', 'generation', 'answer_text', 'solution'] as const;
export const RESPONSES_KEYS = ['responses', 'code', 'outputs', 'completions', 'generations'] as const;
export const GOLD_KEYS = ['answer', 'gt', 'gts', 'ground_truth', 'gold', 'reference', 'target', 'final_answer'] as const;
export const OUTCOME_KEYS = ['correct', 'is_correct', 'acc', 'score', 'reward', 'label'] as const;
export const OUTCOMES_KEYS = ['score', 'scores', 'correct', 'is_correct', 'acc', 'rewards'] as const;
export const GROUP_KEYS = ['uid', 'group', 'group_id', 'prompt_id', 'problem_id'] as const;
export const STEP_SCORE_KEYS = ['step_scores', 'prm_scores', 'step_rewards', 'values'] as const;
/** The answer an evaluation harness extracted (Qwen2.5-Math, ToRA: a list parallel to `code`). */
export const PRED_KEY = 'pred';

export interface AdaptResult {
  drafts: RolloutDraft[];
  diagnostics: Diagnostic[];
}

/**
 * Adapt one record. `fields` is the user's field mapping (role → dotted path); `context` what a
 * trainer's format may need beyond the record (a tokenizer for token ids).
 */
export function adaptRecord(record: SourceRecord, fields: Partial<Record<FieldRole, string>> = {}, context: AdaptContext = {}): AdaptResult {
  const value = record.value as Json;
  if (hasMapping(fields)) return adaptMapped(record, fields, context);
  const labelled = adaptLabelled(record);
  if (labelled) return labelled;
  const trainer = adaptTrainerRecord(record, context);
  if (trainer) return trainer;
  if (Array.isArray(value.messages)) return single(adaptChat(value, record.line));
  const responsesKey = firstKey(value, RESPONSES_KEYS);
  if (responsesKey && Array.isArray(value[responsesKey])) return adaptGrouped(record, responsesKey);
  const flat = adaptFlat(value, record.line, context.rewards !== false);
  if (flat) return single(flat);
  return {
    drafts: [],
    diagnostics: [
      {
        line: record.line,
        severity: 'error',
        code: 'unknown-format',
        message: `line ${record.line}: no response found: expected one of ${[...RESPONSE_KEYS, ...RESPONSES_KEYS, 'messages'].join(', ')} (or map one with --field response=<path>); keys present: ${Object.keys(value).slice(0, 12).join(', ')}`,
      },
    ],
  };
}

/** Whether the user mapped any field (asked per record: no list of keys made for it). */
function hasMapping(fields: Partial<Record<FieldRole, string>>): boolean {
  for (const key in fields) if (Object.prototype.hasOwnProperty.call(fields, key)) return true;
  return false;
}

function single(draft: RolloutDraft): AdaptResult {
  return { drafts: [draft], diagnostics: [] };
}

/**
 * Group key: a uid or group id when the record has one, else the prompt (with its gold). A record
 * without a prompt is its own group (`line=N`): nothing says which other lines share its prompt,
 * and a shared gold answer is no evidence of a shared prompt.
 */
export function groupKey(record: Json, prompt: string, gold: string | null, line: number): string {
  const key = firstKey(record, GROUP_KEYS);
  const id = key ? asText(record[key]) : null;
  if (id !== null) return `${key}=${id}`;
  return prompt.trim() === '' ? `line=${line}` : `${prompt}\u0000${gold ?? ''}`;
}

function goldOf(record: Json): string | null {
  const key = firstKey(record, GOLD_KEYS);
  return key ? asText(record[key]) : null;
}

function outcomeOf(record: Json, keys: readonly string[] = OUTCOME_KEYS): Outcome {
  const key = firstKey(record, keys);
  return key ? outcomeFromValue(record[key]) : { kind: 'unknown', source: 'none' };
}

/** verl v1's `uid`: `{prompt uuid}_{session}_{output index}`, one per rollout (verl/trainer/ppo/v1). */
const VERL_V1_UID = /^(.+)_(\d+)_(\d+)$/;

/** The prompt's part of a verl v1 uid (the writer itself groups by `key.rsplit("_", 2)[0]`), or null. */
export function verlV1Group(uid: unknown): string | null {
  if (typeof uid !== 'string' || uid.length > 512) return null;
  const match = VERL_V1_UID.exec(uid);
  return match ? (match[1] as string) : null;
}

/** A harness's extracted answer: a string or number, or a list of parts (several answers) joined. */
function predText(value: unknown): string | null {
  if (Array.isArray(value)) return value.length > 0 && value.every((v) => typeof v === 'string' || typeof v === 'number') ? value.join(', ') : null;
  return asText(value);
}

function fileScores(record: Json): (number | null)[] | null {
  const key = firstKey(record, STEP_SCORE_KEYS);
  return key ? asScores(record[key]) : null;
}

/** verl dumps (`input`/`output`/`gts`/`score`, v1 adds `uid`) and generic flat rollouts. */
function adaptFlat(record: Json, line: number, withRewards: boolean): RolloutDraft | null {
  const responseKey = RESPONSE_KEYS.find((k) => typeof record[k] === 'string');
  if (!responseKey) return null;
  const promptKey = PROMPT_KEYS.find((k) => typeof record[k] === 'string');
  const prompt = promptKey ? (record[promptKey] as string) : '';
  const gold = goldOf(record);
  const isVerl = promptKey === 'input' && responseKey === 'output';
  const v1Group = isVerl ? verlV1Group(record.uid) : null;
  const response = record[responseKey] as string;
  const read = questionOf(prompt);
  const outcomeKey = firstKey(record, OUTCOME_KEYS);
  return {
    id: 0,
    line: 0,
    index: 0,
    format: v1Group !== null ? 'verl-v1' : isVerl ? 'verl' : 'generic',
    group: v1Group !== null ? `uid=${v1Group}` : groupKey(record, prompt, gold, line),
    prompt: read.question,
    response,
    gold,
    fileOutcome: outcomeOf(record),
    fileStepScores: fileScores(record),
    explicitSteps: Array.isArray(record.steps) && record.steps.every((s) => typeof s === 'string') ? (record.steps as string[]) : null,
    filePred: predText(record[PRED_KEY]),
    responsePath: [responseKey],
    responseShift: 0,
    promptReading: read.reading,
    // Read on first use (responseTurnsOf); set here so every draft has the same shape.
    responseTurns: undefined,
    outcomeField: outcomeKey,
    rewards: withRewards ? rewardFieldsOf(record, outcomeKey) : null,
  };
}

/**
 * Chat `messages`: the last user turn is the question (a system message kept apart), the last
 * assistant turn is the response. The group key still joins every user and system turn.
 */
function adaptChat(record: Json, line: number): RolloutDraft {
  const messages = record.messages as unknown[];
  let lastAssistant = -1;
  const userParts: string[] = [];
  const turns: PromptTurn[] = [];
  messages.forEach((m, i) => {
    const msg = m as Json;
    const role = typeof msg?.role === 'string' ? roleOf(msg.role) : null;
    if (role === 'assistant') lastAssistant = i;
    else if ((role === 'user' || role === 'system') && typeof msg.content === 'string') userParts.push(msg.content);
    if (role !== null && typeof msg.content === 'string' && (role !== 'assistant' || i !== lastAssistant)) turns.push({ role, text: msg.content });
  });
  const content = lastAssistant >= 0 ? (messages[lastAssistant] as Json).content : undefined;
  const joined = userParts.join('\n\n');
  const read = readMessages(turns);
  const gold = goldOf(record);
  return {
    id: 0,
    line: 0,
    index: 0,
    format: 'chat',
    group: groupKey(record, joined, gold, line),
    prompt: read?.question ?? joined,
    response: typeof content === 'string' ? content : '',
    gold,
    fileOutcome: outcomeOf(record),
    fileStepScores: fileScores(record),
    explicitSteps: null,
    responsePath: typeof content === 'string' ? ['messages', lastAssistant, 'content'] : null,
    responseShift: 0,
    ...(read ? { promptReading: read.reading } : {}),
    rewards: rewardFieldsOf(record),
  };
}

/** One prompt per line with parallel arrays: responses[i], score[i], step_scores[i]. */
function adaptGrouped(record: SourceRecord, responsesKey: string): AdaptResult {
  const value = record.value as Json;
  const responses = value[responsesKey] as unknown[];
  const promptKey = PROMPT_KEYS.find((k) => typeof value[k] === 'string');
  const prompt = promptKey ? (value[promptKey] as string) : '';
  const gold = goldOf(value);
  const outcomesKey = OUTCOMES_KEYS.find((k) => Array.isArray(value[k]));
  const outcomes = outcomesKey ? (value[outcomesKey] as unknown[]) : null;
  const scoresKey = firstKey(value, STEP_SCORE_KEYS);
  const scores = scoresKey && Array.isArray(value[scoresKey]) ? (value[scoresKey] as unknown[]) : null;
  const diagnostics: Diagnostic[] = [];
  if (outcomes && outcomes.length !== responses.length) {
    diagnostics.push(mismatch(record.line, `${outcomesKey} has ${outcomes.length} entries but ${responsesKey} has ${responses.length}`));
  }
  const preds = Array.isArray(value[PRED_KEY]) ? (value[PRED_KEY] as unknown[]) : null;
  if (preds && preds.length !== responses.length) {
    diagnostics.push(mismatch(record.line, `${PRED_KEY} has ${preds.length} entries but ${responsesKey} has ${responses.length}`));
  }
  const group = groupKey(value, prompt, gold, record.line);
  const rewardsAt = parallelRewardFields(value, responses.length, new Set([outcomesKey ?? '', scoresKey ?? '', responsesKey]));
  const drafts = responses.map((r, i): RolloutDraft => ({
    ...groupedTexts(prompt),
    id: 0,
    line: 0,
    index: i,
    format: 'grouped',
    group,
    response: typeof r === 'string' ? r : '',
    gold,
    fileOutcome: outcomes ? outcomeFromValue(outcomes[i]) : { kind: 'unknown', source: 'none' },
    fileStepScores: scores ? asScores(scores[i]) : null,
    explicitSteps: null,
    filePred: preds ? predText(preds[i]) : null,
    responsePath: typeof r === 'string' ? [responsesKey, i] : null,
    responseShift: 0,
    ...(outcomesKey ? { outcomeField: outcomesKey } : {}),
    rewards: rewardsAt(i),
  }));
  return { drafts, diagnostics };
}

function groupedTexts(prompt: string): Pick<RolloutDraft, 'prompt' | 'promptReading'> {
  const texts = readRolloutTexts(prompt);
  return { prompt: texts.question, promptReading: texts.promptReading };
}

function mismatch(line: number, what: string): Diagnostic {
  return { line, severity: 'warning', code: 'array-length-mismatch', message: `line ${line}: ${what}` };
}

/** The user's field mapping: each role read from its path; unmapped roles fall back to detection. */
function adaptMapped(record: SourceRecord, fields: Partial<Record<FieldRole, string>>, context: AdaptContext): AdaptResult {
  const value = record.value as Json;
  const get = (role: FieldRole): unknown => (fields[role] ? getPath(value, parsePath(fields[role]!)) : undefined);
  const detected = adaptRecord(record, {}, context);
  if (fields.responses) return mappedGrouped(record, fields, get, detected);
  const base = detected.drafts[0];
  const response = get('response');
  const responseText = typeof response === 'string' ? response : base?.response;
  if (responseText === undefined) return detected;
  const mappedPrompt = fields.prompt ? asText(get('prompt')) : null;
  const read = mappedPrompt !== null ? readRolloutTexts(mappedPrompt) : null;
  const prompt = read?.question ?? base?.prompt ?? '';
  const gold = fields.gold ? asText(get('gold')) : (base?.gold ?? null);
  // The detected format's own reading stands for every role the mapping leaves alone.
  const keepsDetected = base !== undefined && !fields.prompt && !fields.response && !fields.gold;
  const draft: RolloutDraft = {
    ...(base && !fields.response ? { responseTurns: base.responseTurns, rewards: base.rewards ?? null } : {}),
    ...(read ? { promptReading: read.promptReading } : base?.promptReading ? { promptReading: base.promptReading } : {}),
    id: 0,
    line: 0,
    index: 0,
    format: 'mapped' as FormatId,
    group: fields.group ? `group=${asText(get('group'))}` : keepsDetected ? base.group : groupKey(value, mappedPrompt ?? prompt, gold, record.line),
    prompt,
    response: responseText,
    gold,
    fileOutcome: fields.outcome ? outcomeFromValue(get('outcome')) : (base?.fileOutcome ?? { kind: 'unknown', source: 'none' }),
    fileStepScores: fields.stepScores ? asScores(get('stepScores')) : (base?.fileStepScores ?? null),
    explicitSteps: fields.steps ? stringArray(get('steps')) : (base?.explicitSteps ?? null),
    responsePath: fields.response ? parsePath(fields.response) : (base?.responsePath ?? null),
    responseShift: 0,
    ...(fields.outcome ? { outcomeField: fields.outcome } : base?.outcomeField ? { outcomeField: base.outcomeField } : {}),
  };
  return { drafts: [draft], diagnostics: detected.diagnostics.filter((d) => d.severity !== 'error' && !(fields.outcome && d.code === 'outcome-column')) };
}

function mappedGrouped(record: SourceRecord, fields: Partial<Record<FieldRole, string>>, get: (r: FieldRole) => unknown, detected: AdaptResult): AdaptResult {
  const responses = get('responses');
  if (!Array.isArray(responses)) return detected;
  const value = record.value as Json;
  const prompt = asText(get('prompt')) ?? detected.drafts[0]?.prompt ?? '';
  const gold = fields.gold ? asText(get('gold')) : (detected.drafts[0]?.gold ?? null);
  const outcomes = get('outcomes');
  const scores = get('stepScores');
  const group = fields.group ? `group=${asText(get('group'))}` : groupKey(value, prompt, gold, record.line);
  const drafts = responses.map((r, i): RolloutDraft => ({
    id: 0,
    line: 0,
    index: i,
    format: 'mapped',
    group,
    prompt,
    response: typeof r === 'string' ? r : '',
    gold,
    fileOutcome: Array.isArray(outcomes) ? outcomeFromValue(outcomes[i]) : (detected.drafts[i]?.fileOutcome ?? { kind: 'unknown', source: 'none' }),
    fileStepScores: Array.isArray(scores) ? asScores(scores[i]) : (detected.drafts[i]?.fileStepScores ?? null),
    explicitSteps: null,
    responsePath: typeof r === 'string' ? [...parsePath(fields.responses!), i] : null,
    responseShift: 0,
  }));
  return { drafts, diagnostics: [] };
}

function stringArray(v: unknown): string[] | null {
  return Array.isArray(v) && v.every((s) => typeof s === 'string') ? (v as string[]) : null;
}
