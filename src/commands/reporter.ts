/**
 * The CLI's consumer of the core's events: one line per notable event on
 * stderr (stdout stays for the command's result). With --json only what can
 * take minutes unseen is shown (image copies, lost engines), so scripts get
 * clean JSON on stdout and a person still sees why a run waits.
 */
import type { ClusterEvent, CoreEvent, Report } from '../pipeline/events.js';
import { engineEventLine } from './engine-lines.js';
import { rolloutLine, tagOf } from './rollout-lines.js';

export interface LineOptions {
  json: boolean;
  /** Show each tool call of the agents (default true). */
  toolCalls?: boolean;
  write?: (line: string) => void;
}

/** The line an event gets, or undefined when it gets none. */
export function eventLine(event: CoreEvent, options: LineOptions): string | undefined {
  if (event.type === 'engine') return engineEventLine(event.event, !options.json);
  if (options.json) return undefined;
  switch (event.type) {
    case 'run-started':
      return `run ${event.runId}`;
    case 'rollout':
      if (event.event.type === 'tool-call-finished' && options.toolCalls === false) return undefined;
      return rolloutLine(tagOf(event.rolloutId), event.event);
    case 'check':
      if (event.event.type !== 'check-finished' || event.event.result.verdict === 'skipped') return undefined;
      return `[${tagOf(event.subject)}] check ${event.event.result.name}: ${event.event.result.verdict} — ${event.event.result.reason.slice(0, 140)}`;
    case 'bug-added':
      return event.attempt ? `${event.bug.id} from ${event.attempt.id} (${event.attempt.solver}): checking…` : undefined;
    case 'bug':
      return `[${tagOf(event.bug.rollout)}] bug ${event.bug.id}: ${event.bug.status.toUpperCase()}${event.bug.failedCheck ? ` (${event.bug.failedCheck})` : ''}`;
    case 'attempt': {
      const a = event.attempt;
      return `[${tagOf(a.id)}] ${a.solver}: ${a.status === 'evaluated' ? (a.solved ? 'SOLVED' : `not solved (${a.failing.length} test(s) fail)`) : a.status}`;
    }
    case 'cluster':
      return clusterLine(event.event);
    case 'progress':
      return event.message;
    default:
      return undefined;
  }
}

function clusterLine(event: ClusterEvent): string {
  switch (event.type) {
    case 'submitted':
      return event.resumed
        ? `run ${event.runId}: job array ${event.jobId} of ${event.tasks} task(s) on Slurm for what is left`
        : `run ${event.runId}: job array ${event.jobId} of ${event.tasks} task(s) on Slurm (follow it from anywhere with \`bugbench replay ${event.runId}\`)`;
    case 'task':
      return `task ${event.task}: ${event.text}`;
    case 'cancelled':
      return event.error ? `could not cancel the array: ${event.error}` : `cancelled the job array of run ${event.runId}; waiting for its tasks to stop`;
  }
}

export function lineReporter(options: LineOptions): Report {
  const write = options.write ?? ((line: string) => void process.stderr.write(`${line}\n`));
  return (event) => {
    const line = eventLine(event, options);
    if (line !== undefined) write(line);
  };
}
