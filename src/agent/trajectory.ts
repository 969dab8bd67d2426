/**
 * Trajectories: every event of a rollout, one JSON object per line, appended as
 * it happens (a crash loses at most the line in flight), then the full message
 * history as a last line. Replay reads them back and emits the same events in
 * the same order, at their original pace or faster.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { NotFoundError } from '../errors.js';
import type { EventStream, RolloutEvent } from './events.js';
import type { Message, ToolDefinition } from './messages.js';

interface MessagesLine {
  type: 'messages';
  messages: Message[];
  /** The system prompt and the tools the model was given (what a fine-tuning set needs beside the messages). */
  system?: string;
  tools?: ToolDefinition[];
}

export class TrajectoryRecorder {
  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
  }

  attach(stream: EventStream): () => void {
    return stream.subscribe((event) => appendFileSync(this.path, `${JSON.stringify(event)}\n`));
  }

  writeMessages(messages: Message[], context: { system?: string; tools?: ToolDefinition[] } = {}): void {
    const line: MessagesLine = { type: 'messages', messages, ...context };
    appendFileSync(this.path, `${JSON.stringify(line)}\n`);
  }
}

export interface Trajectory {
  events: RolloutEvent[];
  messages?: Message[];
  system?: string;
  tools?: ToolDefinition[];
}

export function readTrajectory(path: string): Trajectory {
  if (!existsSync(path)) throw new NotFoundError(`no trajectory at ${path}`);
  const events: RolloutEvent[] = [];
  let messages: Message[] | undefined;
  let context: { system?: string; tools?: ToolDefinition[] } = {};
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    let value: RolloutEvent | MessagesLine;
    try {
      value = JSON.parse(line) as RolloutEvent | MessagesLine;
    } catch {
      break; // a line cut off by a crash ends the readable part
    }
    if (value.type === 'messages') {
      const line = value as MessagesLine;
      messages = line.messages;
      context = { system: line.system, tools: line.tools };
    }
    else events.push(value as RolloutEvent);
  }
  return { events, messages, ...context };
}

/** Emits the recorded events into `stream` in order; `speed` 2 plays twice as fast, Infinity at once. */
export async function replay(trajectory: Trajectory, stream: EventStream, speed = 1, signal?: AbortSignal): Promise<void> {
  const started = performance.now();
  for (const event of trajectory.events) {
    if (signal?.aborted) return;
    if (Number.isFinite(speed) && speed > 0) {
      const due = event.t / speed - (performance.now() - started);
      if (due > 1) await new Promise((resolve) => setTimeout(resolve, due));
    }
    stream.forward(event);
  }
}
