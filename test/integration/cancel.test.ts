import { openStore } from '../../src/store/store.js';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHECK_PARAMS } from '../../src/bugs/meta.js';
import { runInjection } from '../../src/pipeline/inject.js';
import { dockerClient } from '../../src/sandbox/docker-api/client.js';
import { BIN } from '../helpers/cli.js';

const containersLabelled = async (prefix: string) =>
  (await dockerClient().listContainers({ all: true, filters: { label: ['bugbench.run'] } })).filter((c) => c.Labels['bugbench.run']!.startsWith(prefix));

describe('cancelling an injection', () => {
  it('stops a rollout in the middle of a tool call and removes its container', async () => {
    const controller = new AbortController();
    let runId = '';
    let abortedAt = 0;
    const result = await runInjection({
      image: 'bugbench/repo-slotsmith:latest',
      strategy: 'removal',
      policy: 'offline',
      n: 2,
      concurrency: 1,
      seed: 1,
      params: DEFAULT_CHECK_PARAMS,
      maxSteps: 100,
    }, { store: openStore(), signal: controller.signal }, (reported) => {
      if (reported.type !== 'rollout') return;
      const event = reported.event;
      if (event.type === 'rollout-started') runId = event.runId;
      // abort while the baseline test run (step 4) is under way
      if (event.type === 'tool-call-started' && event.step === 4) {
        setTimeout(() => {
          abortedAt = Date.now();
          controller.abort();
        }, 50);
      }
    });
    // Ended soon after the abort, not after the test run it interrupted (a busy machine starts containers slowly: timed from the abort).
    expect(abortedAt).toBeGreaterThan(0);
    expect(Date.now() - abortedAt).toBeLessThan(15_000);
    expect(result.status).toBe('cancelled');
    expect(result.rollouts).toHaveLength(2);
    expect(result.rollouts[0]).toMatchObject({ reason: 'cancelled', bugId: null });
    expect(result.rollouts[1]).toMatchObject({ reason: 'pending', bugId: null }); // never started: `--resume` runs it
    expect(result.bugs).toEqual([]);
    expect(await containersLabelled(runId)).toEqual([]);
  });

  it('stops `bugbench inject` on Ctrl-C with exit 130 and no container left behind', async () => {
    const child = execa('node', [BIN, 'inject', '--image', 'bugbench/repo-knotcfg:latest', '--strategy', 'history', '--policy', 'offline', '-n', '3'], {
      reject: false,
      env: { CI: 'true' },
    });
    let stderr = '';
    await new Promise<void>((resolve) => {
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (/step 3 /.test(stderr)) resolve();
      });
    });
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect(result.stderr).toMatch(/stopping the injection run/);
    expect(result.stderr).toMatch(/finished: cancelled/);
    const runId = /run-\d{8}-\d{6}-[0-9a-f]{4}/.exec(result.stdout)?.[0];
    expect(runId).toBeDefined();
    expect(await containersLabelled(runId!)).toEqual([]);
  });
});
