/**
 * slurmrestd 22.05 returns `standard_output` as it was submitted, with its
 * `%` patterns unexpanded; the log reader needs the real file name.
 */
export interface OutputPathContext {
  jobId: string;
  jobName: string;
  user: string;
  workdir: string;
  node?: string;
}

/** Expands the `sbatch` filename patterns that have one meaning for a single batch job (%j %J %A %x %u %N %%); relative paths start at the job's working directory. */
export function expandOutputPath(pattern: string, ctx: OutputPathContext): string {
  const expanded = pattern.replace(/%(%|\d*[jJAxuN])/g, (match, spec: string) => {
    if (spec === '%') return '%';
    const width = Number.parseInt(spec.slice(0, -1) || '0', 10);
    const letter = spec.slice(-1);
    const pad = (value: string) => value.padStart(width, '0');
    switch (letter) {
      case 'j':
      case 'J':
      case 'A':
        return pad(ctx.jobId);
      case 'x':
        return ctx.jobName;
      case 'u':
        return ctx.user;
      case 'N':
        return ctx.node ?? match;
      default:
        return match;
    }
  });
  if (expanded.startsWith('/')) return expanded;
  return `${ctx.workdir.replace(/\/$/, '')}/${expanded}`;
}

/** The default when no output file was given: slurm-%j.out in the working directory. */
export const DEFAULT_OUTPUT_PATTERN = 'slurm-%j.out';
