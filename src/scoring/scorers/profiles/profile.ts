/**
 * PRM profiles: how a checkpoint wants its input laid out and how its output becomes a step score.
 * A model folder names its profile in `prof-lens.json`; this module parses that manifest and
 * resolves it, with the checkpoint's tokenizer, into the ids the prompt builder needs.
 */
import type { ReadoutSpec } from '../../../protocol/onnx';
import type { PrmTokenizer } from './checkpointTokenizer';
import { isRecord } from '../../../core/isRecord';

export type ProfileName = 'qwen-prm' | 'skywork-prm' | 'lmhead-prm' | 'token-cls-prm';

const PROFILE_NAMES: readonly ProfileName[] = ['qwen-prm', 'skywork-prm', 'lmhead-prm', 'token-cls-prm'];

/** The Qwen2.5-Math-PRM system prompt, as its model card writes it. */
export const QWEN_PRM_SYSTEM_PROMPT =
  'Please reason step by step, and put your final answer within \\boxed{}.';

/** The contents of `prof-lens.json`. Only `profile` and `model` are required. */
export interface ProfileManifest {
  profile: ProfileName;
  /** The checkpoint's name, shown to the user and used in cache keys. */
  model: string;
  /** Context the model was trained with; steps whose separator falls beyond it are unscored. */
  maxTokens?: number;
  /** The step separator's token id (qwen-prm: 151651, skywork-prm: 198, lmhead-prm: 12902). */
  separatorId?: number;
  /** The separator as text, tokenized to one id when `separatorId` is absent (token-cls-prm). */
  separatorText?: string;
  /**
   * The class whose probability is the step score (default 1). lmhead-prm exports keep the two
   * LM-head rows [bad 387, good 648] in that order, so class 1 is "good" there too.
   */
  labelIndex?: number;
  /** `softmax` over a class axis or `sigmoid` of one value (token-cls-prm; others are fixed). */
  readout?: 'softmax' | 'sigmoid';
  bosId?: number;
  padId?: number;
  /** Text between the prompt and the first step (skywork-prm, token-cls-prm; default "\n"). */
  promptSuffix?: string;
}

/** A manifest resolved against the tokenizer: everything the prompt builder and worker need. */
export interface PrmProfile {
  name: ProfileName;
  model: string;
  maxTokens: number;
  separatorId: number;
  readout: ReadoutSpec;
  /** Token put before the prompt (skywork-prm, token-cls-prm), or null for none. */
  bosId: number | null;
  padId: number;
  promptSuffix: string;
}

interface ProfileDefaults {
  separatorId: number | null;
  readout: ReadoutSpec['kind'];
  maxTokens: number;
}

const DEFAULTS: Record<ProfileName, ProfileDefaults> = {
  'qwen-prm': { separatorId: 151651, readout: 'softmax', maxTokens: 4096 },
  'skywork-prm': { separatorId: 198, readout: 'sigmoid', maxTokens: 4096 },
  'lmhead-prm': { separatorId: 12902, readout: 'softmax', maxTokens: 4096 },
  'token-cls-prm': { separatorId: null, readout: 'softmax', maxTokens: 4096 },
};

function optional<T>(
  raw: Record<string, unknown>,
  key: string,
  check: (v: unknown) => v is T,
  expected: string,
): T | undefined {
  const value = raw[key];
  if (value === undefined) return undefined;
  if (!check(value)) throw new Error(`prof-lens.json: "${key}" must be ${expected}, found ${JSON.stringify(value)}`);
  return value;
}

const isNonNegativeInt = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;
const isPositiveInt = (v: unknown): v is number => Number.isInteger(v) && (v as number) > 0;
const isString = (v: unknown): v is string => typeof v === 'string';
const isReadoutKind = (v: unknown): v is 'softmax' | 'sigmoid' => v === 'softmax' || v === 'sigmoid';

/** Parses `prof-lens.json`; throws a message naming the bad field and what was expected. */
export function parseProfileManifest(value: unknown): ProfileManifest {
  if (!isRecord(value)) throw new Error('prof-lens.json must hold a JSON object');
  const profile = value.profile;
  if (typeof profile !== 'string' || !(PROFILE_NAMES as readonly string[]).includes(profile)) {
    throw new Error(
      `prof-lens.json: "profile" must be one of ${PROFILE_NAMES.join(', ')}, found ${JSON.stringify(profile)}`,
    );
  }
  const model = value.model;
  if (typeof model !== 'string' || model === '') throw new Error('prof-lens.json: "model" must name the checkpoint');
  return {
    profile: profile as ProfileName,
    model,
    maxTokens: optional(value, 'maxTokens', isPositiveInt, 'a positive integer'),
    separatorId: optional(value, 'separatorId', isNonNegativeInt, 'a token id'),
    separatorText: optional(value, 'separatorText', isString, 'a string'),
    labelIndex: optional(value, 'labelIndex', isNonNegativeInt, 'a class index'),
    readout: optional(value, 'readout', isReadoutKind, '"softmax" or "sigmoid"'),
    bosId: optional(value, 'bosId', isNonNegativeInt, 'a token id'),
    padId: optional(value, 'padId', isNonNegativeInt, 'a token id'),
    promptSuffix: optional(value, 'promptSuffix', isString, 'a string'),
  };
}

function resolveSeparator(manifest: ProfileManifest, tokenizer: PrmTokenizer): number {
  if (manifest.separatorId !== undefined) return manifest.separatorId;
  if (manifest.separatorText !== undefined) {
    const ids = tokenizer.encode(manifest.separatorText);
    const only = ids.length === 1 ? ids[0] : undefined;
    if (only === undefined) {
      throw new Error(
        `prof-lens.json: separatorText ${JSON.stringify(manifest.separatorText)} is ${ids.length} tokens ` +
          `(${ids.join(', ')}) in this tokenizer; give "separatorId" instead`,
      );
    }
    return only;
  }
  const fallback = DEFAULTS[manifest.profile].separatorId;
  if (fallback === null) throw new Error(`prof-lens.json: profile ${manifest.profile} needs "separatorId" or "separatorText"`);
  return fallback;
}

/** Resolves a manifest's defaults and token ids against the checkpoint's tokenizer. */
export function resolveProfile(manifest: ProfileManifest, tokenizer: PrmTokenizer): PrmProfile {
  const defaults = DEFAULTS[manifest.profile];
  // Only token-cls-prm heads vary; the named profiles' readouts are part of the checkpoint.
  const readoutKind = manifest.profile === 'token-cls-prm' ? (manifest.readout ?? defaults.readout) : defaults.readout;
  const usesBos = manifest.profile === 'skywork-prm' || manifest.profile === 'token-cls-prm';
  return {
    name: manifest.profile,
    model: manifest.model,
    maxTokens: manifest.maxTokens ?? defaults.maxTokens,
    separatorId: resolveSeparator(manifest, tokenizer),
    readout: { kind: readoutKind, labelIndex: manifest.labelIndex ?? 1 },
    bosId: usesBos ? (manifest.bosId ?? tokenizer.bosId) : null,
    padId: manifest.padId ?? tokenizer.padId ?? 0,
    promptSuffix: manifest.promptSuffix ?? '\n',
  };
}
