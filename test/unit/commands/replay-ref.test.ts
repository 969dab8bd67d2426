import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findTrajectories } from '../../../src/commands/replay.js';

describe('what replay is given', () => {
  const saved = process.env.BUGBENCH_HOME;
  beforeEach(() => {
    process.env.BUGBENCH_HOME = mkdtempSync(join(tmpdir(), 'bugbench-replay-'));
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.BUGBENCH_HOME;
    else process.env.BUGBENCH_HOME = saved;
  });

  it('says a missing file is missing, and an exported mini-swe-agent trajectory is not its kind', () => {
    expect(() => findTrajectories('/tmp/nope/run-1-r1.jsonl')).toThrow('/tmp/nope/run-1-r1.jsonl: no such trajectory file; give a run id, a rollout id or a .jsonl trajectory (see `bugbench runs`)');
    expect(() => findTrajectories('out/run-1-r1.traj.json')).toThrow(/^out\/run-1-r1\.traj\.json is a trajectory in mini-swe-agent's format \(`bugbench export --format trajectories`\), for its inspector; replay reads bugbench's own/);
    expect(() => findTrajectories('run-nope')).toThrow(/^no run or rollout "run-nope" in /);
  });
});
