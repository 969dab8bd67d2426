/**
 * Writing an export that is a folder, whole or not at all: everything goes
 * into a staging folder beside the target, which takes the target's place at
 * the end. A folder that is already there is replaced only when it is empty or
 * an earlier bugbench export (it holds the manifest), never a folder of the
 * user's, nor a link or a device (out-target.ts); and what cannot be written
 * is found before any work is done.
 */
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { ExportError } from './export-error.js';
import { EXPORT_MANIFEST, folderRefusal, unwritableParent } from './out-target.js';

export { EXPORT_MANIFEST } from './out-target.js';

function makeStaging(out: string): string {
  const staging = join(dirname(out), `.${basename(out)}.tmp-${process.pid}-${randomUUID().slice(0, 8)}`);
  try {
    mkdirSync(staging);
    return staging;
  } catch (error) {
    throw unwritableParent(out, error);
  }
}

/** Puts `staging` in the place of `out`, moving an earlier export aside first and removing it once the new one stands. */
function swapIn(staging: string, out: string): void {
  if (!existsSync(out)) {
    renameSync(staging, out);
    return;
  }
  const old = join(dirname(out), `.${basename(out)}.old-${process.pid}-${randomUUID().slice(0, 8)}`);
  renameSync(out, old);
  try {
    renameSync(staging, out);
  } catch (error) {
    renameSync(old, out);
    throw error;
  }
  rmSync(old, { recursive: true, force: true });
}

/**
 * Fills a staging folder with `fill`, writes the manifest it returns, and
 * puts the folder at `out` (an earlier export of another `format` there is
 * refused first), unless `keep` says the result is not worth it. On any
 * failure, or when it is not kept, `out` is left as it was.
 */
export async function writeFolderAtomically<T extends { manifest: Record<string, unknown> }>(
  out: string,
  fill: (staging: string) => Promise<T>,
  format?: string,
  keep: (result: T) => boolean = () => true,
): Promise<T & { kept: boolean }> {
  const refusal = folderRefusal(out, format);
  if (refusal) throw new ExportError(`cannot write ${out}: ${refusal}`);
  const staging = makeStaging(out);
  try {
    const result = await fill(staging);
    if (!keep(result)) {
      rmSync(staging, { recursive: true, force: true });
      return { ...result, kept: false };
    }
    writeFileSync(join(staging, EXPORT_MANIFEST), `${JSON.stringify(result.manifest, null, 2)}\n`);
    swapIn(staging, out);
    return { ...result, kept: true };
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
}
