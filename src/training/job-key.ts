/**
 * The idempotency key of a training job: the same accepted bugs in the same
 * format give the same key, whatever their order, so submitting the same
 * dataset twice finds the first job instead of starting a second one.
 */
import { createHash } from 'node:crypto';
import type { DatasetFormat } from './types.js';

/** 24 lowercase hex characters; usable as a Ray submission id, in a Slurm comment and in file names. */
export function jobKey(bugIds: readonly string[], format: DatasetFormat): string {
  const ids = [...new Set(bugIds)].sort();
  const hash = createHash('sha256');
  hash.update(`bugbench-job-key/1\nformat=${format}\n`);
  for (const id of ids) hash.update(`${id}\n`);
  return hash.digest('hex').slice(0, 24);
}

export const JOB_KEY_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;
