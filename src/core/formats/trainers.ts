/**
 * What a trainer's dump format is (docs/trainer-dumps.md): a file of `formats/catalog/` declares one
 * — TRL's completions table, open-instruct's token-id traces, prime-rl's episodes, NeMo-RL's
 * message logs, slime's samples, ROLL's column dumps, AReaL's trajectories, SkyRL's evaluation
 * dumps, NeMo Gym's Responses API rollouts — recognised from its records' shape alone, and
 * `npm run gen:catalog` lists it (`trainerCatalog.ts`). verl's flat dumps are read with the other
 * flat formats (adaptRecord.ts).
 */
import type { SourceRecord } from '../model';
import type { AdaptResult } from './formatDraft';
import type { Json } from './fields';

/** Turns token ids back into text with the tokenizer of the model that wrote them. */
export interface TokenDecoder {
  /** The tokenizer's name (the model id) and where it was found, for messages. */
  name: string;
  /** The text of `ids`; throws, with the reason in words, when they are not read (too long, a tokenizer that overran its time). */
  decode(ids: readonly number[]): string;
  /**
   * Decodes what `records` hold before they are adapted (the tokenizer runs elsewhere, on a time
   * budget); adapting stays synchronous. Every reader of token-id traces awaits it first.
   */
  prepare?(records: readonly SourceRecord[]): Promise<void>;
}

/** Why token ids were not read: for one list (too long), or for the whole file (the tokenizer is not used). */
export class TraceDecodeError extends Error {
  override readonly name = 'TraceDecodeError';
  constructor(message: string, readonly isWholeFile: boolean) {
    super(message);
  }
}

/** What a trainer's record may need from outside the file. */
export interface AdaptContext {
  /** The tokenizer for records that hold token ids only (open-instruct). */
  decoder?: TokenDecoder | null;
  /** When no tokenizer was found: what the user must provide, said exactly. */
  decoderProblem?: string;
  /** Collect the reward fields beside the outcome (default true; a run summary shows none). */
  rewards?: boolean;
}

/**
 * One trainer's format, declared whole in its file. Records are tried against the formats by
 * `order` (lower first), and the first that `owns` a record adapts it: a format whose shape test
 * would also match records another owns goes after that one.
 */
export interface TrainerFormat {
  /** Its `FormatId` (`TrainerFormatId`, generated). */
  id: string;
  /** Its name as users know it (`read as: ROLL rollout dump`). */
  name: string;
  order: number;
  /** Whether a record is this trainer's, from keys its writer always writes. */
  owns(value: Json): boolean;
  /** The record's rollouts and notes; null when it holds none this format can read (no other format is tried). */
  adapt(record: SourceRecord, context: AdaptContext): AdaptResult | null;
}
