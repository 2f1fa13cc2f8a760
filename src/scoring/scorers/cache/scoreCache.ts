/**
 * A persistent cache of step scores, so reopening a file scored once costs nothing. One append-only
 * JSONL file per cache folder, one line per entry keyed by the sha256 of (model identity, profile,
 * prompt, steps). A line that does not parse (a crash mid-write, a hand edit) is skipped; when the
 * file outgrows its cap the oldest entries are evicted and the file is rewritten atomically.
 */
import { createHash, randomBytes } from 'node:crypto';
import { appendFile, mkdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { StepScoring } from '../../../core/model';
import { isBlankLine, splitLines } from '../../../core/read/jsonLines';

/** What a cached score depends on. */
export interface ScoreCacheKey {
  /** Identifies the exact model: see `modelDirIdentity` and `servedModelIdentity`. */
  model: string;
  profile: string;
  prompt: string;
  steps: readonly string[];
}

/** Where the cache lives and how large it may grow. */
export interface ScoreCacheOptions {
  /** Folder holding the cache file; created on the first write. */
  dir: string;
  /** Size cap of the cache file. Default 64 MiB. */
  maxBytes?: number;
}

/** Step scores remembered across runs, keyed by model, profile, prompt and steps. */
export interface ScoreCache {
  /** The cache file. */
  readonly file: string;
  get(key: ScoreCacheKey): Promise<StepScoring | undefined>;
  /** Remember a result; it is written to disk by the next `flush()`. */
  set(key: ScoreCacheKey, value: StepScoring): void;
  /** Write pending entries, evicting the oldest ones when the file is over its cap. */
  flush(): Promise<void>;
  /** Lines skipped while loading because they were unreadable. */
  readonly skippedLines: number;
}

/** Versioned so that a future format change starts a fresh file instead of misreading this one. */
export const SCORE_CACHE_FILE = 'step-scores.v1.jsonl';
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
/** After an eviction the file is brought well under the cap, so the next flushes only append. */
const EVICT_TO_FRACTION = 0.75;

interface Entry {
  value: StepScoring;
  /** Length in bytes of the entry's line, newline included. */
  bytes: number;
  line: string;
}

/** The sha256 (hex) a key is stored under. */
export function scoreCacheKeyHash(key: ScoreCacheKey): string {
  // An array of strings has exactly one JSON form, so equal keys always hash equally.
  return createHash('sha256').update(JSON.stringify([key.model, key.profile, key.prompt, [...key.steps]])).digest('hex');
}

/** Open (lazily) the cache in `options.dir`. */
export function createScoreCache(options: ScoreCacheOptions): ScoreCache {
  return new JsonlScoreCache(options.dir, options.maxBytes ?? DEFAULT_MAX_BYTES);
}

class JsonlScoreCache implements ScoreCache {
  readonly file: string;
  skippedLines = 0;
  private readonly entries = new Map<string, Entry>();
  private pending: string[] = [];
  private fileBytes = 0;
  private needsNewline = false;
  private loading: Promise<void> | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly dir: string,
    private readonly maxBytes: number,
  ) {
    this.file = join(dir, SCORE_CACHE_FILE);
  }

  async get(key: ScoreCacheKey): Promise<StepScoring | undefined> {
    await this.load();
    return this.entries.get(scoreCacheKeyHash(key))?.value;
  }

  set(key: ScoreCacheKey, value: StepScoring): void {
    const hash = scoreCacheKeyHash(key);
    const line = `${JSON.stringify({ k: hash, t: Date.now(), v: value })}\n`;
    const bytes = Buffer.byteLength(line, 'utf8');
    if (bytes > this.maxBytes) return;
    remember(this.entries, hash, { value, bytes, line });
    this.pending.push(line);
  }

  flush(): Promise<void> {
    // Flushes run one after another so two of them never append or compact at once.
    this.writing = this.writing.catch(() => undefined).then(() => this.write());
    return this.writing;
  }

  private load(): Promise<void> {
    this.loading ??= readLines(this.file).then((loaded) => {
      // Entries set before the file was read are newer than anything in it.
      const setEarlier = [...this.entries];
      this.entries.clear();
      for (const [hash, entry] of [...loaded.entries, ...setEarlier]) remember(this.entries, hash, entry);
      this.fileBytes = loaded.fileBytes;
      this.needsNewline = loaded.needsNewline;
      this.skippedLines = loaded.skippedLines;
    });
    return this.loading;
  }

  private async write(): Promise<void> {
    await this.load();
    if (this.pending.length === 0 && this.fileBytes <= this.maxBytes) return;
    await mkdir(this.dir, { recursive: true });
    const text = (this.needsNewline ? '\n' : '') + this.pending.join('');
    this.pending = [];
    if (text !== '') await appendFile(this.file, text, 'utf8');
    this.fileBytes += Buffer.byteLength(text, 'utf8');
    this.needsNewline = false;
    if (this.fileBytes > this.maxBytes) {
      this.fileBytes = await compact(this.file, this.entries, Math.floor(this.maxBytes * EVICT_TO_FRACTION));
    }
  }
}

