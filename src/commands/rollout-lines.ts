/** One line per notable rollout event, for the CLI's progress and for replay in a terminal. */
import { describeToolInput, oneLine } from '../agent/describe.js';
import { describeWhere, type RolloutEvent, type RolloutWhere } from '../agent/events.js';
export { tagOf } from '../store/records.js';

function whereText(where: RolloutWhere | undefined): string {
  const text = describeWhere(where);
  return text ? ` [${text}]` : '';
}

/** Dollars when the model has a price; tokens alone when it costs nothing (a self-hosted model at the default price 0). */
function spendText(event: Extract<RolloutEvent, { type: 'finished' }>): string {
  if (event.costUsd > 0 || event.tokens === undefined) return `$${event.costUsd.toFixed(4)}, `;
  return `${event.tokens} tokens${event.estimatedTokens ? ' (estimated)' : ''}, `;
}

/**
 * Why a rollout ended, whole: its first line as one line, and any further
 * lines (the end of a log it quotes) below it, as they came.
 */
function detailText(detail: string): string {
  const [first = '', ...rest] = detail.split('\n');
  const more = rest.filter((l) => l.trim() !== '');
  return [oneLine(first, 2000), ...more].join('\n');
}

export function rolloutLine(tag: string, event: RolloutEvent): string | undefined {
  switch (event.type) {
    case 'rollout-started':
      return `[${tag}] started ${event.role} (${event.strategy}, ${event.model}) on ${event.image}${whereText(event.where)}`;
    case 'tool-call-finished': {
      const what = oneLine(describeToolInput(event.name, event.input), 90);
      const status = event.isError ? 'error' : event.exitCode !== undefined ? `exit ${event.exitCode}` : 'ok';
      return `[${tag}] step ${event.step} ${event.name} ${what} → ${status} (${(event.durationMs / 1000).toFixed(1)} s)`;
    }
    case 'retry':
      return `[${tag}] step ${event.step}: retry ${event.attempt} in ${(event.delayMs / 1000).toFixed(1)} s (${oneLine(event.reason, 80)})`;
    case 'error':
      return `[${tag}] error: ${oneLine(event.message, 160)}`;
    case 'finished':
      return `[${tag}] finished: ${event.reason} after ${event.steps} step(s), ${spendText(event)}${(event.durationMs / 1000).toFixed(1)} s${event.detail ? ` — ${detailText(event.detail)}` : ''}`;
    default:
      return undefined;
  }
}
