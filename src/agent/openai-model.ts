/**
 * The `openai` policy: any server that speaks OpenAI's chat completions with
 * tool calls (vLLM, SGLang, TGI, llama.cpp's server, hosted APIs), through the
 * official `openai` library. Streaming; the turn is rebuilt from its chunks by
 * openai-chat.ts. Retries are made here, visibly (the library's own are off):
 * HTTP 429 and 5xx, a connection reset and a stream cut mid-turn each send
 * the whole turn again after a backoff (or the server's retry-after), the
 * partial turn discarded. `verify()` asks the server what it serves and
 * whether it takes tools before any container starts.
 */
import { randomUUID } from 'node:crypto';
import type OpenAI from 'openai';
import { lazyRequire } from '../lazy-require.js';
import { BugbenchError, errorMessage, UsageError } from '../errors.js';
import type { Usage } from './events.js';
import type { ToolDefinition } from './messages.js';
import type { Model, ModelRequest, ModelTurn, TurnCallbacks } from './model.js';
import { chatMessages, chatTools, TurnAssembler } from './openai-chat.js';
import { resolveEndpoint, type OpenAIGiven } from './openai-endpoint.js';
import { costOf, type Price } from './pricing.js';
import { requestTokens, tokenCounter } from './tokens.js';

/** The openai library, loaded when this policy's first model is made: runs of the offline policy never load it. */
const loadSdk = lazyRequire<typeof import('openai')>('openai');
const sdk = (): typeof OpenAI => loadSdk().default;

/** The server cannot be used as configured: nothing answers, or it refused the key or the request. */
export class OpenAIServerError extends BugbenchError {
  constructor(message: string) {
    super('BB_OPENAI_SERVER', message);
  }
}

/** The server does not serve the model named (or none was named). */
export class ModelNotServedError extends BugbenchError {
  constructor(
    readonly model: string | undefined,
    readonly baseUrl: string,
    readonly served: string[],
  ) {
    const has = served.length > 0 ? `it serves ${served.map((m) => `"${m}"`).join(', ')}` : 'it lists no model';
    super(
      'BB_MODEL_NOT_SERVED',
      model
        ? `the server at ${baseUrl} does not serve the model "${model}"; ${has} (pass one with --model)`
        : `the openai policy needs a model name: pass --model NAME or set OPENAI_MODEL; the server at ${baseUrl}: ${has}`,
    );
  }
}

/** The server refuses requests with tools: an agent cannot work through it. */
export class ToolsUnsupportedError extends BugbenchError {
  constructor(baseUrl: string, said: string) {
    super(
      'BB_TOOLS_UNSUPPORTED',
      `the server at ${baseUrl} does not take tool calls (${said}); start it with tool calling on — vLLM: --enable-auto-tool-choice --tool-call-parser <your model's parser, e.g. hermes>; SGLang: --tool-call-parser <parser>; llama.cpp: --jinja`,
    );
  }
}

export interface OpenAIOptions extends OpenAIGiven {
  maxTokens?: number;
  /** Retries of a failed turn (HTTP 429/5xx, a reset connection, a stream cut off). */
  turnRetries?: number;
  /** First backoff delay; doubles each retry. */
  retryDelayMs?: number;
  env?: NodeJS.ProcessEnv;
}

export const DEFAULT_MAX_TOKENS = 8192;
/** The longest a server's retry-after is waited for. */
const MAX_RETRY_AFTER_MS = 60_000;

class StreamCutError extends Error {}

