/**
 * The record shapes evaluation harnesses and plain dumps write, each recognised by its keys: one
 * rollout per record (verl's `input`/`output`, generic `prompt`/`response`, a `steps` array with
 * no response, chat `messages`) and one prompt with several responses (grouped lines, parallel
 * arrays). The keys each shape is known by, and the group key every adapter shares, live here.
 */
import type { Diagnostic, FormatId, Outcome, SourceRecord } from '../model';
import type { AdaptResult, PerResponseArrays, RolloutDraft } from './formatDraft';
import { asText, firstKey, outcomeFromValue, readScores, type Json, type ScoresRead } from './fields';
import { rawValueText } from '../read/rawJson';
import { STEP_SCORE_KEYS, stepScoreFields } from './stepScoreFields';
import { parallelRewardFields, rewardFieldsOf } from './rewardFields';
import { questionOf } from '../transcript/rolloutText';
import { readMessages, type PromptTurn, type ReadPrompt } from '../transcript/promptReading';
import { roleOf } from '../transcript/turns';

export const PROMPT_KEYS = ['prompt', 'question', 'problem', 'input', 'query', 'instruction'] as const;
export const RESPONSE_KEYS = ['response', 'completion', 'output', 'generation', 'answer_text', 'solution'] as const;
export const RESPONSES_KEYS = ['responses', 'code', 'outputs', 'completions', 'generations'] as const;
export const GOLD_KEYS = ['answer', 'gt', 'gts', 'ground_truth', 'gold', 'reference', 'target', 'final_answer'] as const;
export const OUTCOME_KEYS = ['correct', 'is_correct', 'acc', 'score', 'reward', 'label'] as const;
export const OUTCOMES_KEYS = ['score', 'scores', 'correct', 'is_correct', 'acc', 'rewards'] as const;
export const GROUP_KEYS = ['uid', 'group', 'group_id', 'prompt_id', 'problem_id'] as const;
/** The answer an evaluation harness extracted (Qwen2.5-Math, ToRA: a list parallel to `code`). */
export const PRED_KEY = 'pred';

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

function outcomeOf(record: Json): Outcome {
  const key = firstKey(record, OUTCOME_KEYS);
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

/** A draft's step-score fields: the scores, and what is wrong with them when they cannot be used. */
export function scoreFields(read: ScoresRead): Pick<RolloutDraft, 'fileStepScores' | 'fileScoresProblem'> {
  return read.problem === undefined ? { fileStepScores: read.scores } : { fileStepScores: null, fileScoresProblem: read.problem };
}

/** Where a flat record comes from: its line (for the group of a record without a prompt) and its text. */
interface FlatSource {
  line: number;
  raw: string;
  /** Collect the reward fields beside the outcome (a run summary shows none). */
  withRewards: boolean;
}

/** verl dumps (`input`/`output`/`gts`/`score`, v1 adds `uid`) and generic flat rollouts. */
export function adaptFlat(record: Json, at: FlatSource): RolloutDraft | null {
  const responseKey = RESPONSE_KEYS.find((k) => typeof record[k] === 'string');
  if (!responseKey) return null;
  const promptKey = PROMPT_KEYS.find((k) => typeof record[k] === 'string');
  const prompt = promptKey ? (record[promptKey] as string) : '';
  const gold = goldOf(record);
  const isVerl = promptKey === 'input' && responseKey === 'output';
  const v1Group = isVerl ? verlV1Group(record.uid) : null;
  const read = withCleanQuestion(record, promptKey, questionOf(prompt));
  const outcomeKey = firstKey(record, OUTCOME_KEYS);
  return {
    id: 0,
    line: 0,
    index: 0,
    format: v1Group !== null ? 'verl-v1' : isVerl ? 'verl' : 'generic',
    group: v1Group !== null ? `uid=${v1Group}` : groupKey(record, prompt, gold, at.line, at.raw),
    prompt: read.question,
    response: record[responseKey] as string,
    gold,
    fileOutcome: outcomeKey ? outcomeFromValue(record[outcomeKey]) : { kind: 'unknown', source: 'none' },
    ...stepScoreFields(record),
    explicitSteps: Array.isArray(record.steps) && record.steps.every((s) => typeof s === 'string') ? (record.steps as string[]) : null,
    filePred: predText(record[PRED_KEY]),
    responsePath: [responseKey],
    responseShift: 0,
    promptReading: read.reading,
    // Read on first use (responseTurnsOf); set here so every draft has the same shape.
    responseTurns: undefined,
    outcomeField: outcomeKey,
    rewards: at.withRewards ? rewardFieldsOf(record, outcomeKey) : null,
  };
}

/**
 * A record with a `steps` array of strings and no response (`{"problem", "steps": [...]}`): a
 * rollout whose steps are those strings. An integer `label` (−1 or more) is ProcessBench's first
 * wrong step, not an outcome.
 */
export function adaptStepsOnly(record: Json, line: number, raw: string): RolloutDraft | null {
  const steps = record.steps;
  if (!Array.isArray(steps) || steps.length === 0 || !steps.every((s) => typeof s === 'string')) return null;
  const promptKey = PROMPT_KEYS.find((k) => typeof record[k] === 'string');
  const prompt = promptKey ? (record[promptKey] as string) : '';
  const gold = goldOf(record);
  const label = typeof record.label === 'number' && Number.isInteger(record.label) && record.label >= -1 ? record.label : null;
  const outcomeKeys = label === null ? OUTCOME_KEYS : OUTCOME_KEYS.filter((k) => k !== 'label');
  const outcomeKey = firstKey(record, outcomeKeys);
  const read = questionOf(prompt);
  const draft: RolloutDraft = {
    id: 0,
    line: 0,
    index: 0,
    format: 'generic',
    group: groupKey(record, prompt, gold, line, raw),
    prompt: read.question,
    response: (steps as string[]).join('\n\n'),
    gold,
    fileOutcome: outcomeKey ? outcomeFromValue(record[outcomeKey]) : { kind: 'unknown', source: 'none' },
    ...stepScoreFields(record),
    explicitSteps: steps as string[],
    filePred: predText(record[PRED_KEY]),
    responsePath: null,
    responseShift: 0,
    promptReading: read.reading,
    ...(outcomeKey ? { outcomeField: outcomeKey } : {}),
  };
  if (label !== null) {
    draft.stepLabels = steps.map((_, i) => (label < 0 || i < label ? 1 : i === label ? -1 : null));
    draft.firstErrorStep = label;
  }
  return draft;
}

/**
 * Chat `messages`: the last user turn is the question (a system message kept apart), the last
 * assistant turn is the response. The group key still joins every user and system turn.
 */
export function adaptChat(record: Json, line: number, raw: string): RolloutDraft {
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
    group: groupKey(record, joined, gold, line, raw),
    prompt: read?.question ?? joined,
    response: typeof content === 'string' ? content : '',
    gold,
    fileOutcome: outcomeOf(record),
    ...stepScoreFields(record),
    explicitSteps: null,
    responsePath: typeof content === 'string' ? ['messages', lastAssistant, 'content'] : null,
    responseShift: 0,
    ...(read ? { promptReading: read.reading } : {}),
    rewards: rewardFieldsOf(record),
  };
}

