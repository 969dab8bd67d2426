/**
 * Rollouts as mini-swe-agent trajectory files, from the CLI: an offline
 * injection and solver attempts, each opened the way mini-swe-agent's
 * inspector opens it, with messages equal to the `sft` export's; and the
 * `sft` export leaving the scripted solvers out unless asked.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_MANIFEST } from '../../src/datasets/atomic-folder.js';
import { SCRIPTED_LEFT_OUT } from '../../src/datasets/sft.js';
import { UNSOLVED_LEFT_OUT } from '../../src/datasets/export.js';
import { chatOf, type TrajectoryMessage } from '../../src/datasets/trajectories/mini-swe.js';
import { Store } from '../../src/store/store.js';
import { artifactPath } from '../helpers/artifacts.js';
import { INJECTION_TEST_FLAGS } from '../helpers/check-params.js';
import { bugbench } from '../helpers/cli.js';
import { inspect } from '../helpers/mini-swe-inspector.js';

const home = mkdtempSync(join(tmpdir(), 'bugbench-trajectories-'));
const env = { BUGBENCH_HOME: home };
const cli = (...args: string[]) => bugbench(args, { env, timeout: 300_000 });
const json = async (...args: string[]) => {
  const result = await cli(...args, '--json');
  expect(result.exitCode, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
};
const outDir = mkdtempSync(join(tmpdir(), 'bugbench-trajectories-out-'));
let bug = '';
let injection = { rollout: '', bug: '' };
let attempts: { id: string; solver: string; solved: boolean; patchPath: string | null }[] = [];

beforeAll(async () => {
  bug = (await json('import', artifactPath('valid-two-files'))).id;
  const injected = await json('inject', '--image', 'bugbench/repo-slotsmith:latest', '--strategy', 'removal', '--policy', 'offline', '-n', '1', '--seed', '3', ...INJECTION_TEST_FLAGS);
  injection = { rollout: injected.rollouts[0].rollout, bug: injected.rollouts[0].bugId };
  attempts = [
    ...(await json('solve', bug, '-k', '2', '--solver', 'oracle', '--policy', 'offline')).attempts,
    ...(await json('solve', bug, '-k', '1', '--solver', 'partial', '--policy', 'offline')).attempts,
  ];
}, 400_000);

const readTraj = (dir: string, id: string) => JSON.parse(readFileSync(join(dir, `${id}.traj.json`), 'utf8'));

describe('the trajectories export', () => {
  it("writes every rollout of the bugs as a .traj.json that mini-swe-agent's inspector opens", async () => {
    expect(injection.bug).toBeTruthy();
    const dir = join(outDir, 'all');
    const result = await json('export', '--format', 'trajectories', '--status', 'valid', '--out', dir);
    const ids = [injection.rollout, ...attempts.map((a) => a.id)];
    expect(result).toMatchObject({ format: 'trajectories', count: ids.length, skipped: [] });
    expect(readdirSync(dir).sort()).toEqual([EXPORT_MANIFEST, ...ids.map((id) => `${id}.traj.json`)].sort());
    for (const id of ids) {
      const traj = readTraj(dir, id);
      expect(traj.trajectory_format).toBe('mini-swe-agent-1.1');
      expect(traj.info).toMatchObject({ exit_status: expect.any(String), submission: expect.any(String), model_stats: { instance_cost: 0, api_calls: expect.any(Number) } });
      expect(traj.info.model_stats.api_calls).toBeGreaterThan(0);
      const steps = inspect(traj);
      expect(steps.flat()[0]).toMatchObject({ role: 'SYSTEM' });
      expect(steps.filter((s) => s[0]!.role === 'ASSISTANT')).toHaveLength(traj.info.model_stats.api_calls);
    }
    const injector = readTraj(dir, injection.rollout);
    expect(injector.info).toMatchObject({ exit_status: 'Submitted', bugbench: { role: 'injector', bug_id: injection.bug } });
    expect(injector.info.submission).toBe(readFileSync(join(home, 'bugs', injection.bug, 'bug_inject.diff'), 'utf8'));
    for (const attempt of attempts) {
      const traj = readTraj(dir, attempt.id);
      expect(traj.info.bugbench).toMatchObject({ role: 'solver', bug_id: bug, solved: attempt.solved });
      expect(traj.info.config.model.model_name).toBe(attempt.solver);
      expect(traj.info.submission).toBe(attempt.patchPath ? readFileSync(attempt.patchPath, 'utf8') : '');
    }
  }, 120_000);

  it('writes one rollout with --rollout, and refuses one that does not exist', async () => {
    const dir = join(outDir, 'one');
    const result = await json('export', '--format', 'trajectories', '--rollout', attempts[0]!.id, '--out', dir);
    expect(result.count).toBe(1);
    expect(readdirSync(dir).sort()).toEqual([EXPORT_MANIFEST, `${attempts[0]!.id}.traj.json`].sort());
    const missing = await cli('export', '--format', 'trajectories', '--rollout', 'run-nope-a9', '--out', join(outDir, 'none'));
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toMatch(/there is no rollout run-nope-a9/);
    const misplaced = await cli('export', '--format', 'swebench', '--rollout', attempts[0]!.id, '--out', join(outDir, 'x.jsonl'));
    expect(misplaced.exitCode).toBe(2);
  }, 60_000);

  it("leaves the scripted solvers out of the sft export, says how many and why, and its messages are the trajectories'", async () => {
    const solved = attempts.filter((a) => a.solved);
    expect(solved).toHaveLength(2); // the two oracles; the partial repair of a two-file bug fails
    const file = join(outDir, 'sft.jsonl');
    const refused = await cli('export', '--format', 'sft', '--status', 'valid', '--out', file);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/--include-scripted/);
    // A model's solved attempt goes in; the scripted ones are counted out.
    const store = Store.open({ root: home });
    store.transact((tx) => tx.patch('attempts', solved[0]!.id, { solver: 'claude-sonnet-4-5' }));
    const taken = await json('export', '--format', 'sft', '--status', 'valid', '--out', file);
    // The bug the solvers did not solve gives no line either, and is counted out with what would make one.
    expect(taken).toMatchObject({ count: 1, leftOut: [{ count: 1, reason: SCRIPTED_LEFT_OUT }, { count: 1, reason: UNSOLVED_LEFT_OUT }] });
    const text = await cli('export', '--format', 'sft', '--status', 'valid', '--out', file);
    expect(text.stdout).toContain('left out 1: trajectories of the scripted offline solvers');
    const all = await json('export', '--format', 'sft', '--status', 'valid', '--include-scripted', '--out', file);
    expect(all).toMatchObject({ count: solved.length, leftOut: [{ count: 1, reason: UNSOLVED_LEFT_OUT }] });
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { attempt_id: string; messages: unknown[] });
    const dir = join(outDir, 'all');
    for (const line of lines) {
      const traj = readTraj(dir, line.attempt_id) as { messages: TrajectoryMessage[] };
      expect(chatOf(traj.messages)).toEqual(line.messages);
    }
  }, 120_000);
});
