/**
 * Following a run from the workspace alone: its trajectories are the event
 * stream. New lines of every rollout's trajectory are read as they are
 * appended (by this process, another one, or a cluster task on another node)
 * and handed on in order per rollout, until the caller says the run is over.
 */
import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RolloutEvent } from '../agent/events.js';
import type { Deps, Report } from './events.js';

export interface FollowSettings {
  runId: string;
  /** How often the trajectories are read again (default 500 ms). */
  intervalMs?: number;
}

/** The follow's deps: the store, the signal, and what says the run is over (asked after each pass; one last pass follows). */
export type FollowDeps = Pick<Deps, 'store' | 'signal'> & { until: () => Promise<boolean> | boolean };

/** Reports every new event of the run's trajectories as `rollout` events until `until` says the run is over. */
export async function followRun(settings: FollowSettings, deps: FollowDeps, report: Report): Promise<void> {
  const { runId } = settings;
  const dir = deps.store.abs(join('runs', runId));
  // Per file: its inode (a retried rollout's trajectory is a new file under the old name) and how far it was read.
  const offsets = new Map<string, { ino: number; offset: number }>();
  const pass = () => {
    if (!existsSync(dir)) return;
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.jsonl') && !f.includes('.try-'))
      .sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
    for (const file of files) {
      const path = join(dir, file);
      const { size, ino } = statSync(path);
      const known = offsets.get(file);
      // A retried rollout's trajectory starts again in a new file (its earlier try was moved aside).
      const offset = known && known.ino === ino && known.offset <= size ? known.offset : 0;
      if (size === offset) continue;
      const buffer = Buffer.alloc(size - offset);
      const fd = openSync(path, 'r');
      try {
        readSync(fd, buffer, 0, buffer.length, offset);
      } finally {
        closeSync(fd);
      }
      const text = buffer.toString('utf8');
      const end = text.lastIndexOf('\n');
      if (end < 0) continue;
      offsets.set(file, { ino, offset: offset + Buffer.byteLength(text.slice(0, end + 1)) });
      const rolloutId = file.replace(/\.jsonl$/, '');
      for (const line of text.slice(0, end).split('\n')) {
        if (!line.trim()) continue;
        let event: RolloutEvent | { type: 'messages' };
        try {
          event = JSON.parse(line) as RolloutEvent | { type: 'messages' };
        } catch {
          continue; // the cut-off last line of a process killed mid-append
        }
        if (event.type !== 'messages') report({ type: 'rollout', rolloutId, event: event as RolloutEvent });
      }
    }
  };
  for (;;) {
    pass();
    if (deps.signal?.aborted || (await deps.until())) break;
    await new Promise((resolve) => setTimeout(resolve, settings.intervalMs ?? 500));
  }
  pass();
}
