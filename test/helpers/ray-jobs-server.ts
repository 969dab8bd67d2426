/**
 * A small HTTP server on 127.0.0.1 that answers like the Ray Jobs REST API of
 * a Ray head's dashboard, written from Ray's documentation (Ray cannot be
 * installed here). It really runs each entrypoint with /bin/sh, as Ray does,
 * with runtime_env.env_vars in its environment and its output in a log, so
 * states, exit codes and logs are real:
 *
 *   GET  /api/version                 {version, ray_version, ray_commit}
 *   POST /api/jobs/                   {entrypoint, submission_id?, runtime_env?, metadata?, entrypoint_num_*}
 *                                     → {job_id, submission_id}; 400 when the submission id exists
 *   GET  /api/jobs/                   [JobDetails…]
 *   GET  /api/jobs/{id}               JobDetails; 404 "Job {id} does not exist"
 *   GET  /api/jobs/{id}/logs          {logs}
 *   POST /api/jobs/{id}/stop          {stopped}: SIGTERM to the entrypoint's process group, SIGKILL after 3 s
 *   DELETE /api/jobs/{id}             {deleted}: only a job in a terminal state
 *
 * Statuses: PENDING → RUNNING → SUCCEEDED | FAILED | STOPPED; times in ms.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type RayStatus = 'PENDING' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'STOPPED';

interface RayJob {
  submissionId: string;
  entrypoint: string;
  status: RayStatus;
  message: string;
  errorType: string | null;
  startTime: number;
  endTime: number | null;
  exitCode: number | null;
  metadata: Record<string, string>;
  runtimeEnv: Record<string, unknown>;
  resources: Record<string, unknown>;
  logFile: string;
  process?: ChildProcess;
  stopRequested: boolean;
}

export interface RayJobsServer {
  url: string;
  /** Every request, for tests that check what the client sent. */
  requests: { method: string; path: string; body: unknown }[];
  close(): Promise<void>;
}

function details(job: RayJob) {
  return {
    type: 'SUBMISSION',
    job_id: null,
    submission_id: job.submissionId,
    driver_info: null,
    status: job.status,
    entrypoint: job.entrypoint,
    message: job.message,
    error_type: job.errorType,
    start_time: job.startTime,
    end_time: job.endTime,
    metadata: job.metadata,
    runtime_env: job.runtimeEnv,
    driver_agent_http_address: null,
    driver_node_id: null,
    driver_exit_code: job.exitCode,
    ...job.resources,
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': typeof body === 'string' ? 'text/plain' : 'application/json' });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function lastLines(file: string, n: number): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-n).join('\n');
  } catch {
    return '';
  }
}

