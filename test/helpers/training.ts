/** Shared pieces of the training-queue tests: job folders, datasets, waiting for a state. */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { workspacePath } from '../../src/paths.js';
import { readConfigFile, resolveTrainingSettings, type TrainingSettings } from '../../src/training/settings.js';
import type { DatasetFormat, JobHandle, JobSpec, JobState, JobStatus, TrainingQueue } from '../../src/training/types.js';

export const LOCAL_SLURM_DIR = process.env.BUGBENCH_SLURM_DIR || '/tmp/bugbench-slurm';

/** Settings pointing at the local cluster of scripts/slurm-up only, whatever this shell's environment says. */
export function localClusterSettings(env: NodeJS.ProcessEnv = {}): TrainingSettings {
  const localCluster = readConfigFile(join(LOCAL_SLURM_DIR, 'bugbench.config.json'));
  if (!localCluster) throw new Error(`no local Slurm settings in ${LOCAL_SLURM_DIR}; run scripts/slurm-up`);
  return resolveTrainingSettings({ env, localCluster, localDir: workspacePath('local-jobs-test') });
}

/** A fresh job folder in the test workspace. */
export function jobDir(label: string): string {
  const dir = workspacePath('training-tests', `${label}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** A unique idempotency key, so runs never meet the jobs of earlier runs. */
export function uniqueKey(label: string): string {
  return `test-${label}-${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;
}

export function writeDataset(dir: string, format: DatasetFormat, lines: string[]): string {
  const path = join(dir, `dataset.${format}.jsonl`);
  writeFileSync(path, lines.map((l) => `${l}\n`).join(''));
  return path;
}

export function sampleLines(format: DatasetFormat, n = 3): string[] {
  return Array.from({ length: n }, (_, i) =>
    JSON.stringify(
      format === 'sft'
        ? { messages: [{ role: 'user', content: `fix bug ${i}` }, { role: 'assistant', content: 'done' }] }
        : { instance_id: `sample__bug-${i}`, repo: 'sample', patch: 'diff --git a/x b/x\n', FAIL_TO_PASS: ['t'], PASS_TO_PASS: [] },
    ),
  );
}

export function spec(overrides: Partial<JobSpec> & Pick<JobSpec, 'workdir' | 'key' | 'command'> & { datasetPath: string; format?: DatasetFormat }): JobSpec {
  const { datasetPath, format = 'sft', ...rest } = overrides;
  return {
    kind: format === 'rl' ? 'rl' : 'sft',
    name: `bugbench-test-${rest.key}`,
    dataset: { path: datasetPath, format },
    resources: { cpus: 1, memoryMb: 100, timeLimitMinutes: 5 },
    ...rest,
  };
}

/** How long a job may take to reach a state, waiting for a core included. */
export const QUEUED_LIMIT_MS = 5 * 60_000;

/**
 * Polls until the job reaches one of `states`; returns that status or throws
 * with the last one seen. The limit is long: on the local Slurm's 2 CPUs a
 * job waits while another test file's array holds them.
 */
export async function waitForState(queue: TrainingQueue, handle: JobHandle, states: JobState[], timeoutMs = QUEUED_LIMIT_MS): Promise<JobStatus> {
  const deadline = Date.now() + timeoutMs;
  let last: JobStatus | undefined;
  while (Date.now() < deadline) {
    last = await queue.status(handle);
    if (states.includes(last.state)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`job ${handle.id} did not reach ${states.join('/')} within ${timeoutMs} ms; last: ${JSON.stringify(last)}`);
}
