/**
 * Writing a dataset: the bugs of one status (accepted by default) in one of
 * the formats. `swebench`, `sft` and `rl` are one JSON object a line, to a
 * file or to standard output; `harbor` and `trajectories` are folders. Either
 * appears whole or not at all: a file is written beside its place and renamed
 * over it at the end, a folder is filled beside its place and moved there
 * (out-target.ts, atomic-folder.ts); a place that cannot be written, or that
 * is a device, a link or a folder where a file goes, is found before anything
 * is read.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ContainerEngine } from '../sandbox/port.js';
import { sameImageName } from '../sandbox/image-names.js';
import type { Progress } from '../progress.js';
import type { BugRecord, BugStatus } from '../store/records.js';
import type { Store } from '../store/store.js';
import { bugKey } from '../store/duplicates.js';
import { EXPORT_MANIFEST, writeFolderAtomically } from './atomic-folder.js';
import { ExportError } from './export-error.js';
import { writeHarborTasks } from './harbor/export.js';
import { BugImages } from '../bugs/bug-image.js';
import { defaultContainerEngine } from '../sandbox/engine-table.js';
import { ExportSkip, placedMaterial } from './materials.js';
import { isStdout, openOutFile } from './out-target.js';
import { rlTask } from './rl.js';
import { SCRIPTED_LEFT_OUT, sftAttempts, sftLines } from './sft.js';
import { swebenchInstance } from './swebench.js';
import { writeTrajectories } from './trajectories/export.js';

export { ExportError } from './export-error.js';

import { FOLDER_FORMATS, type ExportFormat } from './formats.js';

export { EXPORT_FORMATS, FOLDER_FORMATS, type ExportFormat } from './formats.js';

export interface ExportOptions {
  format: ExportFormat;
  out: string;
  /** Which bugs (default: accepted). */
  status?: BugStatus;
  /** Only the bugs of this image tag (default: every image). */
  image?: string;
  progress?: Progress;
  /** sft: take the scripted offline solvers' trajectories too. */
  includeScripted?: boolean;
  /** trajectories: this one rollout only. */
  rollout?: string;
  /** harbor: the Docker engine that has the repo images (default: the configured one). */
  engine?: ContainerEngine;
  /** Where `out` "-" (or /dev/stdout) writes (default: process.stdout). */
  stdout?: NodeJS.WritableStream;
  /** When nothing would be exported, write nothing: a file or folder already at `out` stays as it was. */
  keepOutWhenEmpty?: boolean;
  /** harbor: stops the export between bugs (a CancelledError), its container removed and `out` left as it was. */
  signal?: AbortSignal;
}

