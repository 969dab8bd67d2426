/** Checks a job spec before any engine sees it, naming the first thing that is wrong. */
import { isAbsolute } from 'node:path';
import { JobSpecError } from '../errors.js';
import { fillCommand } from './command-template.js';
import { JOB_KEY_PATTERN } from './job-key.js';
import { DATASET_FORMATS, JOB_KINDS, type JobSpec } from './types.js';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function positiveInteger(value: number | undefined, what: string, allowZero = false): void {
  if (value === undefined) return;
  if (!Number.isInteger(value) || value < (allowZero ? 0 : 1)) {
    throw new JobSpecError(`${what} must be a whole number ${allowZero ? '≥ 0' : '≥ 1'}, got ${value}`);
  }
}

/** Throws JobSpecError; returns the filled command when the spec is fine. */
export function validateSpec(spec: JobSpec): string {
  if (!JOB_KINDS.includes(spec.kind)) throw new JobSpecError(`job kind must be one of ${JOB_KINDS.join(', ')}, got "${spec.kind}"`);
  if (!spec.name.trim() || /[\n\r]/.test(spec.name)) throw new JobSpecError('the job needs a one-line name');
  if (!DATASET_FORMATS.includes(spec.dataset.format)) {
    throw new JobSpecError(`dataset format must be one of ${DATASET_FORMATS.join(', ')}, got "${spec.dataset.format}"`);
  }
  if (!isAbsolute(spec.dataset.path)) throw new JobSpecError(`the dataset path must be absolute, got ${spec.dataset.path}`);
  if (!isAbsolute(spec.workdir)) throw new JobSpecError(`the working directory must be absolute, got ${spec.workdir}`);
  if (!JOB_KEY_PATTERN.test(spec.key)) {
    throw new JobSpecError(`the idempotency key must be 1-64 lowercase letters, digits or dashes, got "${spec.key}"`);
  }
  if (!spec.command.trim()) throw new JobSpecError('the training command is empty; set one (e.g. --command "llamafactory-cli train …")');
  for (const name of Object.keys(spec.env ?? {})) {
    if (!ENV_NAME.test(name)) throw new JobSpecError(`environment variable name "${name}" is not valid`);
  }
  const r = spec.resources ?? {};
  positiveInteger(r.cpus, 'cpus');
  positiveInteger(r.memoryMb, 'memory (MiB)');
  positiveInteger(r.gpus, 'gpus', true);
  positiveInteger(r.timeLimitMinutes, 'time limit (minutes)');
  return fillCommand(spec.command, spec);
}
