/**
 * A workspace for screen tests: a real store in a folder of its own, with runs,
 * rollouts, bugs (and the files beside them) written as records, and the core
 * over it set up and healthy without asking Docker.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RolloutEventBody } from '../../src/agent/events.js';
import type { DoctorReport } from '../../src/pipeline/doctor.js';
import { workbenchCore, type WorkbenchCore } from '../../src/pipeline/workbench-core.js';
import type { BugRecord, RolloutRecord, RunRecord } from '../../src/store/records.js';
import { Store } from '../../src/store/store.js';
import { bugRecord, VALID_CHECK } from './records.js';

export const IMAGE = 'bugbench/repo-ratekit:latest';

/** A doctor's report of a machine where everything is up, for cores that must not ask Docker. */
export const HEALTHY: DoctorReport = {
  engine: { ok: true, version: 'test', host: 'test' },
  engines: [],
  baseImage: { ok: true, tag: 'test' },
  sampleImages: [],
  anthropicKey: false,
  cluster: { ok: false, detail: 'not asked' },
};

/** An ISO time `minute` minutes into the first day of 2026. */
export const at = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;

export function workspace(): Store {
  return Store.open({ root: mkdtempSync(join(tmpdir(), 'bugbench-screens-')) });
}

/** A run of `n` rollouts (`-r1`… for an injection, `-a1`… for a solve run), each changed by `rollout(i)`. */
export function putRun(store: Store, run: Partial<RunRecord> & { id: string; kind: RunRecord['kind']; n: number }, minute: number, rollout: (i: number) => Partial<RolloutRecord> = () => ({})): void {
  store.transact((tx) => {
    tx.put('runs', {
      status: 'finished',
      image: IMAGE,
      strategy: 'removal',
      policy: 'offline',
      model: 'offline/removal',
      options: {},
      owner: { host: 'h', pid: 1, start: '1' },
      startedAt: at(minute),
      finishedAt: at(minute + 1),
      error: null,
      ...run,
    });
    for (let i = 0; i < run.n; i++) {
      const id = `${run.id}-${run.kind === 'solve' ? 'a' : 'r'}${i + 1}`;
      tx.put('rollouts', {
        id,
        runId: run.id,
        role: run.kind === 'solve' ? 'solver' : 'injector',
        index: i,
        status: 'submitted',
        steps: 5,
        costUsd: 0,
        tokens: 0,
        durationMs: 1000,
        trajectory: join('runs', run.id, `${id}.jsonl`),
        bugId: null,
        detail: null,
        startedAt: at(minute),
        finishedAt: at(minute + 1),
        ...rollout(i),
      });
    }
  });
}

/** A bug record (valid unless `fields` say otherwise) and, from `files`, the files of its folder (`bug_inject.diff`, `checks/x/report.json`, …). */
export function putBug(store: Store, id: string, fields: Partial<BugRecord> = {}, files: Record<string, string> = {}): void {
  store.transact((tx) => tx.put('bugs', bugRecord(id, { image: IMAGE, repo: 'ratekit', check: { ...VALID_CHECK, at: at(0) }, ...fields })));
  for (const [name, text] of Object.entries(files)) {
    const path = store.abs(join('bugs', id, name));
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
  }
}

/** The trajectory file of `rolloutId`: its events, numbered in order. */
export function putTrajectory(store: Store, runId: string, rolloutId: string, events: RolloutEventBody[]): void {
  mkdirSync(store.abs(join('runs', runId)), { recursive: true });
  writeFileSync(store.abs(join('runs', runId, `${rolloutId}.jsonl`)), events.map((e, i) => JSON.stringify({ ...e, seq: i + 1, t: i })).join('\n') + '\n');
}

/** The core over `store`, set up and with one image, its long work replaced where a test says. */
export function coreOf(store: Store, more: Partial<WorkbenchCore> = {}): WorkbenchCore {
  return {
    ...workbenchCore(store),
    diagnose: async () => HEALTHY,
    engines: async () => [],
    listImages: async () => [{ id: 'sha256:1', tag: IMAGE, repo: 'ratekit', commit: 'c0', created: at(0), sizeBytes: 0, bugs: 0, bugCounts: {}, testCommand: 'go test ./...' }],
    ...more,
  };
}
