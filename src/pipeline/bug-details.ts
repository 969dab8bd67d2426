/**
 * Everything about one bug, gathered from its record and the files beside it:
 * what `bugbench show` prints and what the Review screen shows.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ARTIFACT_FILES, parseTestFiles } from '../bugs/artifact.js';
import type { ReportJson } from '../bugs/check-report.js';
import { readJsonFile } from '../store/json-file.js';
import type { BugRecord, CheckRecord, ReviewRecord } from '../store/records.js';
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
  reviews: ReviewRecord[];
  checkHistory: CheckRecord[];
}

function readText(path: string): string | null {
  return existsSync(path) ? readFileSync(path, 'utf8') : null;
}

export function bugDetails(store: Store, id: string): BugDetails {
  const record = store.get('bugs', id);
  if (!record) throw new RecordNotFoundError('bugs', id);
  const dir = bugDir(store, id);
  const reportPath = record.check?.report ? store.abs(record.check.report) : undefined;
  const report = reportPath ? readJsonFile<ReportJson>(reportPath) : undefined;
  const tests = reportPath ? readJsonFile<{ FAIL_TO_PASS: string[]; PASS_TO_PASS: string[] }>(join(dirname(reportPath), 'tests.json')) : undefined;
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
    trajectory: record.trajectory ? store.abs(record.trajectory) : null,
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
    reviews: store.all('reviews').filter((r) => r.bugId === id),
    checkHistory: store.all('checks').filter((c) => c.bugId === id),
  };
}
