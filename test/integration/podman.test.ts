/**
 * bugbench on rootless Podman, one test per path, with every engine call going
 * to the Podman service of the test set-up (the `podman` project sets
 * DOCKER_HOST): doctor, `images build` and copies between the two engines,
 * checks, injection, solving with a higher-order bug, an export whose
 * instance runs on Podman. The same bugs and verdicts as on Docker are
 * expected; the Docker-side tests of each path say what those are.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { execa } from 'execa';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dockerClient } from '../../src/sandbox/docker-api/client.js';
import { DEFAULT_ENGINE_HOST } from '../../src/sandbox/engine-config.js';
import { ensureImageOnEngines } from '../../src/sandbox/docker-api/image-copy.js';
import { engineAt, openSandbox } from '../../src/sandbox/engine-table.js';
import { artifactPath, VALID_FAIL_TO_PASS } from '../helpers/artifacts.js';
import { INJECTION_TEST_FLAGS } from '../helpers/check-params.js';
import { bugbench } from '../helpers/cli.js';
import { makeGitRepo } from '../helpers/git-repo.js';

const home = mkdtempSync(join(tmpdir(), 'bugbench-podman-'));
const cli = (args: string[], timeout = 300_000) => bugbench(args, { env: { BUGBENCH_HOME: home }, timeout });
const json = async (...args: string[]) => {
  const result = await cli([...args, '--json']);
  expect(result.exitCode, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
};
const podman = () => dockerClient(process.env.DOCKER_HOST!);
const docker = () => dockerClient(DEFAULT_ENGINE_HOST);

describe('bugbench on rootless Podman', () => {
  it('runs on it: doctor names the engine, its runtime, and makes a container there', async () => {
    expect(process.env.DOCKER_HOST).toMatch(/^unix:\/\/\/.*podman\.sock$/);
    // Only the base and the knotcfg sample are copied to Podman: doctor reports the other samples missing
    // (exit 1), and says everything about the engine itself.
    const doctor = await cli(['doctor', '--json']);
    const report = JSON.parse(doctor.stdout);
    expect(report.engine).toMatchObject({ ok: true, kind: expect.stringMatching(/podman/i) });
    expect(report.baseImage.ok).toBe(true);
    expect(report.engines[0]).toMatchObject({ product: 'podman', rootless: true, runtime: 'runc', containers: { ok: true }, missing: [] });
    const text = (await cli(['doctor'])).stdout;
    expect(text).toMatch(/^ok +default engine rootless Podman 4\.\S+ \(runc\) at unix:\/\//m);
    expect(text).toMatch(/^ok +engine e1 at unix:\/\/\S+: rootless Podman 4\.\S+, \d+ slot\(s\); runtime runc; .*bugbench\/repo-knotcfg:latest/m);
  });

  it('builds a repo image, lists it under its own name, and copies it to Docker and back with the same id', async () => {
    const repo = await makeGitRepo('podlib', [
      { message: 'add podlib', files: { 'podlib.py': 'def double(x):\n    return 2 * x\n', 'tests/test_podlib.py': 'from podlib import double\n\n\ndef test_double():\n    assert double(2) == 4\n' } },
    ]);
    const tag = `bugbench/repo-podlib-${process.pid}:latest`;
    try {
      const built = await json('images', 'build', repo, '--tag', tag);
      expect(built).toMatchObject({ tag, repo: 'podlib' });
      // Podman calls it localhost/… (or docker.io/…); bugbench shows the name it was given.
      const listed = await json('images');
      expect(listed.find((i: { tag: string }) => i.tag === tag)).toMatchObject({ repo: 'podlib' });
      expect(listed.some((i: { tag: string }) => i.tag.startsWith('localhost/') || i.tag.startsWith('docker.io/'))).toBe(false);

      // Podman to Docker: the same id, under the name asked for and no other.
      await ensureImageOnEngines(tag, [
        { name: 'podman', engine: engineAt(process.env.DOCKER_HOST!) },
        { name: 'docker', engine: engineAt(DEFAULT_ENGINE_HOST) },
      ]);
      const onDocker = await docker().getImage(tag).inspect();
      expect(onDocker.Id).toBe((await podman().getImage(tag).inspect()).Id);
      expect(onDocker.RepoTags).toEqual([tag]);
      // And back: gone from Podman, copied again from Docker.
      await podman().getImage(tag).remove({ force: true });
      await ensureImageOnEngines(tag, [
        { name: 'docker', engine: engineAt(DEFAULT_ENGINE_HOST) },
        { name: 'podman', engine: engineAt(process.env.DOCKER_HOST!) },
      ]);
      expect((await podman().getImage(tag).inspect()).Id).toBe(onDocker.Id);
      const sandbox = await openSandbox({ image: tag, runId: 'test-podman-copied' });
      try {
        expect((await sandbox.run('python3 -m pytest -q tests 2>&1 | tail -1')).stdout).toMatch(/1 passed/);
      } finally {
        await sandbox.remove();
      }
    } finally {
      await docker().getImage(tag).remove({ force: true }).catch(() => undefined);
      await podman().getImage(tag).remove({ force: true }).catch(() => undefined);
    }
  }, 180_000);

  it('gives an invalid bug its failing check: a verdict about the bug, not the engine', async () => {
    const result = await cli(['check', artifactPath('bug-touches-tests'), '--json']);
    expect(result.exitCode, result.stderr).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.checks.find((c: { verdict: string }) => c.verdict === 'fail')).toMatchObject({ name: 'test-files' });
  }, 120_000);

  it('runs a bug\'s checks on an image whose ENTRYPOINT would end its containers (Podman keeps an entrypoint an empty list names)', async () => {
    const tag = 'example/entry-bash:podman';
    const context = mkdtempSync(join(tmpdir(), 'bugbench-entry-'));
    writeFileSync(join(context, 'Dockerfile'), 'FROM bugbench/repo-knotcfg:latest\nENTRYPOINT ["/bin/bash"]\n');
    await execa('docker', ['-H', DEFAULT_ENGINE_HOST, 'build', '--network', 'none', '-q', '-t', tag, context]);
    try {
      await ensureImageOnEngines(tag, [{ name: 'docker', engine: engineAt(DEFAULT_ENGINE_HOST) }, { name: 'podman', engine: engineAt(process.env.DOCKER_HOST!) }], () => undefined);
      const report = await json('check', artifactPath('valid-two-files'), '--image', tag, '--buggy-runs', '2');
      expect(report.valid).toBe(true);
    } finally {
      await podman().getImage(tag).remove({ force: true }).catch(() => undefined);
      await docker().getImage(tag).remove({ force: true }).catch(() => undefined);
    }
  }, 300_000);

  it('injects offline bugs and checks them valid', async () => {
    const result = await json('inject', '--image', 'bugbench/repo-knotcfg:latest', '--strategy', 'removal', '--policy', 'offline', '-n', '2', '--seed', '5', ...INJECTION_TEST_FLAGS);
    expect(result.status).toBe('finished');
    expect(result.rollouts.map((r: { reason: string }) => r.reason)).toEqual(['submitted', 'submitted']);
    expect(result.bugs.map((b: { valid: boolean }) => b.valid)).toEqual([true, true]);
    // Every container of the run is gone.
    const left = await podman().listContainers({ all: true, filters: { label: [`bugbench.run`] } });
    expect(left.filter((c) => c.Labels['bugbench.run']!.startsWith(result.runId))).toEqual([]);
  }, 400_000);

  it('solves a bug, turns a failed repair into an order-2 bug, and exports an instance that runs on Podman', async () => {
    const imported = await json('import', artifactPath('valid-two-files'));
    expect(imported).toMatchObject({ status: 'valid' });
    expect((await json('show', imported.id)).FAIL_TO_PASS).toEqual(VALID_FAIL_TO_PASS);
    const solved = await json('solve', imported.id, '-k', '2', '--solver', 'partial', '--policy', 'offline');
    expect(solved.attempts.map((a: { solved: boolean }) => a.solved)).toEqual([false, false]);
    const higher = await json('higher-order', imported.id);
    expect(higher.bugs.length).toBeGreaterThanOrEqual(1);
    expect(higher.bugs[0]).toMatchObject({ valid: true, failedCheck: null });

    await json('accept', imported.id);
    const file = join(home, 'swe.jsonl');
    expect(await json('export', '--format', 'swebench', '--out', file)).toMatchObject({ count: 1, bugIds: [imported.id] });
    const instance = JSON.parse(readFileSync(file, 'utf8').trim().split('\n')[0]!);
    const sandbox = await openSandbox({ image: instance.image_name, runId: 'test-podman-export' });
    try {
      await sandbox.reset(instance.base_commit);
      for (const diff of [instance.bugbench.bug_patch, instance.bugbench.weaken_patch, instance.patch, instance.test_patch]) await sandbox.applyDiff(diff);
      await sandbox.writeFiles([
        { path: '/tmp/t/test_script.sh', content: instance.bugbench.test_script },
        { path: '/tmp/t/test_parser.py', content: instance.bugbench.test_parser },
      ]);
      const run = await sandbox.exec('bash /tmp/t/test_script.sh > /tmp/t/log 2>&1; python3 /tmp/t/test_parser.py < /tmp/t/log');
      const map = JSON.parse(run.stdout) as Record<string, string>;
      for (const test of instance.FAIL_TO_PASS) expect(map[test], test).toBe('passed');
    } finally {
      await sandbox.remove();
    }
  }, 600_000);
});
