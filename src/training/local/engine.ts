/**
 * The `local` engine: the training command as a detached process on this
 * machine, for trying things out. The process outlives bugbench; everything a
 * later process needs is in files:
 *
 *   <workdir>/bugbench-<id>/job.json          pid, its start time, command, key
 *   <workdir>/bugbench-<id>/output.log        stdout and stderr
 *   <workdir>/bugbench-<id>/exit-code         written by the runner when the command ends
 *   <workdir>/bugbench-<id>/cancel-requested  written by cancel()
 *   <dir>/<id>.json                           the handle, so find(key) works from anywhere
 *
 * A pid is trusted only with the start time recorded beside it.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { JobSpecError } from '../../errors.js';
import { jobEnvironment } from '../command-template.js';
import { validateSpec } from '../job-spec.js';
import { readLogTail } from '../log-tail.js';
import { checkHandle, isTerminal, reusable, type EngineHealth, type JobHandle, type JobLogs, type JobSpec, type JobStatus, type SubmitResult, type TrainingQueue } from '../types.js';
import { isSameProcess, processStartTime } from './process.js';

/** Runs the command, then records its exit code atomically. $1 state folder, $2 command, $3 time limit in minutes or ''. */
const RUNNER = [
  'state=$1; command=$2; limit=$3',
  'if [ -n "$limit" ]; then timeout --kill-after=30 "${limit}m" bash -c "$command"; else bash -c "$command"; fi',
  'code=$?',
  'printf "%s\\n" "$code" > "$state/exit-code.tmp" && mv "$state/exit-code.tmp" "$state/exit-code"',
].join('\n');

const CANCEL_GRACE_MS = 5000;

interface LocalRecord {
  id: string;
  key: string;
  name: string;
  pid: number;
  startTime: string;
  submittedAt: string;
  command: string;
}

function writeJson(path: string, value: unknown): void {
  const temp = `${path}.tmp-${process.pid}`;
  writeFileSync(temp, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(temp, path);
}

function readJson<T>(path: string): T | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return null;
  }
}

function mtime(path: string): string | null {
  try {
    return statSync(path).mtime.toISOString();
  } catch {
    return null;
  }
}

/** The job's id on this engine: its key, then `<key>-2`… for later attempts. The job's record adds the engine's name ("local-<key>"). */
export function localJobId(key: string, attempt: number): string {
  return attempt <= 1 ? key : `${key}-${attempt}`;
}

/** Which attempt an id is; ids made by earlier versions began "local-" too (their records read "local-local-…"). */
function attemptOf(id: string, key: string): number {
  const bare = id.startsWith(`local-${key}`) ? id.slice('local-'.length) : id;
  return bare === key ? 1 : Number(bare.slice(key.length + 1));
}

export class LocalQueue implements TrainingQueue {
  readonly engine = 'local' as const;

  /** `dir` keeps one small file per job so `find(key)` works from any process. */
  constructor(private readonly dir: string) {}

  private stateDir(handle: JobHandle): string {
    if (!handle.workdir) throw new JobSpecError(`local job ${handle.id} has no working directory in its handle`);
    return join(handle.workdir, `bugbench-${handle.id}`);
  }

  private handles(key: string): JobHandle[] {
    if (!existsSync(this.dir)) return [];
    return readdirSync(this.dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => readJson<JobHandle>(join(this.dir, f)))
      .filter((h): h is JobHandle => h !== null && h.key === key && h.engine === 'local');
  }

  async find(key: string): Promise<JobHandle | null> {
    return this.handles(key).sort((a, b) => attemptOf(b.id, key) - attemptOf(a.id, key))[0] ?? null;
  }

