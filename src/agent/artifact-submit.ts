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
    const contents: [string, Buffer][] = [];
    for (const [field, name] of Object.entries(FIELDS)) {
      const path = input[field];
      if (typeof path !== 'string' || path === '') return { ok: false, error: `"${field}" must be the path of ${name}` };
      try {
        // Each file stops at the artifact limit: a bigger one, a folder or a device is refused unread.
        contents.push([name, await sandbox.readFile(path, { maxBytes: MAX_FILE_BYTES })]);
      } catch (error) {
        return { ok: false, error: `cannot read ${field} at ${path}: ${errorMessage(error)}` };
      }
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
