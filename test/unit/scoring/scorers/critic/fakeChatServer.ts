/**
 * A local stand-in (127.0.0.1 only) for an OpenAI-compatible server running a chat model, following
 * the documented contract: `GET /v1/models` (with vLLM's `root` and `max_model_len`), `POST
 * /v1/chat/completions` answering `{choices: [{message: {content, reasoning_content?}, finish_reason}],
 * usage}`, errors as `{"error": {"message"}}`, 404 for a model it does not serve.
 *
 * Its "judgement" is a rule a test can predict, not a model: the first paragraph holding a false
 * `a × b = c` (or `*`, `+`, `-`) claim is flagged with an "Error:" sentence; otherwise `\boxed{-1}`.
 * How it writes the answer (reasoning inline, in `<think>`, or in `reasoning_content`) is chosen
 * per server; any request can be answered otherwise through `onChat`.
 */
import { modelsAnswer, startLoopbackServer, type RecordedRequest, type Send } from '../loopbackServer';

export type RecordedChat = RecordedRequest;

/** How one answer is given instead of the rule's. */
export interface ChatReply {
  status?: number;
  /** The whole JSON body (an error, or a malformed answer). */
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
  /** Never answer (the client's timeout must act). */
  hang?: boolean;
  /** The message content to send instead of the rule's. */
  content?: string | null;
  reasoningContent?: string;
  finishReason?: string;
}

/** Where the rule's answer puts its reasoning. */
export type AnswerStyle = 'plain' | 'think' | 'reasoning_content';

export interface FakeChatOptions {
  modelId?: string;
  root?: string | null;
  maxModelLen?: number | null;
  style?: AnswerStyle;
  onChat?: (call: number, body: ChatBody) => ChatReply | undefined;
}

export interface ChatBody {
  model?: string;
  messages?: { role: string; content: string }[];
  temperature?: number;
  max_tokens?: number;
}

export interface FakeChatServer {
  url: string;
  requests: RecordedChat[];
  /** Chat requests only. */
  chats(): RecordedChat[];
  maxInFlight: number;
  /** Serve another checkpoint under the same name. */
  swap(model: { root?: string | null; maxModelLen?: number | null; verdictShift?: number }): void;
  close(): Promise<void>;
}

/** The paragraphs of a critic prompt (between `<paragraph_i>` tags). */
export function paragraphsOf(prompt: string): string[] {
  return [...prompt.matchAll(/<paragraph_(\d+)>\n([\s\S]*?)\n<\/paragraph_\1>/g)].map((m) => m[2] ?? '');
}

const CLAIM = /(\d+(?:\.\d+)?)\s*(×|\*|\+|-)\s*(\d+(?:\.\d+)?)\s*=\s*(\d+(?:\.\d+)?)/g;

/** The rule: the first paragraph with a false arithmetic claim, and what is wrong there. */
export function firstFalseClaim(paragraphs: readonly string[]): { index: number; why: string } | null {
  for (const [index, text] of paragraphs.entries()) {
    for (const m of text.matchAll(CLAIM)) {
      const [a, op, b, c] = [Number(m[1]), m[2], Number(m[3]), Number(m[4])];
      const value = op === '+' ? a + b : op === '-' ? a - b : a * b;
      if (Math.abs(value - c) > 1e-9) return { index, why: `${m[1]} ${op} ${m[3]} is ${value}, not ${m[4]}.` };
    }
  }
  return null;
}

function ruleAnswer(prompt: string, style: AnswerStyle, shift: number): { content: string; reasoning?: string } {
  const paragraphs = paragraphsOf(prompt);
  const found = firstFalseClaim(paragraphs);
  const index = found === null ? -1 : Math.min(paragraphs.length - 1, found.index + shift);
  const reasoning = paragraphs.map((_, i) => `Paragraph ${i}: ${i === found?.index ? 'wrong' : 'fine'}.`).join('\n');
  const verdict = found === null ? `Every paragraph is correct.\n\n\\boxed{-1}` : `Error: ${found.why}\n\n\\boxed{${index}}`;
  if (style === 'think') return { content: `<think>\n${reasoning}\nMaybe \\boxed{0}?\n</think>\n\n${verdict}` };
  // A decoy box in the separate reasoning field: a client must never read it.
  if (style === 'reasoning_content') return { content: verdict, reasoning: `${reasoning}\nFirst guess: \\boxed{0}` };
  return { content: `${reasoning}\n\n${verdict}` };
}

/** Start the fake on 127.0.0.1 with a free port. */
export async function startFakeChatServer(options: FakeChatOptions = {}): Promise<FakeChatServer> {
  const modelId = options.modelId ?? 'fake-critic-7b';
  let model = { root: options.root === undefined ? `/models/${modelId}` : options.root, maxModelLen: options.maxModelLen === undefined ? 32768 : options.maxModelLen, verdictShift: 0 };
  let inFlight = 0;
  let chatCalls = 0;
  const state: FakeChatServer = {
    url: '',
    requests: [],
    chats: () => state.requests.filter((r) => r.path === '/v1/chat/completions'),
    maxInFlight: 0,
    swap: (next) => (model = { ...model, verdictShift: 0, ...next }),
    close: async () => undefined,
  };
  const answer = (chat: ChatBody, reply: ChatReply, send: Send): void => {
    if (reply.status !== undefined && reply.status !== 200) {
      send(reply.status, reply.body ?? { error: { message: 'failed' } }, reply.headers);
      return;
    }
    if (reply.body !== undefined) {
      send(200, reply.body, reply.headers);
      return;
    }
    const prompt = chat.messages?.at(-1)?.content ?? '';
    const rule = ruleAnswer(prompt, options.style ?? 'plain', model.verdictShift);
    const content = reply.content === undefined ? rule.content : reply.content;
    const reasoning = reply.reasoningContent ?? rule.reasoning;
    const message = { role: 'assistant', content, ...(reasoning === undefined ? {} : { reasoning_content: reasoning }) };
    const usage = { prompt_tokens: Math.ceil(prompt.length / 4), completion_tokens: Math.ceil((content ?? '').length / 4) };
    send(200, {
      id: `chatcmpl-${chatCalls}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: modelId,
      choices: [{ index: 0, message, finish_reason: reply.finishReason ?? 'stop', logprobs: null }],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    }, reply.headers);
  };
  const server = await startLoopbackServer(({ method, path, body }, send) => {
    if (method === 'GET' && path === '/v1/models') {
      send(200, modelsAnswer(modelId, model.root, model.maxModelLen));
      return;
    }
    if (method !== 'POST' || path !== '/v1/chat/completions') {
      send(404, { detail: 'Not Found' });
      return;
    }
    const chat = body as ChatBody;
    if (chat.model !== modelId) {
      send(404, { error: { message: `The model \`${chat.model}\` does not exist.`, type: 'NotFoundError', code: 404 } });
      return;
    }
    const reply = options.onChat?.(++chatCalls, chat) ?? {};
    if (reply.hang) return;
    inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    setTimeout(() => {
      inFlight--;
      answer(chat, reply, send);
    }, reply.delayMs ?? 5);
  });
  return Object.assign(state, { url: server.url, requests: server.requests, close: server.close });
}
