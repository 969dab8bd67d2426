/**
 * What an exported bug is made of, read from the store and the files of its
 * artifact: the diffs, the oracle tests, the test script and parser, the
 * FAIL_TO_PASS / PASS_TO_PASS of its latest valid check.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ARTIFACT_FILES, parseTestFiles } from '../../bugs/artifact.js';
import { DEFAULT_CHECK_PARAMS } from '../../bugs/meta.js';
import { reverseDiff } from '../../bugs/reverse-diff.js';
import { templateStatement } from '../../agent/prompts.js';
import { readJsonFile } from '../../store/json-file.js';
import type { BugRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import type { TaskMaterial } from './task-scripts.js';

/** The gold patch of a higher-order bug, made in a container when the bug is (composition of diffs needs git). */
export const GOLD_PATCH_FILE = 'gold_patch.diff';

export interface BugMaterial extends TaskMaterial {
  record: BugRecord;
  /** The fix: what takes the buggy code back to the original. */
  fixPatch: string;
  /** The oracle tests: the reverse of the weakening. */
  testPatch: string;
  problemStatement: string;
  failToPass: string[];
  passToPass: string[];
}

export class ExportSkip extends Error {}

function read(dir: string, name: string): string {
  return readFileSync(join(dir, name), 'utf8');
}

export function loadMaterial(store: Store, record: BugRecord): BugMaterial {
  if (!record.check?.valid || !record.check.report) throw new ExportSkip(`${record.id} has no valid check report`);
  const dir = store.abs(join('bugs', record.id));
  const tests = readJsonFile<{ FAIL_TO_PASS: string[]; PASS_TO_PASS: string[] }>(join(dirname(store.abs(record.check.report)), 'tests.json'));
  if (!tests) throw new ExportSkip(`${record.id}: the FAIL_TO_PASS / PASS_TO_PASS of its last check are missing`);
  const bugPatch = read(dir, ARTIFACT_FILES.bugInject);
  const weakenPatch = read(dir, ARTIFACT_FILES.testWeaken);
  const predPatch = existsSync(join(dir, ARTIFACT_FILES.predPatch)) ? read(dir, ARTIFACT_FILES.predPatch) : null;
  const gold = join(dir, GOLD_PATCH_FILE);
  const fixPatch = existsSync(gold) ? readFileSync(gold, 'utf8') : reverseDiff(bugPatch);
  const testPatch = reverseDiff(weakenPatch);
  const meta = readJsonFile<{ params?: { testTimeoutSec?: number } }>(join(dir, ARTIFACT_FILES.meta));
  return {
    record,
    baseCommit: record.baseCommit,
    bugPatch,
    weakenPatch,
    predPatch,
    fixPatch,
    testPatch,
    problemStatement: templateStatement(testPatch),
    testFiles: parseTestFiles(read(dir, ARTIFACT_FILES.testFiles)),
    testScript: read(dir, ARTIFACT_FILES.testScript),
    testParser: read(dir, ARTIFACT_FILES.testParser),
    testTimeoutSec: meta?.params?.testTimeoutSec ?? DEFAULT_CHECK_PARAMS.testTimeoutSec,
    failToPass: tests.FAIL_TO_PASS,
    passToPass: tests.PASS_TO_PASS,
  };
}
