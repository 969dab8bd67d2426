/**
 * Who a process is, in a form that outlives it: host, pid and the pid's start
 * time (so a recycled pid is not mistaken for the original). Containers carry
 * it as labels and the store keeps it on running work, so whatever a dead
 * process left behind can be told apart from work that is still going on.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

export interface ProcessIdentity {
  host: string;
  pid: number;
  /** Start time in clock ticks since boot ('' where /proc cannot tell). */
  start: string;
}

/** Start time of a process in clock ticks since boot, or undefined if it is gone. */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses; fields after the last ')' are plain.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19]; // field 22 overall: starttime
  } catch {
    return undefined;
  }
}

export function currentProcess(pid: number = process.pid): ProcessIdentity {
  return { host: hostname(), pid, start: processStartTime(pid) ?? '' };
}

/**
 * True when the process still runs. A process of another host cannot be
 * judged from here and counts as alive: it is not ours to declare dead.
 */
export function processAlive(identity: Partial<ProcessIdentity>): boolean {
  if (identity.host !== hostname()) return true;
  const pid = Number(identity.pid);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  const start = processStartTime(pid);
  return start !== undefined && start === identity.start;
}
