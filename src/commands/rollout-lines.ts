/** One line per notable rollout event, for the CLI's progress and for replay in a terminal. */
import type { RolloutEvent } from '../agent/events.js';

function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function describeInput(name: string, input: unknown): string {
  const args = (input ?? {}) as Record<string, unknown>;
  if (name === 'bash') return String(args.command ?? '');
  if (name === 'editor') return `${String(args.command ?? '')} ${String(args.path ?? '')}`;
  if (name === 'submit') return Object.values(args).map(String).join(' ');
  return JSON.stringify(input);
}

export function rolloutLine(tag: string, event: RolloutEvent): string | undefined {
  switch (event.type) {
    case 'rollout-started':
      return `[${tag}] started ${event.role} (${event.strategy}, ${event.model}) on ${event.image}`;
    case 'tool-call-finished': {
      const what = shorten(describeInput(event.name, event.input), 90);
      const status = event.isError ? 'error' : event.exitCode !== undefined ? `exit ${event.exitCode}` : 'ok';
      return `[${tag}] step ${event.step} ${event.name} ${what} → ${status} (${(event.durationMs / 1000).toFixed(1)} s)`;
    }
    case 'retry':
      return `[${tag}] step ${event.step}: retry ${event.attempt} in ${(event.delayMs / 1000).toFixed(1)} s (${shorten(event.reason, 80)})`;
    case 'error':
      return `[${tag}] error: ${shorten(event.message, 160)}`;
    case 'finished':
      return `[${tag}] finished: ${event.reason} after ${event.steps} step(s), $${event.costUsd.toFixed(4)}, ${(event.durationMs / 1000).toFixed(1)} s${event.detail ? ` — ${shorten(event.detail, 120)}` : ''}`;
    default:
      return undefined;
  }
}
