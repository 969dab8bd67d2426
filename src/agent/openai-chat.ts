/**
 * bugbench's conversation (Messages-API content blocks) as chat-completions
 * messages, and a streamed chat-completions turn put back together as content
 * blocks. Pure: no network, so every way servers differ is tested here in
 * milliseconds.
 *
 * Servers differ in how they stream a turn, and the assembler takes them all:
 * tool-call arguments split over many deltas or sent whole; several calls in
 * one turn told apart by `index` (or, where a server gives every call index 0,
 * by a new `id`); calls without an id; `finish_reason` `stop` with tool calls;
 * reasoning in `reasoning_content` (vLLM, SGLang) or `reasoning`; usage in the
 * last chunk, in every chunk, or not at all.
 */
import type OpenAI from 'openai';
import type { ContentBlock, Message, ToolDefinition, ToolUseBlock } from './messages.js';
import type { TurnCallbacks } from './model.js';

type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;

export function chatTools(tools: ToolDefinition[]): OpenAI.Chat.Completions.ChatCompletionFunctionTool[] {
  return tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.input_schema } }));
}

/** A tool input as the arguments string it came from (an input that was not JSON goes back as it came). */
function argumentsOf(call: ToolUseBlock): string {
  const input = call.input as { _unparsed?: unknown } | null;
  if (input && typeof input === 'object' && Object.keys(input).length === 1 && typeof input._unparsed === 'string') return input._unparsed;
  return JSON.stringify(call.input ?? {});
}

/**
 * The conversation as chat messages: an assistant turn's tool_use blocks
 * become its `tool_calls`, each tool_result a `tool` message right after it.
 * Reasoning is not sent back (the servers' chat templates drop it, and some
 * refuse it).
 */
export function chatMessages(system: string, messages: Message[]): ChatMessage[] {
  const out: ChatMessage[] = [{ role: 'system', content: system }];
  for (const message of messages) {
    if (typeof message.content === 'string') {
      out.push({ role: message.role, content: message.content });
      continue;
    }
    if (message.role === 'assistant') {
      const text = message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
      const calls = message.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
      out.push(
        calls.length > 0
          ? { role: 'assistant', content: text || null, tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: argumentsOf(c) } })) }
          : { role: 'assistant', content: text },
      );
      continue;
    }
    // A user turn: tool results first (they must follow the calls), then any text.
    for (const block of message.content) {
      if (block.type === 'tool_result') out.push({ role: 'tool', tool_call_id: block.tool_use_id, content: block.content });
    }
    const text = message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
    if (text) out.push({ role: 'user', content: text });
  }
  return out;
}

interface PendingCall {
  id: string;
  name: string;
  args: string;
  started: boolean;
}

/** Reasoning fields servers add to a delta beside the standard ones. */
interface ReasoningDelta {
  reasoning_content?: string | null;
  reasoning?: string | null;
}

export interface AssembledTurn {
  content: ContentBlock[];
  /** The server's finish_reason; `tool_calls` whenever the turn has calls, whatever the server said. */
  finishReason: string | null;
  usage: { prompt: number; completion: number } | null;
}

/** Builds one turn from its chunks, passing text, reasoning and tool input on as they arrive. */
export class TurnAssembler {
  private text = '';
  private reasoning = '';
  private readonly calls: PendingCall[] = [];
  /** The call open at each index (a server that gives every call index 0 opens a new one by its id). */
  private readonly byIndex = new Map<number, PendingCall>();
  private finish: string | null = null;
  private usage: AssembledTurn['usage'] = null;
  /** Everything the server wrote, for the cost of a turn that broke off. */
  received = '';

  constructor(
    private readonly callbacks: TurnCallbacks,
    private readonly newId: () => string,
  ) {}

  get finished(): boolean {
    return this.finish !== null;
  }

  apply(chunk: Chunk): void {
    if (chunk.usage) this.usage = { prompt: chunk.usage.prompt_tokens ?? 0, completion: chunk.usage.completion_tokens ?? 0 };
    for (const choice of chunk.choices ?? []) {
      if ((choice.index ?? 0) !== 0) continue;
      const delta = (choice.delta ?? {}) as Chunk['choices'][number]['delta'] & ReasoningDelta;
      const thought = delta.reasoning_content ?? delta.reasoning;
      if (thought) {
        this.reasoning += thought;
        this.received += thought;
        this.callbacks.onReasoning?.(thought);
      }
      if (delta.content) {
        this.text += delta.content;
        this.received += delta.content;
        this.callbacks.onText?.(delta.content);
      }
      (delta.tool_calls ?? []).forEach((piece, position) => this.applyCall(piece, position));
      if (choice.finish_reason) this.finish = choice.finish_reason;
    }
  }

  private applyCall(piece: NonNullable<Chunk['choices'][number]['delta']['tool_calls']>[number], position: number): void {
    const index = typeof piece.index === 'number' ? piece.index : position;
    let call = this.byIndex.get(index);
    if (call && piece.id && call.id !== piece.id) {
      // A new id at an index in use is a new call, unless the open one has had nothing yet but an id of ours.
      if (!call.name && !call.args) call.id = piece.id;
      else call = undefined;
    }
    if (!call) {
      call = { id: piece.id || this.newId(), name: '', args: '', started: false };
      this.calls.push(call);
      this.byIndex.set(index, call);
    }
    // Names come whole (some servers repeat them in every delta).
    if (piece.function?.name && !call.name) call.name = piece.function.name;
    const args = piece.function?.arguments ?? '';
    call.args += args;
    this.received += (piece.function?.name ?? '') + args;
    // A call is shown once its name is known; arguments that came before it are passed on then.
    if (!call.started && call.name) {
      call.started = true;
      this.callbacks.onToolStart?.(call.id, call.name);
      if (call.args) this.callbacks.onToolInputDelta?.(call.id, call.args);
    } else if (call.started && args) this.callbacks.onToolInputDelta?.(call.id, args);
  }

  result(): AssembledTurn {
    const content: ContentBlock[] = [];
    if (this.reasoning) content.push({ type: 'reasoning', text: this.reasoning });
    if (this.text) content.push({ type: 'text', text: this.text });
    for (const call of this.calls) {
      if (!call.name) continue;
      content.push({ type: 'tool_use', id: call.id, name: call.name, input: parseArguments(call.args) });
    }
    const hasCalls = content.some((b) => b.type === 'tool_use');
    return { content, finishReason: hasCalls ? 'tool_calls' : this.finish, usage: this.usage };
  }
}

/** A call's arguments as an object; `{}` for none, and what was not JSON kept as `_unparsed` for the tool to refuse. */
export function parseArguments(args: string): unknown {
  if (args.trim() === '') return {};
  try {
    return JSON.parse(args);
  } catch {
    return { _unparsed: args };
  }
}
