/**
 * Who owns a container or volume: this process, written as labels at creation
 * and read back by the orphan reaper.
 */
import { currentProcess, processAlive } from '../process-identity.js';

export { processStartTime } from '../process-identity.js';

export const LABEL_RUN = 'bugbench.run';
export const LABEL_OWNER_PID = 'bugbench.owner-pid';
export const LABEL_OWNER_START = 'bugbench.owner-start';
export const LABEL_OWNER_HOST = 'bugbench.owner-host';

export function ownerLabels(pid: number = process.pid): Record<string, string> {
  const me = currentProcess(pid);
  return { [LABEL_OWNER_PID]: String(me.pid), [LABEL_OWNER_START]: me.start, [LABEL_OWNER_HOST]: me.host };
}

/** True when the labels name a process that still runs (or one of another host, which is not ours to judge). */
export function ownerAlive(labels: Record<string, string>): boolean {
  return processAlive({ host: labels[LABEL_OWNER_HOST], pid: Number(labels[LABEL_OWNER_PID]), start: labels[LABEL_OWNER_START] });
}

/** True when a `bugbench.run` label belongs to the work `id`: the id itself or one made from it (`<id>-check`, `<id>-feature`, …). */
export function labelBelongsTo(label: string, ids: readonly string[]): boolean {
  return ids.some((id) => label === id || label.startsWith(`${id}-`));
}