/** One prompt per line with parallel arrays: responses[i], score[i], step_scores[i]. */
export function adaptGrouped(record: SourceRecord, responsesPath: (string | number)[], responses: unknown[], format: FormatId = 'grouped'): AdaptResult {
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
  const rewardsAt = parallelRewardFields(value, responses.length, new Set([outcomesKey ?? '', scoresKey ?? '', String(responsesPath[0])]));
  const read = withCleanQuestion(value, promptKey, questionOf(prompt));
  const texts = { question: read.question, promptReading: read.reading };
  const drafts = responses.map((r, i): RolloutDraft => ({
    id: 0,
    line: 0,
    index: i,
    format,
    group,
    prompt: texts.question,
    promptReading: texts.promptReading,
    response: typeof r === 'string' ? r : '',
    gold,
    fileOutcome: outcomes ? outcomeFromValue(outcomes[i]) : { kind: 'unknown', source: 'none' },
    ...scoreFields(scores ? readScores(scores[i], `${scoresKey}[${i}]`) : { scores: null }),
    explicitSteps: null,
    filePred: preds ? predText(preds[i]) : null,
    responsePath: typeof r === 'string' ? [...responsesPath, i] : null,
    responseShift: 0,
    ...(outcomesKey ? { outcomeField: outcomesKey } : {}),
    rewards: rewardsAt(i),
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

/**
 * A record that keeps the clean `question` beside the templated prompt the policy saw (a first GRPO
 * loop's `{"question", "prompt": "A conversation between User and Assistant … User: <q>\nAssistant:"}`):
 * the clean question is the question, when the prompt holds it; the prompt's reading (its system
 * prompt, where the answer format is stated) is kept.
 */
function withCleanQuestion(record: Json, promptKey: string | undefined, read: ReadPrompt): ReadPrompt {
  if (promptKey === undefined || promptKey === 'question') return read;
  const question = record.question;
  if (typeof question !== 'string' || question.trim() === '' || question === read.question) return read;
  const prompt = record[promptKey] as string;
  return prompt.includes(question.trim()) ? { question: question.trim(), reading: read.reading } : read;
}
