/**
 * The solver's `submit`: the attempt's patch is the diff of the repository
 * against its one commit (new, changed and deleted files), taken by bugbench
 * from the container — not a file the agent names — and kept on the host.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseDiff } from '../bugs/diff.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { SubmitHandler } from './tools.js';

export function solverSubmitHandler(sandbox: Sandbox, patchPath: string): SubmitHandler {
  return async () => {
    const diff = await sandbox.diff();
    mkdirSync(dirname(patchPath), { recursive: true });
    writeFileSync(patchPath, diff);
    const files = diff.trim() === '' ? 0 : parseDiff(diff).length;
    return { ok: true, files: [files === 0 ? 'no change to any file' : `changes to ${files} file(s)`] };
  };
}
