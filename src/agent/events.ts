/**
 * Everything that happens in a rollout, as one typed stream. It is the only
 * source for the CLI's progress, the recorded trajectory and the TUI.
 */

export type Role = 'injector' | 'solver';
/**
 * How a rollout ended. `no-bug`: the agent looked and found nothing to submit,
 * and said why (the offline injector after its tries) — a normal outcome, not
 * an error.
 */
export type FinishReason = 'submitted' | 'no-bug' | 'max-steps' | 'budget' | 'error' | 'cancelled';

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** The server reported no usage: bugbench counted the tokens itself (o200k_base, input with a margin). */
  estimated?: boolean;
}

/** Where a rollout runs: its Docker engine, and on a cluster the array task and node. */
export interface RolloutWhere {
  engine?: string;
  task?: number;
  node?: string;
}

/** "task 1, node n1, engine e2" (empty when nothing is known). */
export function describeWhere(where: RolloutWhere | undefined): string {
  if (!where) return '';
  const parts = [where.task !== undefined ? `task ${where.task}` : '', where.node ? `node ${where.node}` : '', where.engine ? `engine ${where.engine}` : ''];
  return parts.filter(Boolean).join(', ');
}

export type RolloutEventBody =
  | {
      type: 'rollout-started';
      rolloutId: string;
      runId: string;
      role: Role;
      strategy: string;
      policy: string;
      model: string;
      image: string;
      where?: RolloutWhere;
    }
  | { type: 'step-started'; step: number }
  /** `reasoning`: text the server streamed as the model's reasoning, apart from its answer. */
  | { type: 'text-delta'; step: number; text: string; reasoning?: boolean }
  | { type: 'tool-call-started'; step: number; callId: string; name: string }
  | { type: 'tool-input-delta'; step: number; callId: string; partialJson: string }
  | {
      type: 'tool-call-finished';
      step: number;
      callId: string;
      name: string;
      input: unknown;
      output: string;
      isError: boolean;
      exitCode?: number;
      durationMs: number;
    }
  | { type: 'step-usage'; step: number; usage: Usage; costUsd: number; totalCostUsd: number }
  | { type: 'retry'; step: number; attempt: number; reason: string; delayMs: number }
  | { type: 'submitted'; step: number; files: string[] }
  | { type: 'error'; message: string }
  | {
      type: 'finished';
      reason: FinishReason;
      steps: number;
      costUsd: number;
      durationMs: number;
      detail?: string;
      /** Input and output tokens of all turns; `estimatedTokens` when some were counted by bugbench. */
      tokens?: number;
      estimatedTokens?: boolean;
    };

/** An event as recorded: its body plus its place in the stream and its time since the rollout began. */
export type RolloutEvent = RolloutEventBody & { seq: number; t: number };

export type Listener = (event: RolloutEvent) => void;

/**
 * A rollout's event stream: numbers and timestamps events and hands each to
 * every subscriber, in order. Subscribers are called synchronously; a throwing
 * subscriber is removed and the others go on.
 */
export class EventStream {
  private listeners: Listener[] = [];
  private seq = 0;
  private readonly started = performance.now();

  subscribe(listener: Listener): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  emit(body: RolloutEventBody): RolloutEvent {
    const event = { ...body, seq: this.seq++, t: Math.round(performance.now() - this.started) } as RolloutEvent;
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        this.listeners = this.listeners.filter((l) => l !== listener);
      }
    }
    return event;
  }

  /** Re-emits an already numbered event unchanged (replay). */
  forward(event: RolloutEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
