/**
 * What the scorers of a served model (`http` PRM, `critic`) share: the model behind its endpoints,
 * a lifetime that cancels everything on dispose, one request per rollout with a bounded number in
 * flight over all endpoints, and the scorer info filled in once the servers have said which model
 * they serve.
 */
import type { StepScoring } from '../../../core/model';
import type { EndpointStatus } from '../../../protocol/endpoints';
import type { ScoreItem, ScoreOptions, Scorer, ScorerInfo } from '../scorer';
import { mapBounded } from './boundedMap';
import { hostOf } from './endpointUrls';
import { ServedModel, type ServedModelOptions } from './servedModel';
import { capText } from '../../../core/presentation/capText';

/** Longest model id shown or stored (the whole id is still what the requests name). */
const MAX_MODEL_ID_CHARS = 200;

/** A scorer for a served model: `ready()` resolves the model before anything is scored. */
export interface EndpointScorer extends Scorer {
  /** Ask the endpoints which model they serve and return the final info. */
  ready(signal?: AbortSignal): Promise<ScorerInfo>;
  /**
   * What the model is, for the score cache: what `/v1/models` says about it plus a fingerprint
   * from one fixed probe, asked once per scorer (a session).
   */
  identity(signal?: AbortSignal): Promise<string>;
  endpointStatus(): EndpointStatus[];
}

/** The shared half of a served model's scorer; subclasses score one rollout. */
export abstract class ServedScorer implements EndpointScorer {
  readonly info: ScorerInfo;
  protected readonly served: ServedModel;
  private readonly lifetime = new AbortController();

  constructor(options: ServedModelOptions, info: Omit<ScorerInfo, 'provider'>) {
    this.served = new ServedModel(options);
    this.info = { ...info, provider: this.served.bases.map(hostOf).join(', ') };
  }

  /** The label once the model is known, e.g. `critic (qwq-32b)`. */
  protected abstract labelFor(model: string): string;

  /** Scores one rollout; `signal` aborts with the run. */
  protected abstract scoreOne(item: ScoreItem, signal: AbortSignal): Promise<StepScoring>;

  abstract identity(signal?: AbortSignal): Promise<string>;

  /**
   * The served model's id as the server gave it, sent back in every request. `info.model` (shown,
   * and written into every scored line's `step_scores_meta`) is the same id capped: a server that
   * names its model with a megabyte of text must not copy it into every line.
   */
  protected servedId = '';

  async ready(signal?: AbortSignal): Promise<ScorerInfo> {
    const facts = await this.served.ready(this.signal(signal));
    this.servedId = facts.id;
    const shown = capText(facts.id, MAX_MODEL_ID_CHARS);
    Object.assign(this.info, { model: shown, label: this.labelFor(shown) });
    return this.info;
  }

  async score(items: readonly ScoreItem[], options: ScoreOptions = {}): Promise<StepScoring[]> {
    this.lifetime.signal.throwIfAborted();
    await this.ready(options.signal);
    return mapBounded({
      items,
      limit: this.served.pool.capacity,
      worker: (item, signal) => this.scoreOne(item, signal),
      signal: this.signal(options.signal),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
  }

  endpointStatus(): EndpointStatus[] {
    return this.served.status();
  }

  async dispose(): Promise<void> {
    this.lifetime.abort(new DOMException(`the ${this.info.kind} scorer was disposed`, 'AbortError'));
    this.served.dispose();
  }

  /** The caller's signal joined with the scorer's lifetime. */
  protected signal(signal?: AbortSignal): AbortSignal {
    return signal ? AbortSignal.any([signal, this.lifetime.signal]) : this.lifetime.signal;
  }
}
