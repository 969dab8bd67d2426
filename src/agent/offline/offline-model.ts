/**
 * The offline policy as a Model: a scripted agent (an async generator that
 * yields actions and receives the tools' results) drives the same tools and
 * produces the same stream events as a model would — text in pieces, tool
 * inputs as partial JSON — without any network. Token counts are estimates
 * (four characters a token); it costs nothing.
 */
import type { Usage } from '../events.js';
import { toolResults, type ContentBlock, type Message } from '../messages.js';
import { NO_BUG_STOP, type Model, type ModelRequest, type ModelTurn, type TurnCallbacks } from '../model.js';

export interface ToolCall {
  name: string;
  input: Record<string, unknown>;
}

export interface Action {
  thought: string;
  calls: ToolCall[];
}

export interface Observation {
  output: string;
  isError: boolean;
}

/** Yields actions, receives the results of their calls, returns a closing remark when it stops. */
export type ScriptedAgent = AsyncGenerator<Action, string, Observation[]>;

function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

export class OfflineModel implements Model {
  private started = false;
  private done = false;
  private calls = 0;
  private closing = '';

  /** `closing: 'no-bug'`: the script's closing remark says why it found no bug (an injector), and the turn says so. */
  constructor(
    readonly name: string,
    private readonly agent: ScriptedAgent,
    private readonly options: { closing?: 'no-bug' } = {},
  ) {}

  costOf(): number {
    return 0;
  }

  async query(request: ModelRequest, callbacks: TurnCallbacks): Promise<ModelTurn> {
    const last = request.messages.at(-1) as Message;
    const observations = this.started ? toolResults(last).map((r) => ({ output: r.content, isError: r.is_error === true })) : [];
    this.started = true;
    let action: Action | undefined;
    let closing = '';
    if (!this.done) {
      const step = await this.agent.next(observations);
      if (step.done) {
        this.done = true;
        closing = this.closing = step.value;
      } else action = step.value;
    } else closing = this.closing;

    const content: ContentBlock[] = [];
    const text = action ? action.thought : closing;
    if (text) {
      content.push({ type: 'text', text });
      for (const piece of pieces(text, 48)) callbacks.onText?.(piece);
    }
    for (const call of action?.calls ?? []) {
      const id = `toolu_offline_${String(++this.calls).padStart(4, '0')}`;
      callbacks.onToolStart?.(id, call.name);
      const json = JSON.stringify(call.input);
      for (const piece of pieces(json, Math.max(16, Math.ceil(json.length / 6)))) callbacks.onToolInputDelta?.(id, piece);
      content.push({ type: 'tool_use', id, name: call.name, input: call.input });
    }
    const usage: Usage = {
      inputTokens: estimateTokens(request.system + JSON.stringify(request.messages)),
      outputTokens: estimateTokens(JSON.stringify(content)),
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      estimated: true,
    };
    const stopReason = action ? (action.calls.length > 0 ? 'tool_use' : 'end_turn') : this.options.closing === 'no-bug' ? NO_BUG_STOP : 'end_turn';
    return { content, usage, stopReason };
  }
}
