/**
 * Writing a dataset: the bugs of one status (accepted by default) in one of
 * the formats, one JSON object a line. The file appears whole or not at all:
 * lines go to a temporary file beside it, renamed over it at the end; a
 * folder that cannot be written is found before anything is read.
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { BugbenchError, errorMessage } from '../errors.js';
import type { Progress } from '../progress.js';
import type { BugRecord, BugStatus } from '../store/records.js';
import type { Store } from '../store/store.js';
import { bugKey } from '../store/duplicates.js';
import { ExportSkip, loadMaterial } from './materials.js';
import { rlTask } from './rl.js';
import { sftLines, solvedAttempts } from './sft.js';
import { swebenchInstance } from './swebench.js';

export const EXPORT_FORMATS = ['swebench', 'sft', 'rl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export class ExportError extends BugbenchError {
  constructor(message: string) {
    super('BB_EXPORT', message);
  }
}

export interface ExportOptions {
  format: ExportFormat;
  out: string;
  /** Which bugs (default: accepted). */
  status?: BugStatus;
  progress?: Progress;
}

export interface ExportResult {
  format: ExportFormat;
  out: string;
  /** Lines written. */
  count: number;
  /** The bugs the lines come from. */
  bugIds: string[];
  skipped: { id: string; reason: string }[];
}

/** Opens a temporary file beside `out`, or says in one line why `out` cannot be written. */
function openBeside(out: string): { fd: number; temp: string } {
  const temp = join(dirname(out), `.${basename(out)}.tmp-${process.pid}`);
  try {
    return { fd: openSync(temp, 'w'), temp };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? `the folder ${dirname(out)} does not exist` : code === 'EACCES' || code === 'EROFS' ? `${dirname(out)} is not writable` : errorMessage(error);
    throw new ExportError(`cannot write ${out}: ${why}`);
  }
}

/**
 * The bugs with one of each fingerprint: a dataset never holds one bug twice,
 * even from a workspace whose duplicates were marked before the claim rule held.
 */
export function oneOfEach(bugs: BugRecord[]): { bugs: BugRecord[]; repeats: { id: string; reason: string }[] } {
  const first = new Map<string, string>();
  const kept: BugRecord[] = [];
  const repeats: { id: string; reason: string }[] = [];
  for (const bug of bugs) {
    const key = bugKey(bug);
    const holder = first.get(key);
    if (holder) repeats.push({ id: bug.id, reason: `the same bug as ${holder} (same image, base commit and fingerprint)` });
    else {
      first.set(key, bug.id);
      kept.push(bug);
    }
  }
  return { bugs: kept, repeats };
}

type LineMaker = (store: Store, bug: BugRecord) => unknown[];

const MAKERS: Record<ExportFormat, LineMaker> = {
  swebench: (store, bug) => [swebenchInstance(loadMaterial(store, bug))],
  rl: (store, bug) => [rlTask(loadMaterial(store, bug))],
  sft: (store, bug) => sftLines(store, bug),
};

export async function exportDataset(store: Store, options: ExportOptions): Promise<ExportResult> {
  const out = resolve(options.out);
  const status = options.status ?? 'accepted';
  const { bugs, repeats } = oneOfEach(store.all('bugs').filter((b) => b.status === status));
  const make = MAKERS[options.format];
  // SFT data comes from successful solver attempts only; with none there is nothing to write.
  if (options.format === 'sft' && !bugs.some((b) => solvedAttempts(store, b).length > 0)) {
    throw new ExportError(
      `none of the ${bugs.length} ${status} bug(s) has a successful solver attempt, so there is no trajectory to train on; run \`bugbench solve <bug-id>\` first (nothing was written)`,
    );
  }
  const { fd, temp } = openBeside(out);
  const result: ExportResult = { format: options.format, out, count: 0, bugIds: [], skipped: repeats };
  let buffer = '';
  try {
    for (const [i, bug] of bugs.entries()) {
      let lines: unknown[];
      try {
        lines = make(store, bug);
      } catch (error) {
        if (!(error instanceof ExportSkip)) throw error;
        result.skipped.push({ id: bug.id, reason: error.message });
        continue;
      }
      for (const line of lines) buffer += `${JSON.stringify(line)}\n`;
      result.count += lines.length;
      if (lines.length > 0) result.bugIds.push(bug.id);
      if (buffer.length > 1 << 20) {
        writeSync(fd, buffer);
        buffer = '';
      }
      if (options.progress && (i + 1) % 5000 === 0) options.progress(`${i + 1} of ${bugs.length} bugs read`);
      // Let a screen that asked for the export keep drawing.
      if ((i + 1) % 2000 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    writeSync(fd, buffer);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temp, out);
  } catch (error) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
    rmSync(temp, { force: true });
    throw error;
  }
  return result;
}
