/**
 * One run of an artifact's tests in a container: test_script.sh with its output
 * teed to a log, then test_parser.py over that log. The log is kept as a file on
 * the host (capped); the parsed map and the parser's verdict go in the record.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OutputStream, Sandbox } from '../sandbox/sandbox.js';
import type { BugArtifact } from './artifact.js';
import { parseTestMap, ParserOutputError, type TestMap } from './test-results.js';

/** Where the artifact's scripts live in the container: outside /repo, so resets leave them alone. */
export const ARTIFACT_MOUNT = '/bugbench/artifact';
const LOG_IN_CONTAINER = '/bugbench/test.log';
const PARSER_TIMEOUT_MS = 60_000;

export interface RunRecord {
  /** What this run was for, e.g. "original", "buggy", "revert bugbench/core.py". */
  label: string;
  command: string;
  exitCode: number;
  durationMs: number;
  timedOut: boolean;
  logPath: string;
  results: TestMap;
  parser: { command: string; exitCode: number; durationMs: number; error?: string; output?: string };
}

export interface RunOptions {
  label: string;
  timeoutMs: number;
  logDir: string;
  onOutput?: (stream: OutputStream, text: string) => void;
}

export async function installArtifactScripts(sandbox: Sandbox, artifact: BugArtifact): Promise<void> {
  await sandbox.writeFiles([
    { path: `${ARTIFACT_MOUNT}/test_script.sh`, content: artifact.testScript, mode: 0o755 },
    { path: `${ARTIFACT_MOUNT}/test_parser.py`, content: artifact.testParser, mode: 0o644 },
  ]);
}

export function logFileName(label: string): string {
  return `${label.replace(/[^a-zA-Z0-9._-]+/g, '_').replace(/^_+|_+$/g, '')}.log`;
}

/** The command that runs the artifact's tests in /repo, output teed to the log the parser reads. */
export const TEST_COMMAND = `set -o pipefail; bash ${ARTIFACT_MOUNT}/test_script.sh 2>&1 | tee ${LOG_IN_CONTAINER}`;

export async function runTests(sandbox: Sandbox, options: RunOptions): Promise<RunRecord> {
  const command = TEST_COMMAND;
  const script = await sandbox.exec(command, { timeoutMs: options.timeoutMs, onOutput: options.onOutput });
  mkdirSync(options.logDir, { recursive: true });
  const logPath = join(options.logDir, logFileName(options.label));
  writeFileSync(logPath, script.stdout + script.stderr);

  const parserCommand = `python3 ${ARTIFACT_MOUNT}/test_parser.py < ${LOG_IN_CONTAINER}`;
  const parsed = await sandbox.exec(parserCommand, { timeoutMs: PARSER_TIMEOUT_MS, maxOutputBytes: 32 * 1024 * 1024 });
  let results: TestMap = {};
  let error: string | undefined;
  if (parsed.timedOut) error = `the parser did not finish within ${PARSER_TIMEOUT_MS / 1000} s`;
  else if (parsed.exitCode !== 0) {
    error = `the parser exited with ${parsed.exitCode}: ${parsed.stderr.trim().split('\n').slice(-1)[0] ?? ''}`.trim();
  } else {
    try {
      results = parseTestMap(parsed.stdout);
    } catch (e) {
      if (!(e instanceof ParserOutputError)) throw e;
      error = e.message;
    }
  }
  return {
    label: options.label,
    command,
    exitCode: script.exitCode,
    durationMs: script.durationMs,
    timedOut: script.timedOut,
    logPath,
    results,
    parser: {
      command: parserCommand,
      exitCode: parsed.exitCode,
      durationMs: parsed.durationMs,
      error,
      output: error ? (parsed.stdout + parsed.stderr).slice(0, 2000) : undefined,
    },
  };
}
