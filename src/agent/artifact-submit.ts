/**
 * The injector's `submit`: copy the five files the agent names out of its
 * container into a staging folder and make sure they form a loadable artifact.
 * A problem goes back to the agent as an error so it can fix it and submit again.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACT_FILES, loadArtifact, MAX_FILE_BYTES } from '../bugs/artifact.js';
import { errorMessage } from '../errors.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { SubmitHandler } from './tools.js';

const FIELDS = {
  test_files: ARTIFACT_FILES.testFiles,
  test_script: ARTIFACT_FILES.testScript,
  test_parser: ARTIFACT_FILES.testParser,
  bug_inject: ARTIFACT_FILES.bugInject,
  test_weaken: ARTIFACT_FILES.testWeaken,
} as const;

export function artifactSubmitHandler(sandbox: Sandbox, stagingDir: string): SubmitHandler {
  return async (input) => {
    const fields = Object.entries(FIELDS);
    const paths: string[] = [];
    for (const [field, name] of fields) {
      const path = input[field];
      if (typeof path !== 'string' || path === '') return { ok: false, error: `"${field}" must be the path of ${name}` };
      paths.push(path);
    }
    // One exec reads the five; each file stops at the artifact limit: a bigger one, a folder or a device is refused unread.
    let read: (Buffer | Error)[];
    try {
      read = await sandbox.readFiles(paths, { maxBytes: MAX_FILE_BYTES });
    } catch (error) {
      return { ok: false, error: `cannot read the artifact's files: ${errorMessage(error)}` };
    }
    const contents: [string, Buffer][] = [];
    for (const [i, [field, name]] of fields.entries()) {
      const file = read[i]!;
      if (file instanceof Error) return { ok: false, error: `cannot read ${field} at ${paths[i]}: ${errorMessage(file)}` };
      contents.push([name, file]);
    }
    rmSync(stagingDir, { recursive: true, force: true });
    mkdirSync(stagingDir, { recursive: true });
    for (const [name, content] of contents) writeFileSync(join(stagingDir, name), content);
    try {
      const artifact = loadArtifact(stagingDir);
      if (artifact.bugChanges.length === 0) return { ok: false, error: `${ARTIFACT_FILES.bugInject} is empty: there is no bug` };
    } catch (error) {
      return { ok: false, error: errorMessage(error) };
    }
    return { ok: true, files: contents.map(([name]) => name) };
  };
}
