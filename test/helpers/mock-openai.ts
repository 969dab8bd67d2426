/**
 * A small chat-completions server on 127.0.0.1 that answers with scripted
 * turns streamed the way vLLM streams them — `data: {…}` chunks, a first
 * chunk with the role, tool calls opened with their id and name and their
 * arguments in later deltas, `data: [DONE]` — so the real `openai` library
 * (transport, streaming, errors) is exercised without a GPU. Variants, per
 * server: how usage is sent (only with `stream_options.include_usage` as vLLM
 * does, always at the end, never), how arguments are split (one character a
 * delta, whole, or in n pieces), reasoning in `reasoning_content` or
 * `reasoning`, tools refused (as vLLM without --enable-auto-tool-choice), the
 * models it lists. Each streamed POST takes the next scripted answer; the
 * non-streamed probe `verify()` sends is answered without using the script.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

export interface ToolCallSpec {
  /** Left out: the call comes without an id (some servers). */
  id?: string;
  name: string;
  input: unknown;
}

export interface TurnSpec {
  reasoning?: string;
  text?: string;
  tools?: ToolCallSpec[];
  /** Default: `tool_calls` with calls, else `stop`. */
  finishReason?: 'stop' | 'tool_calls' | 'length';
  /** Default: counted with o200k_base from the request's messages. */
  promptTokens?: number;
  /** Default: counted from what the turn writes. */
  completionTokens?: number;
}

export type RecordedBody = Record<string, unknown> & { messages?: { role: string; content?: unknown }[]; max_tokens?: number };

export type OpenAIAnswer =
  | { kind: 'turn'; turn: TurnSpec; cutAfter?: number; delayMs?: number }
  | { kind: 'http-error'; status: number; body: unknown; headers?: Record<string, string> }
  /** Made from the request when it comes (e.g. an answer as long as max_tokens allows). */
  | { kind: 'dynamic'; answer: (body: RecordedBody) => OpenAIAnswer };

export interface ServerVariant {
  models?: string[];
  /** `include_usage`: only when the request asks (vLLM); `always`: in the last chunk regardless; `never`. */
  usage?: 'include_usage' | 'always' | 'never';
  /** How tool arguments are split into deltas: `chars` one a delta, `whole` in the opening delta, or n pieces. */
  split?: 'chars' | 'whole' | number;
  reasoningField?: 'reasoning_content' | 'reasoning';
  /** False: every request with tools is refused as vLLM refuses it without --enable-auto-tool-choice. */
  tools?: boolean;
  /** Older vLLM's error body, `{"object": "error", "message": …}`, instead of `{"error": {…}}`. */
  oldErrors?: boolean;
  apiKey?: string;
  /** Refuses max_tokens as OpenAI's newer models do, wanting max_completion_tokens. */
  onlyCompletionTokens?: boolean;
  /** Refuses stream_options (some older servers). */
  noStreamOptions?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: RecordedBody | undefined;
}

export const turn = (spec: TurnSpec): OpenAIAnswer => ({ kind: 'turn', turn: spec });

const VLLM_TOOLS_REFUSAL = '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set';

/** What the request's messages hold, as a server would count it (content only, no template). */
export function promptTokensOf(body: RecordedBody): number {
  return (body.messages ?? []).reduce((sum, m) => sum + countTokens(typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '')), 0);
}

