/**
 * What leaves the machine, asked about first: before rollouts go to a critic, a modal says how
 * many, roughly how many tokens, to which hosts and model, and waits for a yes (a user may let it
 * send without asking for the rest of the session). Also warns, once per set of hosts, when an
 * API key would travel unencrypted to another machine.
 */
import { askModal, showWarning } from './notify';
import type { SendPlan } from '../protocol/analysis';
import type { ModelConfig } from '../protocol/modelConfig';
import { plainHttpKeyWarning } from '../scoring/scorers/endpoints/endpointUrls';
import { consentText } from '../scoring/scorers/critic/consentText';

const SEND = 'Send';
const SEND_ALWAYS = 'Send, and don\'t ask again this session';

/** Asks before sending; remembers "don't ask again" per hosts and model until the window closes. */
export class SendGuard {
  private readonly approved = new Set<string>();
  private readonly warned = new Set<string>();

  constructor(private readonly apiKey: () => string | undefined) {}

  /** True when the user agrees (or agreed for the session) to send what `plan` describes. */
  async confirm(plan: SendPlan): Promise<boolean> {
    const key = JSON.stringify([plan.urls, plan.model]);
    if (this.approved.has(key)) return true;
    const { message, detail } = consentText(plan, plainHttpKeyWarning(plan.urls, this.apiKey() !== undefined));
    const picked = await askModal(message, detail, SEND, SEND_ALWAYS);
    if (picked === SEND_ALWAYS) this.approved.add(key);
    return picked === SEND || picked === SEND_ALWAYS;
  }

  /** Warns once when a model about to be used would get the key over plain http from another machine. */
  noteModel(model: ModelConfig | null): void {
    if (!model || model.kind === 'onnx' || !model.apiKey) return;
    const warning = plainHttpKeyWarning(model.urls, true);
    if (warning === null || this.warned.has(warning)) return;
    this.warned.add(warning);
    void showWarning(`PROF Lens: ${warning}.`);
  }
}
