/**
 * The idempotency key of a training job: the same bugs in the same format, run
 * by the same command with the same resources, give the same key whatever the
 * bugs' order, so submitting that job twice finds the first one instead of
 * starting a second. Another command or other resources make another job;
 * `force` (a nonce) makes a new one on purpose; SFT data that takes the
 * scripted solvers' trajectories is other data, so another job.
 */
import { createHash } from 'node:crypto';
import type { DatasetFormat, JobResources } from './types.js';

export interface JobKeyParts {
  /** The command template (absent: the default dry run). */
  command?: string;
  resources?: JobResources;
  /** Anything unique, to submit the same job again deliberately. */
  nonce?: string;
  /** SFT data with the scripted solvers' trajectories: other lines, another job. */
  includeScripted?: boolean;
}

/** 24 lowercase hex characters; usable as a Ray submission id, in a Slurm comment and in file names. */
export function jobKey(bugIds: readonly string[], format: DatasetFormat, parts: JobKeyParts = {}): string {
  const ids = [...new Set(bugIds)].sort();
  const hash = createHash('sha256');
  hash.update(`bugbench-job-key/1\nformat=${format}\n`);
  for (const id of ids) hash.update(`${id}\n`);
  // Parts that are absent leave the key as it always was, so jobs stored before stay found.
  if (parts.command !== undefined) hash.update(`\0command=${JSON.stringify(parts.command)}\n`);
  const resources = Object.entries(parts.resources ?? {}).filter(([, value]) => value !== undefined).sort(([a], [b]) => a.localeCompare(b));
  for (const [name, value] of resources) hash.update(`\0${name}=${String(value)}\n`);
  if (parts.nonce !== undefined) hash.update(`\0nonce=${parts.nonce}\n`);
  if (parts.includeScripted) hash.update('\0include-scripted\n');
  return hash.digest('hex').slice(0, 24);
}

export const JOB_KEY_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;