/** Insertion order is age order: re-setting a key makes it the newest. */
function remember(entries: Map<string, Entry>, hash: string, entry: Entry): void {
  entries.delete(hash);
  entries.set(hash, entry);
}

interface Loaded {
  entries: [string, Entry][];
  fileBytes: number;
  needsNewline: boolean;
  skippedLines: number;
}

async function readLines(file: string): Promise<Loaded> {
  let text: string;
  try {
    // Only a regular file: a cache path made a FIFO or a device must not block or fill memory.
    const info = await stat(file);
    if (!info.isFile()) throw Object.assign(new Error(`${file} is not a regular file`), { code: 'ENOTFILE' });
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return { entries: [], fileBytes: 0, needsNewline: false, skippedLines: 0 };
  }
  const entries: [string, Entry][] = [];
  let skippedLines = 0;
  for (const { raw } of splitLines(text)) {
    if (isBlankLine(raw)) continue;
    const parsed = parseLine(raw);
    if (parsed) entries.push(parsed);
    else skippedLines++;
  }
  return { entries, fileBytes: Buffer.byteLength(text, 'utf8'), needsNewline: text !== '' && !text.endsWith('\n'), skippedLines };
}

function parseLine(raw: string): [string, Entry] | undefined {
  let record: unknown;
  try {
    record = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (typeof record !== 'object' || record === null) return undefined;
  const { k, v } = record as { k?: unknown; v?: unknown };
  if (typeof k !== 'string' || !/^[0-9a-f]{64}$/.test(k) || !isStepScoring(v)) return undefined;
  const line = `${raw}\n`;
  return [k, { value: v, bytes: Buffer.byteLength(line, 'utf8'), line }];
}

function isStepScoring(value: unknown): value is StepScoring {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  if (typeof v.scorer !== 'string') return false;
  if (v.kind === 'unscored') return typeof v.reason === 'string';
  if (v.kind !== 'scored' || !Array.isArray(v.scores)) return false;
  // The cache is a file anyone can edit: an entry is used only in the shape a scorer gives.
  const scoresOk = v.scores.every((s) => s === null || (typeof s === 'number' && s >= 0 && s <= 1));
  const notesOk = v.notes === undefined || (Array.isArray(v.notes) && v.notes.every((n) => n === null || typeof n === 'string'));
  const notDecidedOk = v.notDecided === undefined || (Array.isArray(v.notDecided) && v.notDecided.every(isNotDecided));
  return scoresOk && notesOk && notDecidedOk;
}

function isNotDecided(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const n = value as Record<string, unknown>;
  return Number.isInteger(n.step) && typeof n.text === 'string' && typeof n.reason === 'string';
}

/**
 * Drop the oldest entries until the live ones fit in `targetBytes`, and rewrite the file with only
 * those (superseded duplicates go too). Returns the new file size.
 */
async function compact(file: string, entries: Map<string, Entry>, targetBytes: number): Promise<number> {
  let live = 0;
  for (const entry of entries.values()) live += entry.bytes;
  for (const [hash, entry] of entries) {
    if (live <= targetBytes) break;
    entries.delete(hash);
    live -= entry.bytes;
  }
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, [...entries.values()].map((e) => e.line).join(''), 'utf8');
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  return live;
}
