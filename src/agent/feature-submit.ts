/**
 * FeatAdd's `submit`: the agent hands in how it ran the tests (test_files.txt,
 * test_script.sh, test_parser.py) — it writes no diff. bugbench takes its
 * change from the container against the base commit, keeps the code files
 * (tests the agent wrote for its feature are not part of a bug), and stages
 * an artifact whose weakening bugbench writes later, if the feature broke
 * something.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACT_FILES, loadArtifact, parseTestFiles } from '../bugs/artifact.js';
import { formatDiffFiles, parseDiffFiles } from '../bugs/diff.js';
import { errorMessage } from '../errors.js';
import { shellQuote, type Sandbox } from '../sandbox/sandbox.js';
import { isTestInfrastructure } from '../bugs/test-infrastructure.js';
import type { ToolDefinition } from './messages.js';
import type { SubmitHandler } from './tools.js';

export const FEATURE_SUBMIT: ToolDefinition = {
  name: 'submit',
  description:
    'Submit your feature. Give the paths, inside the container, of the three files that say how you ran the tests; your changes to the repository are taken from it as they are.',
  input_schema: {
    type: 'object',
    properties: {
      test_files: { type: 'string', description: 'Path of test_files.txt (the test files you ran, one per line, relative to the repo root).' },
      test_script: { type: 'string', description: 'Path of test_script.sh (runs those tests from the repo root, one result line per test).' },
      test_parser: { type: 'string', description: 'Path of test_parser.py (reads the log on stdin, prints {test id: "passed"|"failed"} JSON).' },
    },
    required: ['test_files', 'test_script', 'test_parser'],
  },
};

/** The changes to code files only: what a feature's bug can be made of. */
export function codeChanges(diff: string, testFiles: string[]): string {
  const tests = new Set(testFiles);
  return formatDiffFiles(parseDiffFiles(diff).filter((f) => ![f.oldPath, f.newPath].some((p) => p !== undefined && (tests.has(p) || isTestInfrastructure(p)))));
}

export function featureSubmitHandler(sandbox: Sandbox, stagingDir: string, baseCommit: string): SubmitHandler {
  return async (input) => {
    const files: [string, Buffer][] = [];
    for (const [field, name] of [
      ['test_files', ARTIFACT_FILES.testFiles],
      ['test_script', ARTIFACT_FILES.testScript],
      ['test_parser', ARTIFACT_FILES.testParser],
    ] as const) {
      const path = input[field];
      if (typeof path !== 'string' || path === '') return { ok: false, error: `"${field}" must be the path of ${name}` };
      try {
        files.push([name, await sandbox.readFile(path)]);
      } catch (error) {
        return { ok: false, error: `cannot read ${field} at ${path}: ${errorMessage(error)}` };
      }
    }
    let testFiles: string[];
    try {
      testFiles = parseTestFiles(files[0]![1].toString('utf8'));
    } catch (error) {
      return { ok: false, error: errorMessage(error) };
    }
    const changed = await sandbox.run(`git add -A && git diff --cached --binary ${shellQuote(baseCommit)}; rc=$?; git reset -q; exit $rc`, {
      timeoutMs: 60_000,
      maxOutputBytes: 16 * 1024 * 1024,
    });
    const code = codeChanges(changed.stdout, testFiles);
    if (code.trim() === '') return { ok: false, error: 'your changes touch no code file (only tests or nothing): there is no feature yet' };
    rmSync(stagingDir, { recursive: true, force: true });
    mkdirSync(stagingDir, { recursive: true });
    for (const [name, content] of files) writeFileSync(join(stagingDir, name), content);
    writeFileSync(join(stagingDir, ARTIFACT_FILES.bugInject), code);
    writeFileSync(join(stagingDir, ARTIFACT_FILES.testWeaken), '');
    try {
      loadArtifact(stagingDir);
    } catch (error) {
      return { ok: false, error: errorMessage(error) };
    }
    return { ok: true, files: [...files.map(([name]) => name), `your change to ${parseDiffFiles(code).length} code file(s)`] };
  };
}
