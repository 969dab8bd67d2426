/**
 * Who owns a container: this process, named by its pid and its start time (so a
 * recycled pid is not mistaken for the owner). Written as labels at creation and
 * read back by the orphan reaper.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

export const LABEL_RUN = 'bugbench.run';
export const LABEL_OWNER_PID = 'bugbench.owner-pid';
export const LABEL_OWNER_START = 'bugbench.owner-start';
export const LABEL_OWNER_HOST = 'bugbench.owner-host';

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

export function ownerLabels(pid: number = process.pid): Record<string, string> {
  return {
    [LABEL_OWNER_PID]: String(pid),
    [LABEL_OWNER_START]: processStartTime(pid) ?? '',
    [LABEL_OWNER_HOST]: hostname(),
  };
}

/** True when the labels name a process on this host that is still the same process. */
export function ownerAlive(labels: Record<string, string>): boolean {
  if (labels[LABEL_OWNER_HOST] !== hostname()) return true; // another machine's; not ours to judge
  const pid = Number(labels[LABEL_OWNER_PID]);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  const start = processStartTime(pid);
  return start !== undefined && start === labels[LABEL_OWNER_START];
}