export interface ExportResult {
  format: ExportFormat;
  out: string;
  /** Lines written (JSONL formats), task folders (harbor) or trajectory files (trajectories). */
  count: number;
  /** The bugs the lines come from. */
  bugIds: string[];
  skipped: { id: string; reason: string }[];
  /** What was left out on purpose, how much, and why. */
  leftOut: { count: number; reason: string }[];
  /** Anything else the reader of the dataset should know. */
  notes: string[];
  /** False when nothing was exported and `keepOutWhenEmpty` left `out` as it was. */
  written: boolean;
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

/** Why a bug gives the SFT export no line: nothing solved it yet. */
export const UNSOLVED_LEFT_OUT = 'bug(s) with no successful solver attempt yet (`bugbench solve <bug-id>` makes some)';

/** Counts `count` more left out of the export for `reason`. */
function leaveOut(result: ExportResult, reason: string, count: number): void {
  const entry = result.leftOut.find((l) => l.reason === reason);
  if (entry) entry.count += count;
  else result.leftOut.push({ count, reason });
}

type LineMaker = (store: Store, bug: BugRecord) => Promise<unknown[]> | unknown[];

function lineMaker(options: ExportOptions, result: ExportResult, images: BugImages): LineMaker {
  switch (options.format) {
    case 'swebench':
      return async (store, bug) => [swebenchInstance(await placedMaterial(store, bug, images))];
    case 'rl':
      return async (store, bug) => [rlTask(await placedMaterial(store, bug, images))];
    default:
      return (store, bug) => {
        const { taken, scripted } = sftAttempts(store, bug, options.includeScripted === true);
        if (scripted > 0) leaveOut(result, SCRIPTED_LEFT_OUT, scripted);
        if (taken.length === 0 && scripted === 0) leaveOut(result, UNSOLVED_LEFT_OUT, 1);
        return sftLines(store, bug, taken);
      };
  }
}

/** SFT data comes from successful solver attempts only; with none there is nothing to write. */
function checkSftSource(store: Store, bugs: BugRecord[], status: BugStatus, includeScripted: boolean): void {
  // No bug: an empty file, as for the other formats (the command says which bugs could fill it).
  if (bugs.length === 0) return;
  const counts = bugs.map((b) => sftAttempts(store, b, includeScripted));
  if (counts.some((c) => c.taken.length > 0)) return;
  const scripted = counts.reduce((sum, c) => sum + c.scripted, 0);
  const why =
    scripted > 0
      ? `their ${scripted} successful trajectory(ies) all come from the scripted offline solvers, which are left out (\`--include-scripted\` on \`bugbench export\` or \`bugbench queue submit\` takes them)`
      : 'there is no trajectory to train on; run `bugbench solve <bug-id>` first';
  throw new ExportError(`none of the ${bugs.length} ${status} bug(s) has a successful solver attempt to learn from: ${why} (nothing was written)`);
}

async function exportLines(store: Store, bugs: BugRecord[], options: ExportOptions, result: ExportResult): Promise<void> {
  const images = new BugImages(options.engine ?? defaultContainerEngine(), true);
  const make = lineMaker(options, result, images);
  const file = openOutFile(options.out, options.stdout);
  result.out = file.where;
  let buffer = '';
  try {
    for (const [i, bug] of bugs.entries()) {
      let lines: unknown[];
      try {
        lines = await make(store, bug);
      } catch (error) {
        if (!(error instanceof ExportSkip)) throw error;
        result.skipped.push({ id: bug.id, reason: error.message });
        continue;
      }
      for (const line of lines) buffer += `${JSON.stringify(line)}\n`;
      result.count += lines.length;
      if (lines.length > 0) result.bugIds.push(bug.id);
      if (buffer.length > 1 << 20) {
        await file.write(buffer);
        buffer = '';
      }
      if (options.progress && (i + 1) % 5000 === 0) options.progress(`${i + 1} of ${bugs.length} bugs read`);
      // Let a screen that asked for the export keep drawing.
      if ((i + 1) % 2000 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await file.write(buffer);
    if (result.count === 0 && options.keepOutWhenEmpty && !isStdout(options.out)) {
      file.abandon();
      result.written = false;
      return;
    }
    file.commit();
    if (images.unanswered) result.notes.push(`the engine did not answer (${images.unanswered}), so bugs keep their image tags even where a rebuild moved them`);
  } catch (error) {
    file.abandon();
    throw error;
  }
}

export async function exportDataset(store: Store, options: ExportOptions): Promise<ExportResult> {
  const out = isStdout(options.out) ? options.out : resolve(options.out);
  const status = options.status ?? 'accepted';
  const chosen = store.all('bugs').filter((b) => b.status === status && (options.image === undefined || sameImageName(b.image, options.image)));
  const { bugs, repeats } = oneOfEach(chosen);
  const result: ExportResult = { format: options.format, out, count: 0, bugIds: [], skipped: repeats, leftOut: [], notes: [], written: true };
  if (options.format === 'sft') {
    checkSftSource(store, bugs, status, options.includeScripted === true);
    if (!options.includeScripted) result.leftOut.push({ count: 0, reason: SCRIPTED_LEFT_OUT });
  }
  if (!FOLDER_FORMATS.includes(options.format)) {
    await exportLines(store, bugs, options, result);
    result.leftOut = result.leftOut.filter((l) => l.count > 0);
    return result;
  }
  // An earlier export there is replaced whole (writeFolderAtomically refuses any other folder): say so.
  const earlier = existsSync(join(out, EXPORT_MANIFEST));
  const written = await writeFolderAtomically(out, async (staging) =>
    options.format === 'harbor'
      ? writeHarborTasks(store, bugs, staging, { engine: options.engine, progress: options.progress, signal: options.signal })
      : writeTrajectories(store, { bugIds: new Set(chosen.map((b) => b.id)), rollout: options.rollout }, staging),
    options.format,
    (filled) => filled.count > 0 || !options.keepOutWhenEmpty,
  );
  if (earlier && written.kept) result.notes.push(`replaced the earlier ${options.format} export in ${out} (anything added to that folder since is gone with it)`);
  return { ...result, count: written.count, bugIds: written.bugIds, skipped: [...repeats, ...written.skipped], written: written.kept };
}
