/**
 * Format detection and adaptation (DESIGN §5): each record becomes one rollout (flat formats) or
 * several (grouped lines, keyed solutions). Detection is per record and needs no configuration;
 * a field mapping overrides it.
 */
import type { Diagnostic, FormatId, Outcome, Rollout, SourceRecord } from './model';
import type { FieldRole } from './settings';
import { asText, firstKey, getPath, outcomeFromValue, parsePath, readScores, type Json, type ScoresRead } from './fields';
import { adaptLabelled } from './formatsLabelled';
import { rawValueText } from './rawJson';
import { capText } from './presentation/capText';
import { STEP_SCORE_KEYS, stepScoreFields } from './stepScoreFields';
import { recordLocation } from './presentation/locationWords';

/** A rollout as an adapter makes it: `id` and `line` are 0 until the caller sets them. */
export type RolloutDraft = Rollout;

export const PROMPT_KEYS = ['prompt', 'question', 'problem', 'input', 'query', 'instruction'] as const;
export const RESPONSE_KEYS = ['response', 'completion', 'output', 'generation', 'answer_text', 'solution'] as const;
export const RESPONSES_KEYS = ['responses', 'code', 'outputs', 'completions', 'generations'] as const;
export const GOLD_KEYS = ['answer', 'gt', 'gts', 'ground_truth', 'gold', 'reference', 'target', 'final_answer'] as const;
export const OUTCOME_KEYS = ['correct', 'is_correct', 'acc', 'score', 'reward', 'label'] as const;
export const OUTCOMES_KEYS = ['score', 'scores', 'correct', 'is_correct', 'acc', 'rewards'] as const;
export const GROUP_KEYS = ['uid', 'group', 'group_id', 'prompt_id', 'problem_id'] as const;
/** The answer an evaluation harness extracted (Qwen2.5-Math, ToRA: a list parallel to `code`). */
export const PRED_KEY = 'pred';

export interface AdaptResult {
  drafts: RolloutDraft[];
  diagnostics: Diagnostic[];
  /**
   * For a grouped record: the arrays read one entry per response (the responses, and the outcomes,
   * step scores and predictions taken from parallel arrays), as paths into the record. Trimming the
   * record to some responses trims exactly these arrays and nothing else.
   */
  perResponse?: PerResponseArrays;
}

/** Paths of a grouped record's arrays that hold one entry per response. */
export interface PerResponseArrays {
  responses: (string | number)[];
  outcomes?: (string | number)[];
  stepScores?: (string | number)[];
  preds?: (string | number)[];
}

