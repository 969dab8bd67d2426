/** The batch script a Slurm training job runs: the filled command, in bash, with the job's id exported. Pure. */
import { jobEnvironment } from '../command-template.js';
import type { JobSpec } from '../types.js';
import { DEFAULT_JOB_PATH } from '../../cluster/slurm/settings.js';

/** What the job's environment holds when the spec does not say: Slurm gets no environment from us otherwise. */
export { DEFAULT_JOB_PATH };

export function batchScript(spec: JobSpec, command: string): string {
  return [
    '#!/bin/bash',
    `# bugbench ${spec.kind} job ${JSON.stringify(spec.name)}: ${spec.dataset.format} dataset ${spec.dataset.path}`,
    'export BUGBENCH_JOB_ID="${SLURM_JOB_ID}"',
    command,
    '',
  ].join('\n');
}

/** The job's whole environment (slurmrestd requires one; Slurm adds its SLURM_* variables). */
export function batchEnvironment(spec: JobSpec): Record<string, string> {
  return { PATH: DEFAULT_JOB_PATH, LANG: 'C.UTF-8', ...jobEnvironment(spec, 'slurm') };
}
