import { openStore } from '../../src/store/store.js';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { EventStream, type RolloutEvent } from '../../src/agent/events.js';
import { readTrajectory, replay } from '../../src/agent/trajectory.js';
import { runInjection, type InjectStrategy } from '../../src/pipeline/inject.js';
import { dockerClient } from '../../src/sandbox/docker-api/client.js';
import { bugbench } from '../helpers/cli.js';
import { INJECTION_TEST_FLAGS, INJECTION_TEST_PARAMS } from '../helpers/check-params.js';
import { runResult } from '../../src/pipeline/run-result.js';
import { makePlainProject } from '../helpers/plain-project.js';

const inject = (image: string, strategy: InjectStrategy, n: number, seed = 21) =>
  runInjection({ image, strategy, policy: 'offline', n, concurrency: 2, seed, params: INJECTION_TEST_PARAMS, maxSteps: 100 }, { store: openStore() });

describe('the offline injector', () => {
  // On slotsmith, removal and history are both drawn by the removal+history test below.
  it.each([
    ['bugbench/repo-knotcfg:latest', 'removal'],
    ['bugbench/repo-knotcfg:latest', 'history'],
  ] as const)('makes valid bugs in at least half of its rollouts on %s with %s', async (image, strategy) => {
    // Two rollouts, one for each slot: the bench measures yield (bench:yield); here each pair must hold a valid bug.
    const result = await inject(image, strategy, 2);
    expect(result.rollouts).toHaveLength(2);
    const valid = result.bugs.filter((b) => b.valid);
    expect(valid.length, JSON.stringify(result.rollouts, null, 1)).toBeGreaterThanOrEqual(1);
    const meta = JSON.parse(readFileSync(`${valid[0]!.artifactDir}/meta.json`, 'utf8'));
    expect(meta).toMatchObject({ strategy, policy: 'offline', order: 1, parentId: null, image: { tag: image } });
    expect(meta.baseCommit).toMatch(/^[0-9a-f]{40}$/);
  }, 180_000);

  it('ends a rollout that finds nothing as "no bug", with its reason, apart from errors: in the core result and the CLI summary', async () => {
    // knotcfg has fewer code files than this: the injector stops before trying any change, a normal outcome.
    const cli = await bugbench(['inject', '--image', 'bugbench/repo-knotcfg:latest', '--strategy', 'removal', '--policy', 'offline', '-n', '1', '--min-changed-files', '30', ...INJECTION_TEST_FLAGS]);
    expect(cli.exitCode, cli.stderr).toBe(0);
    expect(cli.stdout).toMatch(/^run (\S+) finished: 1 rollout\(s\), 0 submitted, 0 valid, 1 found no bug$/m);
    expect(cli.stdout).toMatch(/^ {2}\S+-r1 {2}no bug: My removal candidates are in \d+ code file\(s\), fewer than the 30 needed/m);
    expect(cli.stderr).not.toMatch(/\] error:|finished: error/);
    expect(cli.stderr).toMatch(/\[r1\] finished: no-bug after/);
    const runId = /^run (\S+) finished/m.exec(cli.stdout)![1]!;
    const result = runResult(openStore(), runId);
    expect(result.rollouts[0]).toMatchObject({ reason: 'no-bug', bugId: null, detail: expect.stringMatching(/fewer than the 30 needed/) });
    expect(result.yield).toMatchObject({ rollouts: 1, submitted: 0, valid: 0 });
  }, 180_000);

  const PLAIN_TAG = 'bugbench-test/ledger-project:latest';
  afterAll(async () => {
    await dockerClient().getImage(PLAIN_TAG).remove({ force: true }).catch(() => undefined);
  });

  it('makes valid bugs in a Python project the tests did not prepare', async () => {
    const dir = await makePlainProject();
    const built = await bugbench(['images', 'build', dir, '--tag', PLAIN_TAG]);
    expect(built.exitCode, built.stderr).toBe(0);
    for (const strategy of ['removal', 'history'] as const) {
      const result = await inject(PLAIN_TAG, strategy, 2, 5);
      expect(result.bugs.filter((b) => b.valid).length, `${strategy}: ${JSON.stringify(result.rollouts)}`).toBeGreaterThanOrEqual(1);
    }
  }, 240_000);

  it('is deterministic for a seed', async () => {
    // Two runs of one rollout each, at once: neither may see or shift the other's draws.
    const [first, second] = await Promise.all([inject('bugbench/repo-knotcfg:latest', 'direct', 1, 99), inject('bugbench/repo-knotcfg:latest', 'direct', 1, 99)]);
    const diff = (dir: string) => readFileSync(`${dir}/bug_inject.diff`, 'utf8');
    expect(diff(first.bugs[0]!.artifactDir)).toBe(diff(second.bugs[0]!.artifactDir));
  }, 120_000);

  it('records a trajectory that replays as the same events in the same order', async () => {
    const live: RolloutEvent[] = [];
    const result = await runInjection({
      image: 'bugbench/repo-slotsmith:latest',
      strategy: 'removal',
      policy: 'offline',
      n: 1,
      concurrency: 1,
      seed: 3,
      params: INJECTION_TEST_PARAMS,
      maxSteps: 100,
    }, { store: openStore() }, (event) => event.type === 'rollout' && live.push(event.event));
    const path = result.rollouts[0]!.trajectory;
    const trajectory = readTrajectory(path);
    expect(trajectory.messages?.length).toBeGreaterThan(4);
    const replayed: RolloutEvent[] = [];
    const stream = new EventStream();
    stream.subscribe((event) => replayed.push(event));
    await replay(trajectory, stream, Infinity);
    expect(replayed).toEqual(live);
    expect(live.map((e) => e.type)).toContain('tool-input-delta');

    const cli = await bugbench(['replay', result.rollouts[0]!.rollout, '--speed', 'max', '--json']);
    expect(cli.exitCode, cli.stderr).toBe(0);
    expect(cli.stdout.trim().split('\n').map((l) => JSON.parse(l))).toEqual(live);
    const text = await bugbench(['replay', result.runId, '--speed', '50']);
    expect(text.stdout).toMatch(/\[r1\] step \d+ submit .* → ok/);
  }, 120_000);
});

