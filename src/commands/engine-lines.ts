/** One line per notable event of a run's engines, for the CLI (stderr). */
import type { RunEngineEvent } from '../pipeline/run-engines.js';
import { describeImageCopy } from '../sandbox/docker-api/image-copy.js';

/** `verbose` adds where each piece of work was placed. */
export function engineEventLine(event: RunEngineEvent, verbose: boolean): string | undefined {
  switch (event.type) {
    case 'image-present':
      return undefined;
    case 'image-copy-started':
    case 'image-copy-progress':
    case 'image-copy-finished':
      return describeImageCopy(event);
    case 'engine-skipped':
      return `engine ${event.engine} is not used: ${event.detail}`;
    case 'engine-down':
      return `engine ${event.engine} is down (${event.detail})${event.lost.length > 0 ? `; trying again elsewhere: ${event.lost.join(', ')}` : ''}`;
    case 'engine-back':
      return `engine ${event.engine} is back${event.reaped > 0 ? `; removed ${event.reaped} container(s) of the work it lost` : ''}`;
    case 'engine-refused':
      return `engine ${event.engine} could not make a container for ${event.work}; trying again in ${(event.retryInMs / 1000).toFixed(0)} s`;
    case 'engine-broken':
      // With no engine left, the run's error says why; said here only while the run goes on elsewhere.
      return `engine ${event.engine} is left out of this run${event.left > 0 ? `: ${event.detail}` : ''}`;
    case 'placed':
      return verbose && event.attempt > 1 ? `${event.work}: try ${event.attempt} on engine ${event.engine}` : undefined;
  }
}
