/**
 * Is a recorded process still the one we started? A pid alone can be reused;
 * the pair (pid, start time in clock ticks since boot, from /proc) cannot.
 * A zombie counts as gone.
 */
import { readFileSync } from 'node:fs';

/** Pure: the start time and state of a /proc/<pid>/stat line. */
export function parseProcStat(stat: string): { state: string; startTime: string } | null {
  const close = stat.lastIndexOf(')');
  if (close < 0) return null;
  const fields = stat.slice(close + 2).trim().split(/\s+/);
  // fields[0] is field 3 (state); field 22 (starttime) is fields[19].
  const state = fields[0];
  const startTime = fields[19];
  return state && startTime ? { state, startTime } : null;
}

/** The process's start time, or null when it is gone or a zombie. */
export function processStartTime(pid: number): string | null {
  try {
    const parsed = parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    if (!parsed || parsed.state === 'Z' || parsed.state === 'X') return null;
    return parsed.startTime;
  } catch {
    return null;
  }
}

export function isSameProcess(pid: number, startTime: string): boolean {
  return processStartTime(pid) === startTime;
}