/** Adapt one record. `fields` is the user's field mapping (role → dotted path). */
export function adaptRecord(record: SourceRecord, fields: Partial<Record<FieldRole, string>> = {}): AdaptResult {
  const value = record.value as Json;
  if (hasMapping(fields)) return adaptMapped(record, fields);
  const labelled = adaptLabelled(record);
  if (labelled) return labelled;
  if (Array.isArray(value.messages)) return single(adaptChat(value, record.line, record.raw));
  const responsesKey = firstKey(value, RESPONSES_KEYS);
  if (responsesKey && Array.isArray(value[responsesKey])) return adaptGrouped(record, [responsesKey], value[responsesKey] as unknown[]);
  const flat = adaptFlat(value, record.line, record.raw) ?? adaptStepsOnly(value, record.line, record.raw);
  if (flat) return single(flat);
  return {
    drafts: [],
    diagnostics: [
      {
        line: record.line,
        severity: 'error',
        code: 'unknown-format',
        message: `${recordLocation(record)}: no response found: expected one of ${[...RESPONSE_KEYS, ...RESPONSES_KEYS, 'messages'].join(', ')} or a steps array of strings (or map one with --field response=<path>); keys present: ${Object.keys(value).slice(0, 12).map((k) => capText(k, 60)).join(', ')}`,
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
export function groupKey(record: Json, prompt: string, gold: string | null, line: number, raw?: string): string {
  const key = firstKey(record, GROUP_KEYS);
  const id = key ? idText(record[key], raw, [key]) : null;
  if (id !== null) return `${key}=${id}`;
  return prompt.trim() === '' ? `line=${line}` : `${prompt}\u0000${gold ?? ''}`;
}

/**
 * A group id as text, exactly as the file writes it: an integer past 2^53 (a 64-bit id) is read
 * from the raw line, since as a double distinct ids round to one number and their groups merge.
 */
export function idText(value: unknown, raw: string | undefined, path: readonly (string | number)[]): string | null {
  if (typeof value === 'number' && !Number.isSafeInteger(value) && raw !== undefined) {
    const token = rawValueText(raw, path);
    if (token !== null && /^-?\d/.test(token)) return token;
  }
  return asText(value);
}

function goldOf(record: Json): string | null {
  const key = firstKey(record, GOLD_KEYS);
  return key ? asText(record[key]) : null;
}

function outcomeOf(record: Json, keys: readonly string[] = OUTCOME_KEYS): Outcome {
  const key = firstKey(record, keys);
  return key ? outcomeFromValue(record[key]) : { kind: 'unknown', source: 'none' };
}

/** A harness's extracted answer: a string or number, or a list of parts (several answers) joined. */
function predText(value: unknown): string | null {
  if (Array.isArray(value)) return value.length > 0 && value.every((v) => typeof v === 'string' || typeof v === 'number') ? value.join(', ') : null;
  return asText(value);
}

/** A draft's step-score fields: the scores, and what is wrong with them when they cannot be used. */
function scoreFields(read: ScoresRead): Pick<RolloutDraft, 'fileStepScores' | 'fileScoresProblem'> {
  return read.problem === undefined ? { fileStepScores: read.scores } : { fileStepScores: null, fileScoresProblem: read.problem };
}

/** verl dumps (`input`/`output`/`gts`/`score`) and generic flat rollouts. */
function adaptFlat(record: Json, line: number, raw: string): RolloutDraft | null {
  const responseKey = RESPONSE_KEYS.find((k) => typeof record[k] === 'string');
  if (!responseKey) return null;
  const promptKey = PROMPT_KEYS.find((k) => typeof record[k] === 'string');
  const prompt = promptKey ? (record[promptKey] as string) : '';
  const gold = goldOf(record);
  const isVerl = promptKey === 'input' && responseKey === 'output';
  return {
    id: 0,
    line: 0,
    index: 0,
    format: isVerl ? 'verl' : 'generic',
    group: groupKey(record, prompt, gold, line, raw),
    prompt,
    response: record[responseKey] as string,
    gold,
    fileOutcome: outcomeOf(record),
    ...stepScoreFields(record),
    explicitSteps: Array.isArray(record.steps) && record.steps.every((s) => typeof s === 'string') ? (record.steps as string[]) : null,
    filePred: predText(record[PRED_KEY]),
    responsePath: [responseKey],
    responseShift: 0,
  };
}

/**
 * A record with a `steps` array of strings and no response (`{"problem", "steps": [...]}`): a
 * rollout whose steps are those strings. An integer `label` (−1 or more) is ProcessBench's first
 * wrong step, not an outcome.
 */
function adaptStepsOnly(record: Json, line: number, raw: string): RolloutDraft | null {
  const steps = record.steps;
  if (!Array.isArray(steps) || steps.length === 0 || !steps.every((s) => typeof s === 'string')) return null;
  const promptKey = PROMPT_KEYS.find((k) => typeof record[k] === 'string');
  const prompt = promptKey ? (record[promptKey] as string) : '';
  const gold = goldOf(record);
  const label = typeof record.label === 'number' && Number.isInteger(record.label) && record.label >= -1 ? record.label : null;
  const draft: RolloutDraft = {
    id: 0,
    line: 0,
    index: 0,
    format: 'generic',
    group: groupKey(record, prompt, gold, line, raw),
    prompt,
    response: (steps as string[]).join('\n\n'),
    gold,
    fileOutcome: outcomeOf(record, label === null ? OUTCOME_KEYS : OUTCOME_KEYS.filter((k) => k !== 'label')),
    ...stepScoreFields(record),
    explicitSteps: steps as string[],
    filePred: predText(record[PRED_KEY]),
    responsePath: null,
    responseShift: 0,
  };
  if (label !== null) {
    draft.stepLabels = steps.map((_, i) => (label < 0 || i < label ? 1 : i === label ? -1 : null));
    draft.firstErrorStep = label;
  }
  return draft;
}

/** Chat `messages`: the user turns are the prompt, the last assistant turn is the response. */
function adaptChat(record: Json, line: number, raw: string): RolloutDraft {
  const messages = record.messages as unknown[];
  let lastAssistant = -1;
  const userParts: string[] = [];
  messages.forEach((m, i) => {
    const msg = m as Json;
    if (msg?.role === 'assistant') lastAssistant = i;
    else if ((msg?.role === 'user' || msg?.role === 'system') && typeof msg.content === 'string') userParts.push(msg.content);
  });
  const content = lastAssistant >= 0 ? (messages[lastAssistant] as Json).content : undefined;
  const prompt = userParts.join('\n\n');
  const gold = goldOf(record);
  return {
    id: 0,
    line: 0,
    index: 0,
    format: 'chat',
    group: groupKey(record, prompt, gold, line, raw),
    prompt,
    response: typeof content === 'string' ? content : '',
    gold,
    fileOutcome: outcomeOf(record),
    ...stepScoreFields(record),
    explicitSteps: null,
    responsePath: typeof content === 'string' ? ['messages', lastAssistant, 'content'] : null,
    responseShift: 0,
  };
}

/** One prompt per line with parallel arrays: responses[i], score[i], step_scores[i]. */
function adaptGrouped(record: SourceRecord, responsesPath: (string | number)[], responses: unknown[], format: FormatId = 'grouped'): AdaptResult {
  const value = record.value as Json;
  const responsesKey = responsesPath.join('.');
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
  const group = groupKey(value, prompt, gold, record.line, record.raw);
  const drafts = responses.map((r, i): RolloutDraft => ({
    id: 0,
    line: 0,
    index: i,
    format,
    group,
    prompt,
    response: typeof r === 'string' ? r : '',
    gold,
    fileOutcome: outcomes ? outcomeFromValue(outcomes[i]) : { kind: 'unknown', source: 'none' },
    ...scoreFields(scores ? readScores(scores[i], `${scoresKey}[${i}]`) : { scores: null }),
    explicitSteps: null,
    filePred: preds ? predText(preds[i]) : null,
    responsePath: typeof r === 'string' ? [...responsesPath, i] : null,
    responseShift: 0,
  }));
  const perResponse: PerResponseArrays = { responses: responsesPath };
  if (outcomesKey) perResponse.outcomes = [outcomesKey];
  if (scores && scoresKey) perResponse.stepScores = [scoresKey];
  if (preds) perResponse.preds = [PRED_KEY];
  return { drafts, diagnostics, perResponse };
}

function mismatch(line: number, what: string): Diagnostic {
  return { line, severity: 'warning', code: 'array-length-mismatch', message: `line ${line}: ${what}` };
}

/** The user's field mapping: each role read from its path; unmapped roles fall back to detection. */
function adaptMapped(record: SourceRecord, fields: Partial<Record<FieldRole, string>>): AdaptResult {
  const value = record.value as Json;
  const get = (role: FieldRole): unknown => (fields[role] ? getPath(value, parsePath(fields[role]!)) : undefined);
  const detected = adaptRecord(record, {});
  if (fields.responses) return mappedGrouped(record, fields, get, detected);
  const base = detected.drafts[0];
  const response = get('response');
  const responseText = typeof response === 'string' ? response : base?.response;
  if (responseText === undefined) return detected;
  const prompt = asText(get('prompt')) ?? base?.prompt ?? '';
  const gold = fields.gold ? asText(get('gold')) : (base?.gold ?? null);
  const draft: RolloutDraft = {
    id: 0,
    line: 0,
    index: 0,
    format: 'mapped' as FormatId,
    group: fields.group ? `group=${idText(get('group'), record.raw, parsePath(fields.group))}` : groupKey(value, prompt, gold, record.line, record.raw),
    prompt,
    response: responseText,
    gold,
    fileOutcome: fields.outcome ? outcomeFromValue(get('outcome')) : (base?.fileOutcome ?? { kind: 'unknown', source: 'none' }),
    ...(fields.stepScores ? scoreFields(readScores(get('stepScores'), fields.stepScores)) : { fileStepScores: base?.fileStepScores ?? null, ...(base?.fileScoresProblem ? { fileScoresProblem: base.fileScoresProblem } : {}) }),
    explicitSteps: fields.steps ? stringArray(get('steps')) : (base?.explicitSteps ?? null),
    responsePath: fields.response ? parsePath(fields.response) : (base?.responsePath ?? null),
    responseShift: 0,
  };
  return { drafts: [draft], diagnostics: [] };
}

/** Mapped responses: the other roles detected around them as for a grouped line, then the mapped ones read from their paths. */
function mappedGrouped(record: SourceRecord, fields: Partial<Record<FieldRole, string>>, get: (r: FieldRole) => unknown, detected: AdaptResult): AdaptResult {
  const responses = get('responses');
  if (!Array.isArray(responses)) return detected;
  const around = adaptGrouped(record, parsePath(fields.responses!), responses, 'mapped');
  const value = record.value as Json;
  const first = around.drafts[0];
  const prompt = asText(get('prompt')) ?? first?.prompt ?? '';
  const gold = fields.gold ? asText(get('gold')) : (first?.gold ?? null);
  const outcomes = get('outcomes');
  const scores = get('stepScores');
  const group = fields.group ? `group=${idText(get('group'), record.raw, parsePath(fields.group))}` : groupKey(value, prompt, gold, record.line, record.raw);
  const drafts = around.drafts.map((d, i): RolloutDraft => {
    const draft: RolloutDraft = { ...d, group, prompt, gold };
    if (Array.isArray(outcomes)) draft.fileOutcome = outcomeFromValue(outcomes[i]);
    if (Array.isArray(scores)) {
      delete draft.fileScoresProblem;
      Object.assign(draft, scoreFields(readScores(scores[i], `${fields.stepScores}[${i}]`)));
    }
    return draft;
  });
  const perResponse: PerResponseArrays = { ...around.perResponse!, ...(Array.isArray(outcomes) ? { outcomes: parsePath(fields.outcomes!) } : {}), ...(Array.isArray(scores) ? { stepScores: parsePath(fields.stepScores!) } : {}) };
  return { drafts, diagnostics: around.diagnostics, perResponse };
}

function stringArray(v: unknown): string[] | null {
  return Array.isArray(v) && v.every((s) => typeof s === 'string') ? (v as string[]) : null;
}
