/**
 * Loading a bug artifact folder (SPEC §3) and refusing a bad one before anything
 * runs: missing files, diffs that do not parse, paths that are absolute or leave
 * the repository, files over the size limit. Scripts are read as text only; they
 * run inside containers, never here.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ArtifactError } from '../errors.js';
import { DiffParseError, parseDiff, touchedPaths, unsafePathReason, type FileChange } from './diff.js';
import { parseMeta, type BugMeta } from './meta.js';

export const ARTIFACT_FILES = {
  testFiles: 'test_files.txt',
  testScript: 'test_script.sh',
  testParser: 'test_parser.py',
  bugInject: 'bug_inject.diff',
  testWeaken: 'test_weaken.diff',
  predPatch: 'pred_patch.diff',
  meta: 'meta.json',
} as const;

/** Files bugbench adds beside a bug's artifact. */
export const BUG_FILES = {
  /** A higher-order bug's fix, made in a container (composing diffs needs git). */
  goldPatch: 'gold_patch.diff',
  /** The bug report (BugPilot), written by a model or by bugbench's template. */
  report: 'report.md',
} as const;

export const MAX_FILE_BYTES = 10 * 1024 * 1024;

export interface BugArtifact {
  dir: string;
  testFiles: string[];
  testScript: string;
  testParser: string;
  bugInject: string;
  testWeaken: string;
  predPatch?: string;
  meta?: BugMeta;
  bugChanges: FileChange[];
  weakenChanges: FileChange[];
  predChanges: FileChange[];
}

function readArtifactFile(dir: string, name: string, required: boolean): string | undefined {
  const path = join(dir, name);
  if (!existsSync(path)) {
    if (required) throw new ArtifactError(name, 'missing from the artifact folder');
    return undefined;
  }
  const stat = statSync(path);
  if (!stat.isFile()) throw new ArtifactError(name, 'is not a regular file');
  if (stat.size > MAX_FILE_BYTES) {
    throw new ArtifactError(name, `is ${stat.size} bytes; the limit is ${MAX_FILE_BYTES}`);
  }
  return readFileSync(path, 'utf8');
}

function parseArtifactDiff(name: string, text: string): FileChange[] {
  let changes: FileChange[];
  try {
    changes = parseDiff(text);
  } catch (error) {
    if (error instanceof DiffParseError) throw new ArtifactError(name, `does not parse as a git diff: ${error.message}`);
    throw error;
  }
  for (const path of touchedPaths(changes)) {
    const reason = unsafePathReason(path);
    if (reason) throw new ArtifactError(name, `refused: ${reason}`);
  }
  return changes;
}

export function parseTestFiles(text: string): string[] {
  const lines = text.split('\n').map((l) => l.trim().replace(/^\.\//, ''));
  const files = [...new Set(lines.filter((l) => l !== '' && !l.startsWith('#')))];
  for (const file of files) {
    const reason = unsafePathReason(file);
    if (reason) throw new ArtifactError(ARTIFACT_FILES.testFiles, `refused: ${reason}`);
  }
  if (files.length === 0) throw new ArtifactError(ARTIFACT_FILES.testFiles, 'lists no test file');
  return files;
}

export function loadArtifact(folder: string): BugArtifact {
  const dir = resolve(folder);
  if (!existsSync(dir)) throw new ArtifactError(folder, `does not exist; give a bug's artifact folder (it holds ${ARTIFACT_FILES.testFiles}, ${ARTIFACT_FILES.testScript}, ${ARTIFACT_FILES.testParser}, ${ARTIFACT_FILES.bugInject} and ${ARTIFACT_FILES.testWeaken})`);
  if (!statSync(dir).isDirectory()) throw new ArtifactError(folder, 'is a file, not an artifact folder');
  const read = (name: string) => readArtifactFile(dir, name, true)!;
  const testFiles = parseTestFiles(read(ARTIFACT_FILES.testFiles));
  const testScript = read(ARTIFACT_FILES.testScript);
  const testParser = read(ARTIFACT_FILES.testParser);
  const bugInject = read(ARTIFACT_FILES.bugInject);
  const testWeaken = read(ARTIFACT_FILES.testWeaken);
  const predPatch = readArtifactFile(dir, ARTIFACT_FILES.predPatch, false);
  const metaText = readArtifactFile(dir, ARTIFACT_FILES.meta, false);
  let meta: BugMeta | undefined;
  if (metaText !== undefined) {
    try {
      meta = parseMeta(metaText);
    } catch (error) {
      throw new ArtifactError(ARTIFACT_FILES.meta, (error as Error).message);
    }
  }
  return {
    dir,
    testFiles,
    testScript,
    testParser,
    bugInject,
    testWeaken,
    predPatch,
    meta,
    bugChanges: parseArtifactDiff(ARTIFACT_FILES.bugInject, bugInject),
    weakenChanges: parseArtifactDiff(ARTIFACT_FILES.testWeaken, testWeaken),
    predChanges: predPatch === undefined ? [] : parseArtifactDiff(ARTIFACT_FILES.predPatch, predPatch),
  };
}