/** How servers say they take no tools: vLLM without --enable-auto-tool-choice, llama.cpp without --jinja, others in plain words. */
const TOOLS_REFUSED =
  /tool[_ -]?choice|enable-auto-tool-choice|tool[_ -]?call[_ -]?parser|requires --jinja|(tools?|tool calls?|tool calling|function calling) (is |are )?not (supported|enabled)|does(n't| not) support (tools|tool|function)/i;

/** A tool nobody calls: the probe asks whether the server takes tools at all. */
const PROBE_TOOL: ToolDefinition = { name: 'noop', description: 'Does nothing.', input_schema: { type: 'object', properties: {} } };

export class OpenAIModel implements Model {
  readonly name: string;
  readonly baseUrl: string;
  private readonly client: OpenAI;
  private readonly price: Price;
  private readonly maxTokens: number;
  /** What this server wants, learnt from its refusals: the name of the output limit, and whether it takes stream_options. */
  private limitParam: 'max_tokens' | 'max_completion_tokens' = 'max_tokens';
  private streamOptions = true;

  constructor(private readonly options: OpenAIOptions = {}) {
    const endpoint = resolveEndpoint(options, options.env);
    this.name = endpoint.model ?? '';
    this.baseUrl = endpoint.baseUrl;
    this.price = endpoint.price;
    this.maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
    this.client = new (sdk())({ apiKey: endpoint.apiKey, baseURL: endpoint.baseUrl, maxRetries: 0, timeout: 10 * 60 * 1000, fetch: tolerantFetch });
  }

  costOf(usage: Usage): number {
    return costOf(this.price, usage);
  }

  /** The server serves this model and takes tools; each failure is one line saying what to do. */
  async verify(): Promise<void> {
    let served: string[] | undefined = [];
    try {
      for await (const model of this.client.models.list()) served.push(model.id);
    } catch (error) {
      // A server without the list: the probe below finds what is wrong, if anything.
      if (error instanceof sdk().NotFoundError) served = undefined;
      else throw this.unusable(error);
    }
    if (!this.name || (served && !served.includes(this.name))) throw new ModelNotServedError(this.name || undefined, this.baseUrl, served ?? []);
    for (;;) {
      try {
        await this.client.chat.completions.create({
          model: this.name,
          messages: [{ role: 'user', content: 'Say OK.' }],
          tools: chatTools([PROBE_TOOL]),
          tool_choice: 'auto',
          ...this.limit(1),
          stream: false,
        });
        return;
      } catch (error) {
        if (this.adapt(error)) continue;
        // A busy server is the run's to wait for; anything else is a setup mistake.
        if (!retryable(error)) throw this.unusable(error);
        return;
      }
    }
  }

  private limit(tokens: number): { max_tokens: number } | { max_completion_tokens: number } {
    return this.limitParam === 'max_tokens' ? { max_tokens: tokens } : { max_completion_tokens: tokens };
  }

  /**
   * Learns from a refusal what this server wants instead (OpenAI's newer models
   * take only max_completion_tokens; some servers refuse stream_options);
   * true when the request is worth sending again at once.
   */
  private adapt(error: unknown): boolean {
    if (!(error instanceof sdk().BadRequestError)) return false;
    if (this.limitParam === 'max_tokens' && /max_completion_tokens/.test(error.message)) {
      this.limitParam = 'max_completion_tokens';
      return true;
    }
    if (this.streamOptions && /stream_options/.test(error.message)) {
      this.streamOptions = false;
      return true;
    }
    return false;
  }

  async query(request: ModelRequest, callbacks: TurnCallbacks, signal?: AbortSignal): Promise<ModelTurn> {
    if (!this.name) throw new ModelNotServedError(undefined, this.baseUrl, []);
    const retries = this.options.turnRetries ?? 5;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.turn(request, callbacks, signal);
      } catch (error) {
        if (!signal?.aborted && this.adapt(error)) {
          attempt--;
          continue;
        }
        if (signal?.aborted || attempt >= retries || !retryable(error)) throw signal?.aborted ? error : this.unusable(error);
        const delayMs = retryAfterMs(error) ?? (this.options.retryDelayMs ?? 1000) * 2 ** attempt;
        callbacks.onRetry?.(attempt + 1, errorMessage(error), delayMs);
        await pause(delayMs, signal);
      }
    }
  }

  private async turn(request: ModelRequest, callbacks: TurnCallbacks, signal?: AbortSignal): Promise<ModelTurn> {
    const maxTokens = request.gate ? request.gate.admit(this.maxTokens) : this.maxTokens;
    const stream = await this.client.chat.completions.create(
      {
        model: this.name,
        messages: chatMessages(request.system, request.messages),
        ...(request.tools.length > 0 ? { tools: chatTools(request.tools), tool_choice: 'auto' as const } : {}),
        ...this.limit(maxTokens),
        stream: true,
        ...(this.streamOptions ? { stream_options: { include_usage: true } } : {}),
      },
      { signal },
    );
    const assembler = new TurnAssembler(callbacks, () => `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`);
    try {
      for await (const chunk of stream) assembler.apply(chunk);
      // The library ends a stream quietly when it is aborted.
      if (signal?.aborted) throw new Error('cancelled');
      if (!assembler.finished) throw new StreamCutError('the stream ended before the turn was complete');
    } catch (error) {
      // The server began this request: what it read and wrote so far is spent.
      request.gate?.broke(assembler.received);
      throw error;
    }
    const turn = assembler.result();
    let usage: Usage;
    if (turn.usage) usage = { inputTokens: turn.usage.prompt, outputTokens: turn.usage.completion, cacheReadTokens: 0, cacheWriteTokens: 0 };
    else {
      // No usage from the server: counted here, the input as the budget counted it.
      const count = await tokenCounter();
      const inputTokens = request.gate?.inputTokens ?? requestTokens(request, count);
      usage = { inputTokens, outputTokens: count(assembler.received), cacheReadTokens: 0, cacheWriteTokens: 0, estimated: true };
    }
    return { content: turn.content, usage, stopReason: turn.finishReason ?? 'stop' };
  }

  /** A failure as the error a person can act on (unchanged when it has nothing to add). */
  private unusable(error: unknown): Error {
    if (error instanceof BugbenchError) return error;
    if (error instanceof sdk().APIConnectionError) {
      const cause = errorMessage((error as { cause?: unknown }).cause ?? error);
      return new OpenAIServerError(`nothing answers at ${this.baseUrl} (${cause}); start the server, or fix --base-url / OPENAI_BASE_URL`);
    }
    if (error instanceof sdk().AuthenticationError || error instanceof sdk().PermissionDeniedError) {
      return new OpenAIServerError(`the server at ${this.baseUrl} refused the key (HTTP ${error.status}); set OPENAI_API_KEY to a key it takes`);
    }
    if (error instanceof sdk().APIError && error.status !== undefined && error.status >= 400 && error.status < 500) {
      const said = error.message.replace(/^\d+ /, '');
      if (TOOLS_REFUSED.test(said)) return new ToolsUnsupportedError(this.baseUrl, `HTTP ${error.status}: ${said}`);
      if (error.status === 404 && /model/i.test(said)) return new ModelNotServedError(this.name, this.baseUrl, []);
      return new OpenAIServerError(`the server at ${this.baseUrl} refused the request (HTTP ${error.status}: ${said})`);
    }
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** Worth another try: rate limited, server errors, errors inside a stream, connections reset or cut. */
export function retryable(error: unknown): boolean {
  if (error instanceof StreamCutError) return true;
  if (error instanceof BugbenchError || error instanceof sdk().APIUserAbortError) return false;
  if (error instanceof sdk().APIConnectionError) return true;
  if (error instanceof sdk().APIError) {
    const status = error.status;
    // No status: an error the server sent inside the stream.
    if (status === undefined) return true;
    return status === 408 || status === 409 || status === 429 || status >= 500;
  }
  const code = (error as { code?: string; cause?: { code?: string } })?.cause?.code ?? (error as { code?: string })?.code;
  return code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || /terminated|socket hang up|ECONNRESET|other side closed/i.test(errorMessage(error));
}

/** The wait a server asked for (`retry-after-ms`, `retry-after` in seconds), within reason. */
function retryAfterMs(error: unknown): number | undefined {
  if (!(error instanceof sdk().APIError) || !error.headers) return undefined;
  const ms = Number(error.headers.get('retry-after-ms'));
  const seconds = Number(error.headers.get('retry-after'));
  const wait = ms > 0 ? ms : seconds > 0 ? seconds * 1000 : undefined;
  return wait === undefined ? undefined : Math.min(wait, MAX_RETRY_AFTER_MS);
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * Some servers (older vLLM) answer an error with `{"message": …}` at the top
 * level, which the library does not read; it is wrapped as `{"error": {…}}`
 * so the server's words reach the user.
 */
const tolerantFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const response = await fetch(input, init);
  if (response.ok) return response;
  const text = await response.text();
  let body = text;
  try {
    const parsed = JSON.parse(text) as Record<string, unknown> | null;
    if (parsed && typeof parsed === 'object' && !('error' in parsed) && typeof parsed.message === 'string') body = JSON.stringify({ error: parsed });
  } catch {
    // not JSON: the library shows the text as it is
  }
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  headers.delete('content-encoding');
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
};