export async function startRayJobsServer(): Promise<RayJobsServer> {
  const logDir = mkdtempSync(join(tmpdir(), 'bugbench-ray-'));
  const jobs = new Map<string, RayJob>();
  const requests: RayJobsServer['requests'] = [];

  function run(job: RayJob): void {
    const envVars = (job.runtimeEnv.env_vars ?? {}) as Record<string, string>;
    const log = openSync(job.logFile, 'a');
    const child = spawn('/bin/sh', ['-c', job.entrypoint], { detached: true, stdio: ['ignore', log, log], env: { ...process.env, ...envVars } });
    closeSync(log);
    job.process = child;
    job.status = 'RUNNING';
    job.message = 'Job is currently running.';
    child.on('exit', (code, signal) => {
      job.endTime = Date.now();
      job.process = undefined;
      if (job.stopRequested) {
        job.status = 'STOPPED';
        job.message = 'Job was intentionally stopped.';
        return;
      }
      job.exitCode = code ?? (signal ? 128 : null);
      if (code === 0) {
        job.status = 'SUCCEEDED';
        job.message = 'Job finished successfully.';
      } else {
        job.status = 'FAILED';
        job.errorType = 'JOB_ENTRYPOINT_COMMAND_ERROR';
        const tail = lastLines(job.logFile, 10);
        job.message = `Job entrypoint command failed with exit code ${job.exitCode}, ${tail ? `last available logs:\n${tail}` : 'no logs available.'}`;
      }
    });
    child.on('error', (error) => {
      job.status = 'FAILED';
      job.errorType = 'JOB_ENTRYPOINT_COMMAND_START_ERROR';
      job.message = error.message;
      job.endTime = Date.now();
    });
  }

  function stop(job: RayJob): boolean {
    if (job.status !== 'PENDING' && job.status !== 'RUNNING') return false;
    job.stopRequested = true;
    const child = job.process;
    if (!child?.pid) {
      job.status = 'STOPPED';
      job.endTime = Date.now();
      return true;
    }
    const pid = child.pid;
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      // already gone
    }
    setTimeout(() => {
      if (job.process) {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }, 3000).unref();
    return true;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    const text = req.method === 'POST' ? await readBody(req) : '';
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      return send(res, 400, 'Bad Request: request body is not JSON');
    }
    requests.push({ method: req.method ?? '', path, body });

    if (req.method === 'GET' && path === '/api/version') {
      return send(res, 200, { version: '1', ray_version: 'bugbench-test-ray', ray_commit: '0000000' });
    }
    if (path === '/api/jobs/' || path === '/api/jobs') {
      if (req.method === 'GET') return send(res, 200, [...jobs.values()].map(details));
      if (req.method !== 'POST') return send(res, 405, 'Method Not Allowed');
      const request = (body ?? {}) as Record<string, unknown>;
      if (typeof request.entrypoint !== 'string' || !request.entrypoint) {
        return send(res, 400, 'TypeError: JobSubmitRequest needs an entrypoint (a string)');
      }
      const id = typeof request.submission_id === 'string' && request.submission_id ? request.submission_id : `raysubmit_${randomBytes(8).toString('hex')}`;
      if (jobs.has(id)) return send(res, 400, `ValueError: Job with submission_id ${id} already exists. Please use a different submission_id.`);
      const resources = Object.fromEntries(Object.entries(request).filter(([k]) => k.startsWith('entrypoint_')));
      const job: RayJob = {
        submissionId: id,
        entrypoint: request.entrypoint,
        status: 'PENDING',
        message: 'Job has not started yet.',
        errorType: null,
        startTime: Date.now(),
        endTime: null,
        exitCode: null,
        metadata: (request.metadata ?? {}) as Record<string, string>,
        runtimeEnv: (request.runtime_env ?? {}) as Record<string, unknown>,
        resources,
        logFile: join(logDir, `${id}.log`),
        stopRequested: false,
      };
      jobs.set(id, job);
      // Like Ray, the job waits a moment in PENDING (its runtime env) before its driver starts.
      setTimeout(() => {
        if (job.status === 'PENDING') run(job);
      }, 150);
      return send(res, 200, { job_id: id, submission_id: id });
    }
    const match = /^\/api\/jobs\/([^/]+)(\/logs|\/stop)?$/.exec(path);
    if (!match) return send(res, 404, 'Not Found');
    const id = decodeURIComponent(match[1]!);
    const job = jobs.get(id);
    if (!job) return send(res, 404, `Job ${id} does not exist`);
    const action = match[2];
    if (req.method === 'GET' && !action) return send(res, 200, details(job));
    if (req.method === 'GET' && action === '/logs') {
      let logs = '';
      try {
        logs = readFileSync(job.logFile, 'utf8');
      } catch {
        logs = '';
      }
      return send(res, 200, { logs });
    }
    if (req.method === 'POST' && action === '/stop') return send(res, 200, { stopped: stop(job) });
    if (req.method === 'DELETE' && !action) {
      if (job.status === 'PENDING' || job.status === 'RUNNING') return send(res, 400, `Attempted to delete job ${id}, which is not in a terminal state.`);
      jobs.delete(id);
      return send(res, 200, { deleted: true });
    }
    return send(res, 405, 'Method Not Allowed');
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      for (const job of jobs.values()) stop(job);
      await new Promise((resolve) => server.close(resolve));
      rmSync(logDir, { recursive: true, force: true });
    },
  };
}
