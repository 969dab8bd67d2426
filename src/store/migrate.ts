/**
 * Opening a workspace written before the store existed (plain folders:
 * `bugs/<id>/` with meta.json and checks.json, `runs/<id>/run.json`): every
 * bug and run becomes a record, absolute paths in the files become paths
 * relative to the workspace, and nothing is removed.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { bugFingerprint } from '../bugs/fingerprint.js';
import { writeJsonAtomic } from '../atomic.js';
import { statusOf, summariseReport, type ReportShape } from './check-summary.js';
import { duplicateRoot } from './duplicates.js';
import { readJsonFile } from '../json-file.js';
import type { BugRecord, RolloutRecord, RolloutStatus, RunRecord } from './records.js';

type Collections = Record<string, (Record<string, unknown> & { id: string })[]>;

/** A path written by an older bugbench, relative to the workspace even if the workspace moved since. */
export function relativeToWorkspace(root: string, path: string): string {
  const inside = relative(root, resolve(path));
  if (!inside.startsWith('..')) return inside;
  // Moved since: the part after the default workspace folder, else after the first top-level folder of a workspace.
  const named = path.lastIndexOf('/.bugbench/');
  if (named >= 0) return path.slice(named + '/.bugbench/'.length);
  const at = ['/runs/', '/bugs/', '/checks/'].map((folder) => path.indexOf(folder)).filter((i) => i >= 0);
  return at.length > 0 ? path.slice(Math.min(...at) + 1) : path;
}

function folders(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
    .map((e) => e.name)
    .sort();
}

interface OldRolloutSummary {
  rollout: string;
  reason: string;
  steps: number;
  costUsd: number;
  durationMs: number;
  trajectory: string;
  bugId: string | null;
  detail?: string;
}

interface OldRun {
  runId: string;
  status: string;
  startedAt: string;
  finishedAt?: string;
  options: Record<string, unknown> & { image?: string; strategy?: string; policy?: string; model?: string; n?: number };
  rollouts?: OldRolloutSummary[];
}

function migrateRuns(root: string, out: Collections): void {
  for (const id of folders(join(root, 'runs'))) {
    const run = readJsonFile<OldRun>(join(root, 'runs', id, 'run.json'));
    if (!run) continue;
    const status = run.status === 'running' ? 'interrupted' : run.status === 'cancelled' ? 'cancelled' : 'finished';
    const record: RunRecord = {
      id: run.runId,
      kind: 'inject',
      status,
      image: String(run.options.image ?? ''),
      strategy: String(run.options.strategy ?? ''),
      policy: String(run.options.policy ?? ''),
      model: String(run.options.model ?? ''),
      n: Number(run.options.n ?? run.rollouts?.length ?? 0),
      options: run.options,
      owner: { host: '', pid: 0, start: '' },
      startedAt: run.startedAt,
      finishedAt: run.finishedAt ?? null,
      error: null,
    };
    out.runs!.push(record as unknown as Collections[string][number]);
    for (let index = 0; index < record.n; index++) {
      const rolloutId = `${record.id}-r${index + 1}`;
      const done = run.rollouts?.find((r) => r.rollout === rolloutId);
      const rollout: RolloutRecord = {
        id: rolloutId,
        runId: record.id,
        role: 'injector',
        index,
        status: done ? (done.reason as RolloutStatus) : status === 'finished' ? 'cancelled' : 'interrupted',
        steps: done?.steps ?? 0,
        costUsd: done?.costUsd ?? 0,
        tokens: 0,
        durationMs: done?.durationMs ?? 0,
        trajectory: done ? relativeToWorkspace(root, done.trajectory) : join('runs', record.id, `${rolloutId}.jsonl`),
        bugId: done?.bugId ?? null,
        detail: done?.detail ?? null,
        startedAt: null,
        finishedAt: null,
      };
      out.rollouts!.push(rollout as unknown as Collections[string][number]);
    }
  }
}

interface OldMeta {
  image: { tag: string; id?: string } | string;
  baseCommit?: string;
  strategy?: string;
  policy?: string;
  model?: string;
  order?: number;
  parentId?: string | null;
  createdAt?: string;
  runId?: string;
  rollout?: string;
  trajectory?: string;
}

type OldReport = ReportShape & { checks: (ReportShape['checks'][number] & { runs?: { logPath?: string }[] })[] };

function migrateBug(root: string, id: string): BugRecord | undefined {
  const dir = join(root, 'bugs', id);
  const metaPath = join(dir, 'meta.json');
  const meta = readJsonFile<OldMeta>(metaPath);
  if (!meta || !existsSync(join(dir, 'bug_inject.diff'))) return undefined;
  const image = typeof meta.image === 'string' ? { tag: meta.image } : meta.image;
  const trajectory = meta.trajectory ? relativeToWorkspace(root, meta.trajectory) : null;
  if (trajectory !== meta.trajectory) writeJsonAtomic(metaPath, { ...meta, trajectory });

  // checks.json becomes the report of a check folder, as the store lays them out.
  const oldReport = join(dir, 'checks.json');
  const report = readJsonFile<OldReport>(oldReport);
  let check = null;
  if (report && Array.isArray(report.checks)) {
    for (const c of report.checks) for (const run of c.runs ?? []) if (run.logPath) run.logPath = relativeToWorkspace(root, run.logPath);
    const at = statSync(oldReport).mtime.toISOString();
    const folder = join(dir, 'checks', 'migrated');
    writeJsonAtomic(join(folder, 'report.json'), report);
    writeJsonAtomic(join(folder, 'tests.json'), { FAIL_TO_PASS: report.FAIL_TO_PASS ?? [], PASS_TO_PASS: report.PASS_TO_PASS ?? [] });
    rmSync(oldReport);
    check = summariseReport(report, at, relative(dir, folder));
  }
  const strategy = meta.strategy ?? 'handwritten';
  const createdAt = meta.createdAt ?? new Date().toISOString();
  return {
    id,
    status: check ? statusOf(check) : 'cancelled',
    image: image.tag,
    repo: id.includes(`-${strategy}-`) ? id.slice(0, id.indexOf(`-${strategy}-`)) : image.tag.replace(/^.*repo-|:.*$/g, ''),
    baseCommit: meta.baseCommit ?? '',
    strategy,
    policy: meta.policy ?? '',
    model: meta.model ?? '',
    order: meta.order ?? 1,
    parentId: meta.parentId ?? null,
    attemptId: null,
    runId: meta.runId ?? null,
    rollout: meta.rollout ?? null,
    createdAt,
    updatedAt: createdAt,
    fingerprint: bugFingerprint(readFileSync(join(dir, 'bug_inject.diff'), 'utf8')),
    duplicateOf: null,
    checkingBy: null,
    check,
    review: null,
  };
}

/** The collections of a workspace of plain folders (empty for a new workspace). */
export function migrateFolders(root: string): Collections {
  const out: Collections = { bugs: [], runs: [], rollouts: [], images: [], reviews: [] };
  migrateRuns(root, out);
  const bugs = folders(join(root, 'bugs'))
    .map((id) => migrateBug(root, id))
    .filter((b): b is BugRecord => b !== undefined)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const kept: BugRecord[] = [];
  for (const bug of bugs) {
    const first = bug.status === 'valid' ? duplicateRoot(kept, bug) : undefined;
    if (first) Object.assign(bug, { status: 'duplicate', duplicateOf: first });
    kept.push(bug);
    out.bugs!.push(bug as unknown as Collections[string][number]);
  }
  return out;
}
