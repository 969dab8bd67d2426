import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { checkTemplate, DRY_RUN_COMMAND, fillCommand, jobEnvironment, shellQuote } from '../../../src/training/command-template.js';
import type { JobSpec } from '../../../src/training/types.js';

const spec: JobSpec = {
  kind: 'rl',
  name: "bob's run",
  dataset: { path: '/data/my set/rl.jsonl', format: 'rl' },
  command: '',
  workdir: '/data/my set',
  key: 'abc123',
  resources: { gpus: 8, cpus: 16 },
  env: { WANDB_PROJECT: 'swe', BUGBENCH_JOB_KIND: 'overridden' },
};

/** What bash makes of a filled command: each argument on its own line. */
function words(command: string, env: Record<string, string> = {}): string[] {
  return execFileSync('bash', ['-c', `set -- ${command}; printf '%s\\n' "$@"`], { env: { ...process.env, ...env }, encoding: 'utf8' })
    .split('\n')
    .slice(0, -1);
}

describe('command template', () => {
  it('fills every placeholder as one shell word, whatever the value holds', () => {
    const filled = fillCommand('train --data {dataset} --fmt {format} --kind {kind} --name {name} --key {key} --dir {workdir} --gpus {gpus} --cpus {cpus}', spec);
    expect(words(filled)).toEqual([
      'train', '--data', '/data/my set/rl.jsonl', '--fmt', 'rl', '--kind', 'rl', '--name', "bob's run", '--key', 'abc123', '--dir', '/data/my set', '--gpus', '8', '--cpus', '16',
    ]);
  });

  it('turns {job_id} into the id the engine gives at run time', () => {
    const filled = fillCommand('--out runs/{job_id}', spec);
    expect(filled).toBe('--out runs/"${BUGBENCH_JOB_ID}"');
    expect(words(filled, { BUGBENCH_JOB_ID: '4242' })).toEqual(['--out', 'runs/4242']);
  });

  it('keeps shell variables and literal braces, and refuses unknown placeholders', () => {
    expect(fillCommand('echo ${HOME} {{dataset}} {a b}', spec)).toBe('echo ${HOME} {dataset} {a b}');
    expect(() => fillCommand('train {datset}', spec)).toThrow(/unknown placeholder \{datset\}; known: \{dataset\}/);
    expect(() => checkTemplate('train {nope}')).toThrow(/unknown placeholder \{nope\}/);
    expect(() => checkTemplate('train {dataset} ${lower} {{x}}')).not.toThrow();
  });

  it('quotes values for POSIX shells', () => {
    expect(shellQuote('/plain/path-1.jsonl')).toBe('/plain/path-1.jsonl');
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(words(shellQuote('$(rm -rf /) `x` "y"'))).toEqual(['$(rm -rf /) `x` "y"']);
  });

  it('gives the same values as environment variables, the spec\'s own env winning', () => {
    expect(jobEnvironment(spec, 'slurm')).toEqual({
      BUGBENCH_ENGINE: 'slurm',
      BUGBENCH_DATASET: '/data/my set/rl.jsonl',
      BUGBENCH_DATASET_FORMAT: 'rl',
      BUGBENCH_JOB_KIND: 'overridden',
      BUGBENCH_JOB_NAME: "bob's run",
      BUGBENCH_JOB_KEY: 'abc123',
      BUGBENCH_WORKDIR: '/data/my set',
      BUGBENCH_GPUS: '8',
      BUGBENCH_CPUS: '16',
      WANDB_PROJECT: 'swe',
    });
  });

  it('has a dry-run command that fills cleanly (it has no placeholders of its own)', () => {
    const filled = fillCommand(DRY_RUN_COMMAND, spec);
    expect(filled.endsWith(`'/data/my set/rl.jsonl' rl`)).toBe(true);
  });
});
