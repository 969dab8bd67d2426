/**
 * Slurm 22.05 reports `exit_code` as the raw wait status of the batch script:
 * exit 3 arrives as 768, a script killed by SIGTERM as 15.
 */
export interface DecodedWaitStatus {
  exitCode: number | null;
  signal: number | null;
}

export function decodeWaitStatus(status: number): DecodedWaitStatus {
  const signal = status & 0x7f;
  if (signal === 0) return { exitCode: (status >> 8) & 0xff, signal: null };
  return { exitCode: null, signal };
}
