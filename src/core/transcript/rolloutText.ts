/**
 * A record's prompt and response as the adapters hand them on: the question read out of a
 * rendered chat (the system prompt kept apart), the response's turns when an agent loop appended
 * tool replies to it. Prompts repeat across a group's rollouts, so each reading is cached by the
 * prompt's text: the rollouts of one prompt share one reading object.
 */
import { isPlainAtAGlance, PLAIN_PROMPT, readPrompt, type PromptReading, type ReadPrompt } from './promptReading';
import { readResponse } from './response';
import type { Turn } from './turns';
import type { Rollout } from '../model';

/** What an adapter needs from a prompt. */
export interface RolloutTexts {
  question: string;
  promptReading: PromptReading;
}

/** Readings of prompts seen lately; cleared when full (a dump's prompts come a batch at a time). */
const promptCache = new Map<string, ReadPrompt>();
const PROMPT_CACHE_SIZE = 1024;
/** A prompt this long is read every time it comes (caching it would hold megabytes). */
const MAX_CACHED_PROMPT = 64 * 1024;
/** The prompt read last, and its reading (two variables: no object per lookup). */
let lastPrompt: string | null = null;
let lastRead: ReadPrompt | null = null;

/** The question of a prompt, read once per distinct prompt text. */
export function questionOf(prompt: string): ReadPrompt {
  // The rollouts of a group usually come together: the last prompt is compared first (equal
  // strings compare in one pass, different ones mostly at once); then a prompt plain at a glance
  // is read at once, and only the others are looked up in the cache (a lookup hashes the text).
  if (lastPrompt === prompt && lastRead !== null) return lastRead;
  if (isPlainAtAGlance(prompt)) {
    lastPrompt = prompt;
    lastRead = { question: prompt, reading: PLAIN_PROMPT };
    return lastRead;
  }
  const cached = promptCache.get(prompt);
  if (cached) {
    lastPrompt = prompt;
    lastRead = cached;
    return cached;
  }
  const read = readPrompt(prompt);
  if (prompt.length <= MAX_CACHED_PROMPT) {
    if (promptCache.size >= PROMPT_CACHE_SIZE) promptCache.clear();
    promptCache.set(prompt, read);
    lastPrompt = prompt;
    lastRead = read;
  }
  return read;
}

/** The question and how it was read (the response's turns are read when needed: `responseTurnsOf`). */
export function readRolloutTexts(prompt: string): RolloutTexts {
  const read = questionOf(prompt);
  return { question: read.question, promptReading: read.reading };
}

/** A rollout's response turns, read on first use and kept on the rollout. */
export function responseTurnsOf(rollout: Pick<Rollout, 'response' | 'responseTurns'>): Turn[] | null {
  if (rollout.responseTurns === undefined) rollout.responseTurns = readResponse(rollout.response)?.turns ?? null;
  return rollout.responseTurns;
}
