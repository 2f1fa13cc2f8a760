/**
 * Builds a PRM's input token ids for one rollout, per profile, and says where each step's score
 * is read. Pure: shared by every model scorer (the ONNX worker and a served PRM alike), so the
 * same rollout gives the same ids whichever runs it.
 */
import { QWEN_PRM_SYSTEM_PROMPT, type PrmProfile } from './profile';
import type { PrmTokenizer } from './checkpointTokenizer';

/** What a PRM reads for one rollout. */
export interface PrmInput {
  /** Token ids to feed, already cut to the context limit. */
  ids: number[];
  /** Position in `ids` of each scored step's separator, in step order. */
  separatorPositions: number[];
  /**
   * Index of the first step whose separator falls beyond the context limit; that step and all
   * after it are unscored (context). Null when every step fits.
   */
  unscoredFromStep: number | null;
}

export interface BuildPrmInputOptions {
  profile: PrmProfile;
  tokenizer: PrmTokenizer;
  prompt: string;
  steps: readonly string[];
  /** Context limit; defaults to the profile's. */
  maxTokens?: number;
}

/** Math-Shepherd's step tag as text: it tokenizes to the tag id only with the space before it. */
const SHEPHERD_TAG_TEXT = ' ки';

/** Text to tokenize, or one id inserted as is (a separator, whose position is recorded, or a bos). */
type Segment = { text: string } | { id: number; isSeparator: boolean };

function qwenSegments(profile: PrmProfile, prompt: string, steps: readonly string[]): Segment[] {
  // The card joins the steps with <extra_0> inside one chat template; since the separator and
  // the ChatML markers are special tokens, tokenizing the text between them piece by piece gives
  // the same ids, and inserting the separator by id works with stock Qwen vocabularies too.
  const header =
    `<|im_start|>system\n${QWEN_PRM_SYSTEM_PROMPT}<|im_end|>\n` +
    `<|im_start|>user\n${prompt}<|im_end|>\n<|im_start|>assistant\n`;
  const segments: Segment[] = [];
  steps.forEach((step, i) => {
    segments.push({ text: i === 0 ? header + step : step }, { id: profile.separatorId, isSeparator: true });
  });
  segments.push({ text: steps.length === 0 ? header : '' }, { text: '<|im_end|><|endoftext|>' });
  return segments;
}

function stepwiseSegments(profile: PrmProfile, prompt: string, steps: readonly string[]): Segment[] {
  // Skywork's reference code encodes the prompt and each step separately, then appends the
  // separator id: the segments must not be merged before tokenizing.
  const segments: Segment[] = profile.bosId === null ? [] : [{ id: profile.bosId, isSeparator: false }];
  segments.push({ text: prompt + profile.promptSuffix });
  for (const step of steps) segments.push({ text: step }, { id: profile.separatorId, isSeparator: true });
  return segments;
}

function encodeSegments(tokenizer: PrmTokenizer, segments: readonly Segment[], separatorId: number): { ids: number[]; separators: number[] } {
  // The separator is placed by id only: written in a prompt or a step (a policy quoting the format,
  // a rollout scored twice), its text stays text, so it neither adds a boundary the scorer does
  // not read nor feeds the model a token the card's input would not have there.
  const plain = { plainIds: [separatorId] };
  const ids: number[] = [];
  const separators: number[] = [];
  for (const segment of segments) {
    if ('id' in segment) {
      if (segment.isSeparator) separators.push(ids.length);
      ids.push(segment.id);
    } else {
      for (const id of tokenizer.encode(segment.text, plain)) ids.push(id);
    }
  }
  return { ids, separators };
}

function shepherdIds(options: BuildPrmInputOptions): { ids: number[]; separators: number[] } {
  // Math-Shepherd tokenizes "question answer" as one string (with the tokenizer's own BOS); the
  // tag is found by id afterwards, so a step that itself contains the tag would shift every score.
  const { profile, tokenizer, prompt, steps } = options;
  const body = steps.map((s) => s + SHEPHERD_TAG_TEXT).join('\n');
  const ids = tokenizer.encode(`${prompt} ${body}`, { addSpecialTokens: true });
  const separators: number[] = [];
  ids.forEach((id, i) => {
    if (id === profile.separatorId) separators.push(i);
  });
  if (separators.length !== steps.length) {
    throw new Error(
      `lmhead-prm: found ${separators.length} step tags (id ${profile.separatorId}) for ${steps.length} steps; ` +
        'a step or the prompt may contain the tag text itself',
    );
  }
  return { ids, separators };
}

/**
 * Builds the token ids a profile's PRM reads for (prompt, steps) and the position of each step's
 * separator. Steps whose separator falls at or beyond `maxTokens` are reported through
 * `unscoredFromStep`, never dropped silently; the ids are cut after the last scored separator,
 * which leaves the scored positions unchanged for causal models. Throws when a profile cannot
 * place every step's separator (lmhead-prm with the tag inside a step).
 */
export function buildPrmInput(options: BuildPrmInputOptions): PrmInput {
  const { profile, tokenizer, prompt, steps } = options;
  const maxTokens = options.maxTokens ?? profile.maxTokens;
  let built: { ids: number[]; separators: number[] };
  if (profile.name === 'lmhead-prm') {
    built = shepherdIds(options);
  } else {
    const layout = profile.name === 'qwen-prm' ? qwenSegments : stepwiseSegments;
    built = encodeSegments(tokenizer, layout(profile, prompt, steps), profile.separatorId);
  }
  const fitting = built.separators.filter((p) => p < maxTokens);
  if (fitting.length === built.separators.length) {
    return { ids: built.ids.slice(0, maxTokens), separatorPositions: fitting, unscoredFromStep: null };
  }
  const last = fitting[fitting.length - 1];
  return {
    ids: last === undefined ? [] : built.ids.slice(0, last + 1),
    separatorPositions: fitting,
    unscoredFromStep: fitting.length,
  };
}
