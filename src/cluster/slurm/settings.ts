/** How bugbench reaches slurmrestd: read from the environment and the config files by training/settings.ts. */
export interface SlurmSettings {
  /** slurmrestd base URL (JWT auth). Wins over `socket` when both are set. */
  url?: string;
  /** slurmrestd unix socket (local auth: requests run as the daemon's user). */
  socket?: string;
  /** The user jobs are submitted as (X-SLURM-USER-NAME, and the token's `sun`). */
  user?: string;
  /** A ready token; else one is minted from `jwtKeyFile`. */
  token?: string;
  jwtKeyFile?: string;
  partition?: string;
  apiVersion: string;
  /** Where these came from, for messages. */
  source: string;
}

/** The PATH a Slurm job gets from bugbench (before what it adds of its own): the usual system folders. */
export const DEFAULT_JOB_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
