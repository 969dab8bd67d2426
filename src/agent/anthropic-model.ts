/**
 * The `anthropic` policy: the official SDK, streaming, tool use. The SDK retries
 * HTTP 429/5xx/529 answers itself; an error that arrives inside a stream
 * (overloaded, dropped connection) is retried here as a whole turn, the partial
 * message discarded. The system prompt, the tools and the conversation so far
 * are marked for prompt caching.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { lazyRequire } from '../lazy-require.js';
import { BugbenchError, errorMessage } from '../errors.js';
import type { Usage } from './events.js';
import type { ContentBlock, Message, ToolDefinition } from './messages.js';
import type { Model, ModelRequest, ModelTurn, TurnCallbacks } from './model.js';
import { costOf, priceOf, type Price } from './pricing.js';

/** The Anthropic SDK, loaded when this policy's first model is made: runs of the offline policy never load it. */
const loadSdk = lazyRequire<typeof import('@anthropic-ai/sdk')>('@anthropic-ai/sdk');
const sdk = (): typeof Anthropic => loadSdk().default;

export const DEFAULT_MODEL = 'claude-sonnet-5-5';

export class ApiKeyError extends BugbenchError {
  constructor(message: string) {
    super('BB_API_KEY', message);
  }
}

export interface AnthropicOptions {
  model?: string;
  maxTokens?: number;
  apiKey?: string;
  baseURL?: string;
  /** Retries of a turn whose stream broke off (HTTP-level retries are the SDK's). */
  turnRetries?: number;
  /** First backoff delay; doubles each retry. */
  retryDelayMs?: number;
  /** Overrides the list price (`--price-in/--price-out`). */
  price?: Price;
}

type RawEvent = Anthropic.Messages.RawMessageStreamEvent;

export class AnthropicModel implements Model {
  readonly name: string;
  private readonly client: Anthropic;
  private readonly price: Price;

  constructor(private readonly options: AnthropicOptions = {}) {
    this.name = options.model ?? DEFAULT_MODEL;
    const apiKey = options.apiKey ?? process.env.ANTHROPIC_API_KEY;
    if (!apiKey) throw new ApiKeyError('the anthropic policy needs ANTHROPIC_API_KEY; set it, or use --policy offline');
    this.client = new (sdk())({
      apiKey,
      baseURL: options.baseURL ?? process.env.ANTHROPIC_BASE_URL ?? undefined,
      maxRetries: 4,
      timeout: 10 * 60 * 1000,
    });
    this.price = options.price ?? priceOf(this.name);
  }

  /** Asks the API about the model: a missing or rejected key fails here, before any container starts. */
  async verify(): Promise<void> {
    try {
      await this.client.models.retrieve(this.name);
    } catch (error) {
      if (error instanceof sdk().AuthenticationError || error instanceof sdk().PermissionDeniedError) {
        throw new ApiKeyError(`the Anthropic API rejected ANTHROPIC_API_KEY (HTTP ${error.status}); check the key`);
      }
      if (error instanceof sdk().NotFoundError) throw new ApiKeyError(`the Anthropic API does not know the model "${this.name}"`);
      throw new ApiKeyError(`cannot reach the Anthropic API: ${errorMessage(error)}`);
    }
  }

  costOf(usage: Usage): number {
    return costOf(this.price, usage);
  }

