/** What the agent loop needs of a policy: one turn of the conversation at a time. */
import type { Usage } from './events.js';
import type { ContentBlock, Message, ToolDefinition } from './messages.js';

export interface ModelRequest {
  system: string;
  messages: Message[];
  tools: ToolDefinition[];
  /**
   * The turn's admission to its spending limits: a model asks it for the
   * max_tokens of each request it sends (retries included) and tells it of a
   * request that broke off. Absent: nothing limits the turn.
   */
  gate?: TurnGate;
}

/** What a model asks of a turn's spending limits (budget.ts's SpendGate is the one there is). */
export interface TurnGate {
  /** The request's input, counted with the margin. */
  readonly inputTokens: number;
  /** The max_tokens of the next request (at most `wanted`); throws BudgetExhaustedError when it does not fit. */
  admit(wanted: number): number;
  /** A request the server began and then lost: its input and the output that arrived are spent. */
  broke(received: string): void;
}

export interface ModelTurn {
  /** Reasoning, text and tool_use blocks, in the order the model produced them. */
  content: ContentBlock[];
  usage: Usage;
  /** The API's word for why the turn ended; NO_BUG_STOP: the agent stops, having found no bug (its text says why). */
  stopReason: string;
}

export const NO_BUG_STOP = 'no_bug';

export interface TurnCallbacks {
  onText?: (text: string) => void;
  /** Reasoning text a server streams apart from the answer (vLLM's and SGLang's `reasoning_content`). */
  onReasoning?: (text: string) => void;
  onToolStart?: (callId: string, name: string) => void;
  /** Raw partial JSON of a tool's input as it streams (unfinished strings included). */
  onToolInputDelta?: (callId: string, partialJson: string) => void;
  onRetry?: (attempt: number, reason: string, delayMs: number) => void;
}

export interface Model {
  /** e.g. "claude-sonnet-5-5" or "offline/removal". */
  readonly name: string;
  query(request: ModelRequest, callbacks: TurnCallbacks, signal?: AbortSignal): Promise<ModelTurn>;
  /** Dollars for this much usage. */
  costOf(usage: Usage): number;
}
