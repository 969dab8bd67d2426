/**
 * An engine that refuses every container (test/helpers/faulty-engine.ts:
 * the real Docker engine behind a socket that answers HTTP 500 to container
 * creation, like a Podman missing catatonit). Nothing it does may become a
 * verdict: `check` and `import` exit with the engine's code (75) and leave the
 * bug without a verdict, to be judged once the engine works; `inject` ends in
 * seconds with the engine's words said once; SIGTERM while the run waits to
 * try an engine again ends it within seconds, leaving nothing behind.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dockerClient } from '../../src/sandbox/docker-api/client.js';
import { Store } from '../../src/store/store.js';
import { artifactPath } from '../helpers/artifacts.js';
import { INJECTION_TEST_FLAGS } from '../helpers/check-params.js';
import { BIN, bugbench } from '../helpers/cli.js';
import { startFaultyEngine, type FaultyEngine } from '../helpers/faulty-engine.js';

const ENGINE_EXIT = 75;
const INJECT = ['inject', '--image', 'bugbench/repo-knotcfg:latest', '--strategy', 'removal', '--policy', 'offline', '--seed', '5', ...INJECTION_TEST_FLAGS];
const times = (text: string, part: string) => text.split(part).length - 1;

let same: FaultyEngine;
let varying: FaultyEngine;

beforeAll(async () => {
  same = await startFaultyEngine({ refuseCreates: true });
  varying = await startFaultyEngine({ refuseCreates: true, varying: true });
});
afterAll(async () => {
  await same.close();
  await varying.close();
});

describe('an engine that refuses every container', () => {
  it('gives no verdict: check and import exit 75, the bug stays unjudged, and a working engine judges it later', async () => {
    const home = mkdtempSync(join(tmpdir(), 'bugbench-refused-'));
    const env = { BUGBENCH_HOME: home, DOCKER_HOST: same.host };
    const imported = await bugbench(['import', artifactPath('valid-two-files'), '--json'], { env });
    expect(imported.exitCode, imported.stderr).toBe(ENGINE_EXIT);
    expect(imported.stderr).toMatch(/^bugbench: the engine could not (create|start) a container: crun: setrlimit/m);
    const store = Store.open({ root: home });
    const [bug] = store.all('bugs');
    expect(bug).toMatchObject({ status: 'cancelled', check: { valid: false, cancelled: true, failedCheck: null } });

    // check of the stored bug: the engine's message once, the check it stopped cancelled, no verdict.
    const checked = await bugbench(['check', bug!.id], { env });
    expect(checked.exitCode).toBe(ENGINE_EXIT);
    expect(times(checked.stdout + checked.stderr, 'setrlimit')).toBe(1);
    expect(checked.stdout).toMatch(/^○ test-files +no verdict: the engine could not create a container/m);
    expect(checked.stdout).not.toMatch(/✗/);
    expect(Store.open({ root: home }).get('bugs', bug!.id)).toMatchObject({ status: 'cancelled' });
    // The same for an artifact folder.
    const folder = await bugbench(['check', artifactPath('valid-two-files'), '--json'], { env });
    expect(folder.exitCode).toBe(ENGINE_EXIT);

    const later = await bugbench(['check', bug!.id, '--json'], { env: { BUGBENCH_HOME: home, DOCKER_HOST: '' } });
    expect(later.exitCode, later.stderr).toBe(0);
    expect(JSON.parse(later.stdout).valid).toBe(true);
    expect(Store.open({ root: home }).get('bugs', bug!.id)).toMatchObject({ status: 'valid' });
  }, 240_000);

  it('is named by doctor as unable to run containers, with what it lacks', async () => {
    const noInit = await startFaultyEngine({ refuseCreates: true, message: 'container-init binary not found on the host: stat /usr/libexec/podman/catatonit: no such file or directory' });
    try {
      const env = { DOCKER_HOST: noInit.host };
      const text = await bugbench(['doctor'], { env });
      expect(text.exitCode).toBe(1);
      expect(text.stdout).toMatch(/^FAILS +engine e1 cannot run bugbench's containers: container-init binary not found on the host/m);
      expect(text.stdout).toMatch(/^MISSING engine e1 needs catatonit, the init process Podman puts in containers \(apt-get install catatonit\)$/m);
      const report = JSON.parse((await bugbench(['doctor', '--json'], { env })).stdout);
      expect(report.engines[0]).toMatchObject({ ok: true, containers: { ok: false }, missing: [expect.stringContaining('catatonit')] });
    } finally {
      await noInit.close();
    }
  });

  it('ends inject -n 2 within seconds with the engine\'s words once, its rollouts left to resume', async () => {
    const home = mkdtempSync(join(tmpdir(), 'bugbench-refused-'));
    const started = Date.now();
    const run = await bugbench([...INJECT, '-n', '2'], { env: { BUGBENCH_HOME: home, DOCKER_HOST: same.host }, timeout: 30_000 });
    const took = Date.now() - started;
    expect(run.exitCode, run.stderr).toBe(ENGINE_EXIT);
    expect(took).toBeLessThan(30_000);
    expect(run.stderr).toMatch(/engine e1 could not make a container for run-\S+-r\d; trying again in 2 s/);
    expect(run.stderr).toMatch(/^engine e1 is left out of this run$/m);
    expect(run.stderr).toMatch(/^bugbench: no engine is left for this work \(engine e1: it refused containers twice in a row with the same error: crun: setrlimit/m);
    expect(times(run.stderr, 'setrlimit')).toBe(1);
    const store = Store.open({ root: home });
    const [record] = store.all('runs');
    expect(record).toMatchObject({ status: 'failed' });
    // Nothing was judged: the rollouts are there for `inject --resume` once the engine works.
    expect(store.all('rollouts').map((r) => r.status).sort()).toEqual(['interrupted', 'interrupted']);
    expect(store.all('bugs')).toEqual([]);
  }, 60_000);

  it('stops within 10 s on SIGTERM while the run waits to try the engine again, and leaves nothing behind', async () => {
    const home = mkdtempSync(join(tmpdir(), 'bugbench-refused-'));
    // Each refusal in new words: the engine is tried again after 2 s, 4 s, … instead of being left out.
    const child = execa('node', [BIN, ...INJECT, '-n', '2'], { env: { BUGBENCH_HOME: home, DOCKER_HOST: varying.host }, reject: false });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await vi.waitFor(() => expect(stderr).toMatch(/trying again in \d+ s/), { timeout: 60_000, interval: 100 });
    const sent = Date.now();
    child.kill('SIGTERM');
    const done = await child;
    // Waiting out the tries (2 s, 4 s, 8 s, … each refused in new words) would take longer; a busy machine's clean-up takes seconds.
    expect(Date.now() - sent).toBeLessThan(10_000);
    expect(done.exitCode, stderr).toBe(130);
    expect(stderr).not.toMatch(/left out of this run/);
    const store = Store.open({ root: home });
    const [record] = store.all('runs');
    expect(record).toMatchObject({ status: 'cancelled' });
    for (const r of store.all('rollouts')) expect(['cancelled', 'interrupted', 'pending']).toContain(r.status);
    // No container of the run on the engine behind it, and the process is gone.
    const containers = await dockerClient().listContainers({ all: true, filters: { label: ['bugbench.run'] } });
    expect(containers.filter((c) => c.Labels['bugbench.run']!.startsWith(record!.id))).toEqual([]);
    expect(() => process.kill(child.pid!, 0)).toThrow();
  }, 90_000);
});

describe('an engine that is slow to describe itself', () => {
  it('is up for doctor and runs checks when it takes seconds over /info, as a loaded Podman does', async () => {
    // The ping answers at once; the 3 s a ping may take must not bound the slower questions.
    const slow = await startFaultyEngine({ slowInfoMs: 4500 });
    try {
      const env = { DOCKER_HOST: slow.host };
      const report = JSON.parse((await bugbench(['doctor', '--json'], { env })).stdout);
      expect(report.engine).toMatchObject({ ok: true });
      expect(report.engines[0]).toMatchObject({ ok: true, product: 'docker', kind: expect.stringMatching(/^Docker /) });
      const checked = await bugbench(['check', artifactPath('valid-two-files'), '--json'], { env: { ...env, BUGBENCH_HOME: mkdtempSync(join(tmpdir(), 'bugbench-slow-info-')) } });
      expect(checked.exitCode, checked.stderr).toBe(0);
    } finally {
      await slow.close();
    }
  }, 120_000);
});

describe('an engine that is not there', () => {
  it('is said so, with what to do, by every command that needs it (exit 75, not an unexpected error a script reads as "invalid")', async () => {
    const home = mkdtempSync(join(tmpdir(), 'bugbench-no-engine-'));
    const artifact = artifactPath('valid-two-files');
    const commands = [
      ['check', artifact, '--json'],
      ['check', 'knotcfg-removal-00000000', '--json'],
      ['import', artifact, '--json'],
      [...INJECT, '--json'],
      ['images', '--json'],
      ['verify-export', home, '--json'],
    ];
    for (const host of ['unix:///nonexistent/docker.sock', 'tcp://127.0.0.1:1']) {
      for (const args of commands) {
        const result = await bugbench(args, { env: { BUGBENCH_HOME: home, DOCKER_HOST: host } });
        const said = `${host} ${args.join(' ')}: ${result.stderr}`;
        expect(result.exitCode, said).toBe(ENGINE_EXIT);
        expect(result.stderr, said).toContain(`bugbench: no container engine answers at ${host} (connect `);
        expect(result.stderr, said).toContain('bugbench doctor --fix');
        expect(JSON.parse(result.stdout).error, said).toMatchObject({ code: 'BB_ENGINE_UNREACHABLE', exitCode: ENGINE_EXIT });
      }
    }
    // Nothing was recorded of work that never reached an engine.
    expect((await bugbench(['bugs', '--json'], { env: { BUGBENCH_HOME: home } })).stdout.trim()).toBe('[]');
  }, 120_000);
});
