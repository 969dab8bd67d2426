/**
 * Everything about one bug, gathered from its record and the files beside it:
 * what `bugbench show` prints and what the Review screen shows.
 */
import type { FlakyTest } from '../bugs/evidence.js';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACT_FILES, BUG_FILES, parseTestFiles } from '../bugs/artifact.js';
import type { ReportJson } from '../bugs/check-report.js';
import { readJsonFile } from '../json-file.js';
import { checkFolder, trajectoryOf, type AttemptRecord, type BugRecord, type ReviewRecord } from '../store/records.js';
import { RecordNotFoundError, type Store } from '../store/store.js';
import { bugDir } from './bug-checks.js';

export interface BugDetails {
  record: BugRecord;
  artifactDir: string;
  trajectory: string | null;
  meta: Record<string, unknown> | null;
  testFiles: string[];
  diffs: { bugInject: string; testWeaken: string; predPatch: string | null };
  /** The latest check report's checks (with runs and log paths made absolute). */
  checks: ReportJson['checks'] | null;
  FAIL_TO_PASS: string[];
  PASS_TO_PASS: string[];
  /** Tests the last check found flaky (in neither list), with their flips. */
  flaky: FlakyTest[];
  reviews: ReviewRecord[];
  /** The bug report (report.md), if the bug has been analysed. */
  report: string | null;
  /** Every solver attempt on the bug, oldest first. */
  attempts: AttemptRecord[];
  /** Every check of the bug, oldest first: its folder and verdict. */
  checkHistory: { dir: string; valid: boolean; cancelled: boolean; failedCheck: string | null }[];
}

/** The check folders of a bug (`checks/<time>/report.json`), oldest first. */
function checkHistory(dir: string): BugDetails['checkHistory'] {
  const checks = join(dir, 'checks');
  if (!existsSync(checks)) return [];
  return readdirSync(checks)
    .sort()
    .flatMap((name) => {
      const report = readJsonFile<ReportJson>(join(checks, name, 'report.json'));
      if (!report?.checks) return [];
      const failed = report.checks.find((c) => c.verdict === 'fail');
      return [{ dir: join('checks', name), valid: report.valid, cancelled: report.cancelled === true, failedCheck: failed?.name ?? null }];
    });
}

function readText(path: string): string | null {
  return existsSync(path) ? readFileSync(path, 'utf8') : null;
}

export function bugDetails(store: Store, id: string): BugDetails {
  const record = store.get('bugs', id);
  if (!record) throw new RecordNotFoundError('bugs', id);
  const dir = bugDir(store, id);
  const folder = checkFolder(record);
  const report = folder ? readJsonFile<ReportJson>(store.abs(join(folder, 'report.json'))) : undefined;
  const tests = folder ? readJsonFile<{ FAIL_TO_PASS: string[]; PASS_TO_PASS: string[]; flaky?: FlakyTest[] }>(store.abs(join(folder, 'tests.json'))) : undefined;
  const trajectory = trajectoryOf(record);
  const checks = report?.checks.map((c) => ({ ...c, runs: c.runs.map((r) => ({ ...r, logPath: store.abs(r.logPath) })) })) ?? null;
  const testFilesText = readText(join(dir, ARTIFACT_FILES.testFiles));
  let testFiles: string[] = [];
  try {
    testFiles = testFilesText ? parseTestFiles(testFilesText) : [];
  } catch {
    // shown as none; the checks say what is wrong with it
  }
  return {
    record,
    artifactDir: dir,
    trajectory: trajectory ? store.abs(trajectory) : null,
    meta: readJsonFile<Record<string, unknown>>(join(dir, ARTIFACT_FILES.meta)) ?? null,
    testFiles,
    diffs: {
      bugInject: readText(join(dir, ARTIFACT_FILES.bugInject)) ?? '',
      testWeaken: readText(join(dir, ARTIFACT_FILES.testWeaken)) ?? '',
      predPatch: readText(join(dir, ARTIFACT_FILES.predPatch)),
    },
    checks,
    FAIL_TO_PASS: tests?.FAIL_TO_PASS ?? [],
    PASS_TO_PASS: tests?.PASS_TO_PASS ?? [],
    flaky: tests?.flaky ?? [],
    reviews: store.all('reviews').filter((r) => r.bugId === id),
    checkHistory: checkHistory(dir),
    report: readText(join(dir, BUG_FILES.report)),
    attempts: store.all('attempts').filter((a) => a.bugId === id),
  };
}