describe('removal+history', () => {
  it('draws the removal or the history prompt per rollout from the seed, and every bug records which one it got', async () => {
    // Seed 11 draws removal, removal, removal, history for the first four rollouts: both prompts, in four.
    const result = await runInjection({ image: 'bugbench/repo-slotsmith:latest', strategy: 'removal+history', policy: 'offline', n: 4, concurrency: 2, seed: 11, params: INJECTION_TEST_PARAMS, maxSteps: 100 }, { store: openStore() });
    expect(result.rollouts).toHaveLength(4);
    const prompts = result.bugs.map((b) => JSON.parse(readFileSync(`${b.artifactDir}/meta.json`, 'utf8')).prompt as string);
    expect(prompts).toHaveLength(result.bugs.length);
    expect(new Set(prompts)).toEqual(new Set(['removal', 'history']));
    for (const bug of result.bugs) expect(JSON.parse(readFileSync(`${bug.artifactDir}/meta.json`, 'utf8')).strategy).toBe('removal+history');
    // The drawn prompt is also the offline agent's: its model is named for it.
    const models = result.rollouts.map((r) => readFileSync(r.trajectory, 'utf8').match(/"model":"offline\/(removal|history)"/)?.[1]);
    expect(new Set(models)).toEqual(new Set(['removal', 'history']));
    // Two thirds of the rollouts or more.
    expect(result.bugs.filter((b) => b.valid).length).toBeGreaterThanOrEqual(3);
    // Each prompt made a valid bug on slotsmith.
    expect(new Set(result.bugs.flatMap((b, i) => (b.valid ? [prompts[i]] : [])))).toEqual(new Set(['removal', 'history']));
  }, 300_000);
});

describe('bugbench inject', () => {
  it('prints the documented JSON and stores bugs that `check` finds by id', async () => {
    const result = await bugbench(['inject', '--image', 'bugbench/repo-knotcfg:latest', '--strategy', 'history', '--policy', 'offline', '-n', '1', '--seed', '4', '--buggy-runs', '3', '--max-weakened-tests', '40', '--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout);
    // The check thresholds given to inject are the bug's own.
    expect(JSON.parse(readFileSync(`${json.bugs[0].artifactDir}/meta.json`, 'utf8')).params).toMatchObject({ buggyRuns: 3, maxWeakenedTests: 40 });
    expect(json.runId).toMatch(/^run-/);
    expect(Object.keys(json.bugs[0]).sort()).toEqual(['artifactDir', 'failedCheck', 'id', 'rollout', 'status', 'trajectory', 'valid']);
    const check = await bugbench(['check', json.bugs[0].id, '--json']);
    expect(JSON.parse(check.stdout).valid).toBe(json.bugs[0].valid);
  }, 120_000);

  it('says that featadd needs a model when the policy is offline', async () => {
    const result = await bugbench(['inject', '--image', 'bugbench/repo-knotcfg:latest', '--strategy', 'featadd', '--policy', 'offline']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/the featadd strategy needs a model/);
  });

  it('names an unknown image before starting anything', async () => {
    const result = await bugbench(['inject', '--image', 'bugbench-test/nothing:here', '--strategy', 'removal', '--policy', 'offline']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trim()).toMatch(/^bugbench: image bugbench-test\/nothing:here does not exist/);
  });
});
