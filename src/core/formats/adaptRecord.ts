/**
 * Format detection and adaptation (docs/formats.md): each record becomes one rollout (flat formats) or
 * several (grouped lines, keyed solutions, a trainer's episode of traces). Detection is per record
 * and needs no configuration: labelled datasets (labelled.ts), RL trainers' dumps
 * (formats/catalog/, in `TRAINER_FORMATS`' order) and the generic shapes (generic.ts). A field
 * mapping overrides it.
 */
import type { Diagnostic, FormatId, SourceRecord } from '../model';
import type { AdaptResult, PerResponseArrays, RolloutDraft } from './formatDraft';
import type { FieldRole } from '../profSettings';
import { asText, firstKey, getPath, outcomeFromValue, parsePath, readScores, type Json } from './fields';
import { adaptLabelled } from './labelled';
import type { AdaptContext } from './trainers';
import { TRAINER_FORMATS } from './trainerCatalog';
import { adaptChat, adaptFlat, adaptGrouped, adaptStepsOnly, groupKey, idText, PROMPT_KEYS, RESPONSE_KEYS, RESPONSES_KEYS, scoreFields } from './generic';
import { readRolloutTexts } from '../transcript/rolloutText';
import { capText } from '../presentation/capText';
import { recordLocation } from '../presentation/locationWords';

export type { AdaptResult, PerResponseArrays, RolloutDraft };

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
  if (Array.isArray(value.messages)) return single(adaptChat(value, record.line, record.raw));
  const responsesKey = firstKey(value, RESPONSES_KEYS);
  if (responsesKey && Array.isArray(value[responsesKey])) return adaptGrouped(record, [responsesKey], value[responsesKey] as unknown[]);
  const flat = adaptFlat(value, { line: record.line, raw: record.raw, withRewards: context.rewards !== false }) ?? adaptStepsOnly(value, record.line, record.raw);
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

/** A trainer's record adapted by the first format that owns it, or null when none does. */
function adaptTrainerRecord(record: SourceRecord, context: AdaptContext): AdaptResult | null {
  const value = record.value as Json;
  for (const format of TRAINER_FORMATS) if (format.owns(value)) return format.adapt(record, context);
  return null;
}

/** Whether the user mapped any field (asked per record: no list of keys made for it). */
function hasMapping(fields: Partial<Record<FieldRole, string>>): boolean {
  for (const key in fields) if (Object.prototype.hasOwnProperty.call(fields, key)) return true;
  return false;
}

function single(draft: RolloutDraft): AdaptResult {
  return { drafts: [draft], diagnostics: [] };
}

/** The detected format's notes that still hold under the mapping (not its errors, nor a note about the outcome the user mapped). */
function notesKept(detected: AdaptResult, fields: Partial<Record<FieldRole, string>>): Diagnostic[] {
  return detected.diagnostics.filter((d) => d.severity !== 'error' && !(fields.outcome && d.code === 'outcome-column'));
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
    group: fields.group ? `group=${idText(get('group'), record.raw, parsePath(fields.group))}` : keepsDetected ? base.group : groupKey(value, mappedPrompt ?? prompt, gold, record.line, record.raw),
    prompt,
    response: responseText,
    gold,
    fileOutcome: fields.outcome ? outcomeFromValue(get('outcome')) : (base?.fileOutcome ?? { kind: 'unknown', source: 'none' }),
    ...(fields.stepScores ? scoreFields(readScores(get('stepScores'), fields.stepScores)) : { fileStepScores: base?.fileStepScores ?? null, ...(base?.fileScoresProblem ? { fileScoresProblem: base.fileScoresProblem } : {}) }),
    explicitSteps: fields.steps ? stringArray(get('steps')) : (base?.explicitSteps ?? null),
    responsePath: fields.response ? parsePath(fields.response) : (base?.responsePath ?? null),
    responseShift: 0,
    ...(fields.outcome ? { outcomeField: fields.outcome } : base?.outcomeField ? { outcomeField: base.outcomeField } : {}),
  };
  return { drafts: [draft], diagnostics: notesKept(detected, fields) };
}

/** Mapped responses: the other roles detected around them as for a grouped line, then the mapped ones read from their paths. */
function mappedGrouped(record: SourceRecord, fields: Partial<Record<FieldRole, string>>, get: (r: FieldRole) => unknown, detected: AdaptResult): AdaptResult {
  const responses = get('responses');
  if (!Array.isArray(responses)) return detected;
  const around = adaptGrouped(record, parsePath(fields.responses!), responses, 'mapped');
  const value = record.value as Json;
  const first = around.drafts[0];
  const mappedPrompt = fields.prompt ? asText(get('prompt')) : null;
  const read = mappedPrompt !== null ? readRolloutTexts(mappedPrompt) : null;
  const prompt = read?.question ?? first?.prompt ?? '';
  const gold = fields.gold ? asText(get('gold')) : (first?.gold ?? null);
  const outcomes = get('outcomes');
  const scores = get('stepScores');
  // The group key joins the prompt as written (a transcript's system prompt and all), as detection does.
  const promptKey = PROMPT_KEYS.find((k) => typeof value[k] === 'string');
  const promptAsWritten = mappedPrompt ?? (promptKey ? (value[promptKey] as string) : prompt);
  const group = fields.group ? `group=${idText(get('group'), record.raw, parsePath(fields.group))}` : groupKey(value, promptAsWritten, gold, record.line, record.raw);
  const drafts = around.drafts.map((d, i): RolloutDraft => {
    const draft: RolloutDraft = { ...d, group, prompt, gold, ...(read ? { promptReading: read.promptReading } : {}) };
    if (Array.isArray(outcomes)) {
      draft.fileOutcome = outcomeFromValue(outcomes[i]);
      draft.outcomeField = fields.outcomes!;
    }
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
