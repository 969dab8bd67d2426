/**
 * Checking a bug of the workspace and keeping the verdict: the nine checks
 * run on its artifact, their report (logs beside it, paths relative to the
 * workspace) is written under `bugs/<id>/checks/<time>/`, and the bug's record
 * gets the summary and the status it implies — `cancelled` when the checks
 * were interrupted, `duplicate` when an earlier bug is the same.
 */
import { join, relative } from 'node:path';
import { loadArtifact } from '../bugs/artifact.js';
import { ORIGINAL_CACHE_DIR } from '../bugs/original-cache.js';
import { reportJson } from '../bugs/check-report.js';
import type { CheckReport } from '../bugs/check-types.js';
import { CheckSession } from '../bugs/consistency.js';
import { DEFAULT_CHECK_PARAMS, type CheckParams } from '../bugs/meta.js';
import { currentProcess } from '../process-identity.js';
import { writeJsonAtomic } from '../atomic.js';
import { statusOf, summariseReport } from '../store/check-summary.js';
import { duplicateRoot } from '../store/duplicates.js';
import type { BugRecord, BugStatus } from '../store/records.js';
import { RecordNotFoundError, type Store } from '../store/store.js';
import { ignore, type Deps, type Report } from './events.js';

/** What to check and how: plain data. */
export interface StoredCheckSettings {
  bugId: string;
  params?: Partial<CheckParams>;
  /** Containers the checks may use (default 2). */
  parallelism?: number;
  parallelTests?: boolean;
  freshContainerPerRun?: boolean;
  /** Run every check even after one fails. */
  all?: boolean;
  runId?: string;
}

export interface StoredCheck {
  report: CheckReport;
  bug: BugRecord;
  /** Where the report and the logs are (absolute). */
  logDir: string;
}

/** Statuses a fresh verdict replaces; a review or a duplicate mark stays. */
const VERDICT_STATUSES: readonly BugStatus[] = ['checking', 'valid', 'invalid', 'cancelled'];

export function bugDir(store: Store, id: string): string {
  return store.abs(join('bugs', id));
}

export function checkLogDir(store: Store, id: string): string {
  return join(bugDir(store, id), 'checks', new Date().toISOString().replace(/[:.]/g, '-'));
}

/** A check session on a stored bug that a caller steps (the TUI) or runs through; `finish` records the verdict. */
export interface StoredCheckSession {
  session: CheckSession;
  logDir: string;
  /** Removes the containers and records what the session judged (cancelled if it did not get through). */
  finish(): Promise<StoredCheck>;
}

/** Opens the checks of a stored bug for a caller to step (the workbench) or run through; deps.engine is the engine (default: the default engine). */
export function openStoredCheck(settings: StoredCheckSettings, deps: Deps, report: Report = ignore): StoredCheckSession {
  const { store } = deps;
  const { bugId: id, ...options } = settings;
  const found = store.get('bugs', id);
  if (!found) throw new RecordNotFoundError('bugs', id);
  const artifact = loadArtifact(bugDir(store, id));
  const params = { ...DEFAULT_CHECK_PARAMS, ...artifact.meta?.params, ...options.params };
  const logDir = checkLogDir(store, id);
  store.transact((tx) => {
    const bug = tx.get('bugs', id)!;
    const status = VERDICT_STATUSES.includes(bug.status) ? 'checking' : bug.status;
    tx.patch('bugs', id, { status, checkingBy: currentProcess(), updatedAt: new Date().toISOString() });
  });
  const session = new CheckSession({
    artifact,
    image: found.image,
    baseCommit: found.baseCommit,
    params,
    logDir,
    parallelism: options.parallelism ?? 2,
    parallelTests: options.parallelTests,
    freshContainerPerRun: options.freshContainerPerRun,
    all: options.all,
    runId: options.runId,
    engine: deps.engine,
    originalCache: store.abs(ORIGINAL_CACHE_DIR),
    signal: deps.signal,
    onEvent: (event) => report({ type: 'check', subject: id, event }),
  });
  // Removing the containers ends the runs under way; what they were for is judged cancelled.
  const onAbort = () => void session.close();
  deps.signal?.addEventListener('abort', onAbort, { once: true });
  let finished: Promise<StoredCheck> | undefined;
  const finish = () =>
    (finished ??= (async () => {
      deps.signal?.removeEventListener('abort', onAbort);
      await session.close();
      const report = await session.report().catch(() => ({ valid: false, cancelled: true, checks: session.results, FAIL_TO_PASS: [], PASS_TO_PASS: [] }));
      // Checks left unstepped leave the bug without a verdict.
      if (!session.done && !report.checks.some((c) => c.verdict === 'fail')) report.cancelled = true;
      return { report, bug: recordVerdict(store, id, report, logDir), logDir };
    })());
  return { session, logDir, finish };
}

/** Runs all the checks of a stored bug and records the verdict. */
export async function checkStoredBug(settings: StoredCheckSettings, deps: Deps, report: Report = ignore): Promise<StoredCheck> {
  const stored = openStoredCheck(settings, deps, report);
  try {
    await stored.session.runAll();
  } catch (error) {
    if (!deps.signal?.aborted) {
      await stored.finish();
      throw error;
    }
  }
  return stored.finish();
}

/** Writes a finished (or cancelled) report beside its logs and gives the bug the status it implies. */
export function recordVerdict(store: Store, id: string, report: CheckReport, logDir: string): BugRecord {
  const at = new Date().toISOString();
  const reportPath = join(logDir, 'report.json');
  writeJsonAtomic(reportPath, reportJson(report, (p) => store.rel(p)));
  writeJsonAtomic(join(logDir, 'tests.json'), { FAIL_TO_PASS: report.FAIL_TO_PASS, PASS_TO_PASS: report.PASS_TO_PASS, flaky: report.flaky ?? [] });
  const summary = summariseReport(report, at, relative(bugDir(store, id), logDir));
  return store.transact((tx) => {
    const bug = tx.get('bugs', id)!;
    let status = bug.status;
    let duplicateOf = bug.duplicateOf;
    // Checks stopped before a verdict (a session left half-stepped, a cancelled run) leave the verdict the bug had.
    const kept = summary.cancelled && bug.check !== null && !bug.check.cancelled;
    const check = kept ? bug.check! : summary;
    if (VERDICT_STATUSES.includes(status)) status = statusOf(check);
    // An accepted bug that no longer holds up loses its acceptance; the review stays on record.
    else if (status === 'accepted' && !summary.valid && !summary.cancelled) status = 'invalid';
    if (status === 'valid') {
      const root = duplicateRoot(store.all('bugs'), bug);
      if (root) [status, duplicateOf] = ['duplicate', root];
    }
    return tx.patch('bugs', id, { status, duplicateOf, check, checkingBy: null, updatedAt: at });
  });
}
