/**
 * What an exported bug is made of, read from the store and the files of its
 * artifact: the diffs, the oracle tests, the test script and parser, the
 * FAIL_TO_PASS / PASS_TO_PASS of its latest valid check.
 */
import { readFileSync } from 'node:fs';
import { BugImageGoneError, ImageNotAdoptedError, ImageNotFoundError } from '../errors.js';
import type { BugImages } from '../bugs/bug-image.js';
import { readJsonFile } from '../json-file.js';
import { join } from 'node:path';
import { ARTIFACT_FILES, BUG_FILES, parseTestFiles } from '../bugs/artifact.js';
import { DEFAULT_CHECK_PARAMS, REPORT_STRATEGIES } from '../bugs/meta.js';
import { reverseDiff } from '../bugs/reverse-diff.js';
import { templateStatement } from '../agent/prompts.js';
import { bugFolder, checkFolder, type BugRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import type { TaskMaterial } from './task-scripts.js';

export interface BugMaterial extends TaskMaterial {
  record: BugRecord;
  /** The image's id when the bug was made. */
  imageId: string | null;
  /** The image it runs on: its tag, or the tag a rebuild kept on the image it was checked on (bugs/bug-image.ts). */
  image: string;
  /** The fix: what takes the buggy code back to the original. */
  fixPatch: string;
  /** The oracle tests: the reverse of the weakening. */
  testPatch: string;
  /** The task text: the bug report for BugPilot's strategies (when there is one), else the template around the test patch. */
  problemStatement: string;
  /** Which text the problem statement is: BugPilot's report or the template around the oracle tests. */
  statement: 'report' | 'template';
  report: string | null;
  failToPass: string[];
  passToPass: string[];
  /** Tests the checks found flaky, with their flips: in neither list. */
  flaky: { id: string; flips: number }[];
}

/** Why one bug is left out of an export (the export goes on with the others). */
export class ExportSkip extends Error {}

/**
 * Reads a bug's files; where they run comes from its image (placedMaterial).
 * Synchronous on purpose: an export reads hundreds of thousands of small
 * files, and here each async read costs more in thread hops than the read
 * itself (measured 3× slower).
 */
export function loadMaterial(store: Store, record: BugRecord): Omit<BugMaterial, 'world' | 'adopted'> {
  const checks = checkFolder(record);
  if (!record.check?.valid || !checks) throw new ExportSkip(`${record.id} has no valid check report`);
  const dir = store.abs(bugFolder(record.id));
  const file = (name: string) => readFileSync(join(dir, name), 'utf8');
  const tests = readJsonFile<{ FAIL_TO_PASS: string[]; PASS_TO_PASS: string[]; flaky?: { id: string; flips: number }[] }>(store.abs(join(checks, 'tests.json')));
  if (!tests) throw new ExportSkip(`${record.id}: the FAIL_TO_PASS / PASS_TO_PASS of its last check are missing`);
  const bugPatch = file(ARTIFACT_FILES.bugInject);
  const weakenPatch = file(ARTIFACT_FILES.testWeaken);
  // Only a higher-order bug has a parent prediction and a gold patch made in a container.
  const higher = record.order > 1;
  const predPatch = higher ? file(ARTIFACT_FILES.predPatch) : null;
  const fixPatch = higher ? file(BUG_FILES.goldPatch) : reverseDiff(bugPatch);
  const metaText = file(ARTIFACT_FILES.meta);
  const [testFiles, testScript, testParser] = [file(ARTIFACT_FILES.testFiles), file(ARTIFACT_FILES.testScript), file(ARTIFACT_FILES.testParser)];
  const testPatch = reverseDiff(weakenPatch);
  const report = record.analysis ? file(BUG_FILES.report) : null;
  const byReport = report !== null && REPORT_STRATEGIES.includes(record.strategy);
  const meta = JSON.parse(metaText) as { image?: { id?: string }; params?: { testTimeoutSec?: number } };
  return {
    record,
    imageId: meta.image?.id ?? null,
    image: record.image,
    baseCommit: record.baseCommit,
    bugPatch,
    weakenPatch,
    predPatch,
    fixPatch,
    testPatch,
    problemStatement: byReport ? report : templateStatement(testPatch),
    statement: byReport ? 'report' : 'template',
    report,
    testFiles: parseTestFiles(testFiles),
    testScript,
    testParser,
    testTimeoutSec: meta.params?.testTimeoutSec ?? DEFAULT_CHECK_PARAMS.testTimeoutSec,
    failToPass: tests.FAIL_TO_PASS,
    passToPass: tests.PASS_TO_PASS,
    flaky: (tests.flaky ?? []).map((f) => ({ id: f.id, flips: f.flips })),
  };
}

/**
 * A bug's material on the image it runs on (bugs/bug-image.ts), in that
 * image's world (its root and user: /repo and root for bugbench's images), or
 * ExportSkip when that image is gone.
 */
export async function placedMaterial(store: Store, bug: BugRecord, images: BugImages): Promise<BugMaterial> {
  const m = loadMaterial(store, bug);
  try {
    const { image } = await images.of(bug, m.imageId);
    const { world, adopted } = await images.worldOf(image);
    return { ...m, image, world, adopted };
  } catch (error) {
    if (error instanceof BugImageGoneError || error instanceof ImageNotFoundError || error instanceof ImageNotAdoptedError) throw new ExportSkip(error.message);
    throw error;
  }
}