  async submit(spec: JobSpec): Promise<SubmitResult> {
    const command = validateSpec(spec);
    const existing = await this.find(spec.key);
    if (existing && reusable((await this.status(existing)).state)) return { handle: existing, created: false };
    if (!existsSync(spec.workdir) || !statSync(spec.workdir).isDirectory()) {
      throw new JobSpecError(`the job's working directory ${spec.workdir} does not exist; create it (and put the dataset there) first`);
    }
    const id = localJobId(spec.key, this.handles(spec.key).length + 1);
    const handle: JobHandle = { engine: 'local', id, key: spec.key, name: spec.name, submittedAt: new Date().toISOString(), workdir: spec.workdir };
    const state = this.stateDir(handle);
    mkdirSync(state, { recursive: true });
    handle.logPath = join(state, 'output.log');

    const log = openSync(handle.logPath, 'a');
    let child;
    try {
      child = spawn('bash', ['-c', RUNNER, 'bugbench-local-job', state, command, String(spec.resources?.timeLimitMinutes ?? '')], {
        cwd: spec.workdir,
        detached: true,
        stdio: ['ignore', log, log],
        env: { ...process.env, ...jobEnvironment(spec, 'local'), BUGBENCH_JOB_ID: id },
      });
    } finally {
      closeSync(log);
    }
    const pid = child.pid;
    if (pid === undefined) throw new JobSpecError(`could not start bash for local job ${id}`);
    child.unref();
    const record: LocalRecord = { id, key: spec.key, name: spec.name, pid, startTime: processStartTime(pid) ?? '', submittedAt: handle.submittedAt, command };
    writeJson(join(state, 'job.json'), record);
    mkdirSync(this.dir, { recursive: true });
    writeJson(join(this.dir, `${id}.json`), handle);
    return { handle, created: true };
  }

  async status(handle: JobHandle): Promise<JobStatus> {
    checkHandle(handle, 'local');
    const state = this.stateDir(handle);
    const record = readJson<LocalRecord>(join(state, 'job.json'));
    const base = { signal: null, startedAt: record?.submittedAt ?? handle.submittedAt };
    if (!record) {
      return { ...base, state: 'unknown', rawState: '', exitCode: null, reason: `no record of local job ${handle.id} in ${state}`, startedAt: null, endedAt: null };
    }
    const cancelled = join(state, 'cancel-requested');
    const exitFile = join(state, 'exit-code');
    if (existsSync(cancelled)) {
      return { ...base, state: 'cancelled', rawState: 'cancelled', exitCode: null, reason: 'cancelled', endedAt: mtime(cancelled) };
    }
    if (existsSync(exitFile)) {
      const code = Number.parseInt(readFileSync(exitFile, 'utf8'), 10);
      const ok = code === 0;
      const reason = ok ? null : code === 124 ? 'the job reached its time limit' : `the command exited with ${code}`;
      return { ...base, state: ok ? 'succeeded' : 'failed', rawState: `exited ${code}`, exitCode: code, reason, endedAt: mtime(exitFile) };
    }
    if (record.startTime && isSameProcess(record.pid, record.startTime)) {
      return { ...base, state: 'running', rawState: `running pid ${record.pid}`, exitCode: null, reason: null, endedAt: null };
    }
    return {
      ...base,
      state: 'failed',
      rawState: 'vanished',
      exitCode: null,
      reason: `process ${record.pid} ended without recording an exit code (killed, or the machine restarted)`,
      endedAt: null,
    };
  }

  async logs(handle: JobHandle, options: { tailBytes?: number } = {}): Promise<JobLogs> {
    checkHandle(handle, 'local');
    return readLogTail(handle.logPath ?? join(this.stateDir(handle), 'output.log'), options.tailBytes);
  }

  async cancel(handle: JobHandle): Promise<void> {
    checkHandle(handle, 'local');
    if (isTerminal((await this.status(handle)).state)) return;
    const state = this.stateDir(handle);
    const record = readJson<LocalRecord>(join(state, 'job.json'));
    if (!record) return;
    writeFileSync(join(state, 'cancel-requested'), `${new Date().toISOString()}\n`);
    const signalGroup = (signal: NodeJS.Signals) => {
      try {
        process.kill(-record.pid, signal);
      } catch {
        // already gone
      }
    };
    if (!isSameProcess(record.pid, record.startTime)) return;
    signalGroup('SIGTERM');
    const deadline = Date.now() + CANCEL_GRACE_MS;
    while (Date.now() < deadline && isSameProcess(record.pid, record.startTime)) await new Promise((r) => setTimeout(r, 50));
    if (isSameProcess(record.pid, record.startTime)) signalGroup('SIGKILL');
  }

  async health(): Promise<EngineHealth> {
    return { engine: 'local', ok: true, detail: `local processes on this machine (job records in ${this.dir})` };
  }
}