function pieces(text: string, split: ServerVariant['split']): string[] {
  if (text === '') return [];
  if (split === 'whole') return [text];
  const size = split === 'chars' ? 1 : Math.max(1, Math.ceil(text.length / (typeof split === 'number' ? split : 4)));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

export class MockOpenAI {
  readonly requests: RecordedRequest[] = [];
  private server?: Server;

  constructor(
    private readonly script: OpenAIAnswer[],
    readonly variant: ServerVariant = {},
  ) {}

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/v1`;
  }

  /** The streamed chat requests (the agent's turns), not the models list or the probe. */
  get turnRequests(): RecordedRequest[] {
    return this.requests.filter((r) => r.path.endsWith('/chat/completions') && r.body?.stream === true);
  }

  /** The chunks of one turn, as vLLM streams them (usage added by the server as its variant says). */
  chunks(spec: TurnSpec, model: string): Record<string, unknown>[] {
    const id = `chatcmpl-${Math.random().toString(36).slice(2, 10)}`;
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
      id,
      object: 'chat.completion.chunk',
      created: 1_780_000_000,
      model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    });
    const out = [chunk({ role: 'assistant', content: '' })];
    const field = this.variant.reasoningField ?? 'reasoning_content';
    for (const piece of pieces(spec.reasoning ?? '', 10)) out.push(chunk({ [field]: piece }));
    for (const piece of pieces(spec.text ?? '', 12)) out.push(chunk({ content: piece }));
    (spec.tools ?? []).forEach((call, index) => {
      const args = JSON.stringify(call.input);
      const whole = this.variant.split === 'whole';
      const opening = { index, ...(call.id ? { id: call.id } : {}), type: 'function', function: { name: call.name, arguments: whole ? args : '' } };
      out.push(chunk({ tool_calls: [opening] }));
      if (!whole) for (const piece of pieces(args, this.variant.split ?? 'chars')) out.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    });
    out.push(chunk({}, spec.finishReason ?? (spec.tools?.length ? 'tool_calls' : 'stop')));
    return out;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      req.on('end', () => {
        const body = raw ? (JSON.parse(raw) as RecordedBody) : undefined;
        this.requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
        void this.answer(req, body, res);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  private error(res: import('node:http').ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
    const type = status === 400 ? 'BadRequestError' : status === 404 ? 'NotFoundError' : 'ServerError';
    const body = this.variant.oldErrors ? { object: 'error', message, type, param: null, code: status } : { error: { message, type, param: null, code: status } };
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  }

  private async answer(req: IncomingMessage, body: RecordedBody | undefined, res: import('node:http').ServerResponse): Promise<void> {
    const key = req.headers.authorization?.replace(/^Bearer /, '');
    if (this.variant.apiKey && key !== this.variant.apiKey) return this.error(res, 401, 'invalid API key');
    const models = this.variant.models ?? ['test-model'];
    if (req.method === 'GET' && req.url === '/v1/models') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ object: 'list', data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'vllm' })) }));
    }
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions' || !body) return this.error(res, 404, `no route ${req.url}`);
    const model = String(body.model);
    if (!models.includes(model)) return this.error(res, 404, `The model \`${model}\` does not exist.`);
    if (this.variant.tools === false && Array.isArray(body.tools) && body.tools.length > 0) return this.error(res, 400, VLLM_TOOLS_REFUSAL);
    if (this.variant.onlyCompletionTokens && body.max_tokens !== undefined) {
      return this.error(res, 400, "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.");
    }
    if (this.variant.noStreamOptions && body.stream_options !== undefined) return this.error(res, 400, 'Unknown field: stream_options');
    if (body.stream !== true) {
      // The probe: a short answer, never from the script.
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ id: 'probe', object: 'chat.completion', created: 0, model, choices: [{ index: 0, message: { role: 'assistant', content: 'OK' }, finish_reason: 'length' }], usage: { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 } }));
    }
    let answer = this.script.shift();
    while (answer?.kind === 'dynamic') answer = answer.answer(body);
    if (!answer) return this.error(res, 500, 'the script has no more answers');
    if (answer.kind === 'http-error') {
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      return void res.end(JSON.stringify(answer.body));
    }
    const spec = answer.turn;
    const chunks = this.chunks(spec, model);
    const written = [spec.reasoning ?? '', spec.text ?? '', ...(spec.tools ?? []).map((t) => t.name + JSON.stringify(t.input))].join('');
    const usage = { prompt_tokens: spec.promptTokens ?? promptTokensOf(body), completion_tokens: spec.completionTokens ?? countTokens(written) };
    const mode = this.variant.usage ?? 'include_usage';
    const asked = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
    if (mode === 'always' || (mode === 'include_usage' && asked)) {
      chunks.push({ id: 'usage', object: 'chat.completion.chunk', created: 0, model, choices: [], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const [i, chunk] of chunks.entries()) {
      if (answer.cutAfter !== undefined && i >= answer.cutAfter) {
        res.socket?.destroy();
        return;
      }
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    }
    res.end('data: [DONE]\n\n');
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}