  async query(request: ModelRequest, callbacks: TurnCallbacks, signal?: AbortSignal): Promise<ModelTurn> {
    const retries = this.options.turnRetries ?? 4;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.turn(request, callbacks, signal);
      } catch (error) {
        if (signal?.aborted || attempt >= retries || !retryable(error)) throw describe(error);
        const delayMs = (this.options.retryDelayMs ?? 1000) * 2 ** attempt;
        callbacks.onRetry?.(attempt + 1, errorMessage(error), delayMs);
        await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
    }
  }

  private async turn(request: ModelRequest, callbacks: TurnCallbacks, signal?: AbortSignal): Promise<ModelTurn> {
    const maxTokens = this.options.maxTokens ?? 8192;
    const stream = await this.client.messages.create(
      {
        model: this.name,
        max_tokens: request.gate ? request.gate.admit(maxTokens) : maxTokens,
        system: [{ type: 'text', text: request.system, cache_control: { type: 'ephemeral' } }],
        tools: cachedTools(request.tools),
        messages: cachedMessages(request.messages),
        stream: true,
      },
      { signal },
    );
    const content: ContentBlock[] = [];
    const partialJson = new Map<number, string>();
    const usage: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
    let stopReason = '';
    let received = '';
    try {
      for await (const event of stream as AsyncIterable<RawEvent>) {
        received += this.apply(event, content, partialJson, usage, callbacks);
        if (event.type === 'message_delta') stopReason = event.delta.stop_reason ?? stopReason;
      }
      if (!stopReason) throw new StreamCutError('the stream ended before the message was complete');
    } catch (error) {
      // The server began this request: what it read and wrote so far is spent.
      request.gate?.broke(received);
      throw error;
    }
    return { content: content.filter((b) => b !== undefined), usage, stopReason };
  }

  /** Applies one stream event to the turn being built; returns the text it added (for the cost of a broken turn). */
  private apply(event: RawEvent, content: ContentBlock[], partialJson: Map<number, string>, usage: Usage, callbacks: TurnCallbacks): string {
    switch (event.type) {
      case 'message_start': {
        const u = event.message.usage;
        usage.inputTokens = u.input_tokens ?? 0;
        usage.outputTokens = u.output_tokens ?? 0;
        usage.cacheReadTokens = u.cache_read_input_tokens ?? 0;
        usage.cacheWriteTokens = u.cache_creation_input_tokens ?? 0;
        return '';
      }
      case 'content_block_start': {
        const block = event.content_block;
        if (block.type === 'text') content[event.index] = { type: 'text', text: block.text ?? '' };
        else if (block.type === 'tool_use') {
          content[event.index] = { type: 'tool_use', id: block.id, name: block.name, input: {} };
          partialJson.set(event.index, '');
          callbacks.onToolStart?.(block.id, block.name);
          return block.name;
        }
        return '';
      }
      case 'content_block_delta': {
        const block = content[event.index];
        if (event.delta.type === 'text_delta' && block?.type === 'text') {
          block.text += event.delta.text;
          callbacks.onText?.(event.delta.text);
          return event.delta.text;
        }
        if (event.delta.type === 'input_json_delta' && block?.type === 'tool_use') {
          partialJson.set(event.index, (partialJson.get(event.index) ?? '') + event.delta.partial_json);
          callbacks.onToolInputDelta?.(block.id, event.delta.partial_json);
          return event.delta.partial_json;
        }
        return '';
      }
      case 'content_block_stop': {
        const block = content[event.index];
        if (block?.type === 'tool_use') {
          const json = partialJson.get(event.index) ?? '';
          try {
            block.input = json.trim() === '' ? {} : JSON.parse(json);
          } catch {
            block.input = { _unparsed: json };
          }
        }
        return '';
      }
      case 'message_delta': {
        const u = event.usage;
        if (u.output_tokens != null) usage.outputTokens = u.output_tokens;
        if (u.input_tokens != null) usage.inputTokens = u.input_tokens;
        if (u.cache_read_input_tokens != null) usage.cacheReadTokens = u.cache_read_input_tokens;
        if (u.cache_creation_input_tokens != null) usage.cacheWriteTokens = u.cache_creation_input_tokens;
        return '';
      }
      default:
        return '';
    }
  }
}

class StreamCutError extends Error {}

function cachedTools(tools: ToolDefinition[]): Anthropic.Messages.Tool[] {
  return tools.map((tool, i) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.input_schema as Anthropic.Messages.Tool.InputSchema,
    ...(i === tools.length - 1 ? { cache_control: { type: 'ephemeral' as const } } : {}),
  }));
}

/** The conversation, with its last block marked so the next turn reads the prefix from the cache. */
function cachedMessages(messages: Message[]): Anthropic.Messages.MessageParam[] {
  return messages.map((message, i) => {
    const last = i === messages.length - 1;
    if (typeof message.content === 'string') {
      if (!last) return { role: message.role, content: message.content };
      return { role: message.role, content: [{ type: 'text', text: message.content, cache_control: { type: 'ephemeral' } }] };
    }
    // Reasoning another server streamed is bugbench's record, not a block this API takes.
    const sent = message.content.filter((block) => block.type !== 'reasoning');
    const blocks = sent.map((block, j) => {
      const mark = last && j === sent.length - 1 ? { cache_control: { type: 'ephemeral' as const } } : {};
      return { ...block, ...mark };
    });
    return { role: message.role, content: blocks as Anthropic.Messages.ContentBlockParam[] };
  });
}

/** Worth another try: overloaded, rate limited, server errors, connections dropped mid-stream. */
export function retryable(error: unknown): boolean {
  if (error instanceof StreamCutError) return true;
  if (error instanceof sdk().APIConnectionError) return true;
  if (error instanceof sdk().APIError) {
    const status = error.status;
    if (status === 429 || status === 529 || (typeof status === 'number' && status >= 500)) return true;
    const type = (error.error as { error?: { type?: string } } | undefined)?.error?.type;
    return type === 'overloaded_error' || type === 'api_error' || type === 'rate_limit_error';
  }
  const code = (error as { code?: string })?.code;
  return code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || /terminated|socket hang up|ECONNRESET/i.test(errorMessage(error));
}

function describe(error: unknown): Error {
  if (error instanceof sdk().AuthenticationError) return new ApiKeyError('the Anthropic API rejected ANTHROPIC_API_KEY (HTTP 401)');
  return error instanceof Error ? error : new Error(String(error));
}
