/**
 * Injection over two real Docker engines on this machine: the default one and
 * a second dockerd (scripts/second-engine-up) that starts without the image.
 * The same four offline rollouts (same seed) run on one engine, then on two
 * while the second one is stopped and started again mid-run; both runs must
 * make the same bugs with the same verdicts.
 */
import { render } from 'ink-testing-library';
import { createElement } from 'react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runInjection, type InjectResult } from '../../src/pipeline/inject.js';
import { DEFAULT_SOLVE, solveBug } from '../../src/pipeline/solve.js';
import type { RunEngineEvent } from '../../src/pipeline/run-engines.js';
import { dockerClient } from '../../src/sandbox/docker-api/client.js';
import { engineStatuses } from '../../src/sandbox/engines.js';
import { listRepoImages } from '../../src/sandbox/repo-images.js';
import { ImagesScreen } from '../../src/ui/images-screen.js';
import { initialState, type ViewState } from '../../src/ui/state.js';
import { initialImageBuild } from '../../src/ui/use-image-build.js';
import { openStore } from '../../src/store/store.js';
import { INJECTION_TEST_PARAMS } from '../helpers/check-params.js';
import { bugbench } from '../helpers/cli.js';
import { startSecondEngine, stopEngineNow, stopSecondEngine } from '../helpers/second-engine.js';
import { engineAt } from '../../src/sandbox/engine-table.js';

const IMAGE = 'bugbench/repo-knotcfg:latest';
const FIRST = 'unix:///var/run/docker.sock';
let second = '';
const savedHost = process.env.DOCKER_HOST;

const inject = (onEngineEvent?: (event: RunEngineEvent) => void) =>
  runInjection({ image: IMAGE, strategy: 'removal', policy: 'offline', n: 4, concurrency: 2, seed: 11, params: INJECTION_TEST_PARAMS, maxSteps: 100 }, { store: openStore() }, (event) => {
    if (event.type === 'engine') onEngineEvent?.(event.event);
  });

/** Per rollout index: how it ended, its bug's fingerprint and the checks' verdict. */
function outcome(result: InjectResult): string[] {
  const store = openStore();
  return result.rollouts.map((r) => {
    const bug = r.bugId ? store.get('bugs', r.bugId) : undefined;
    // A bug made again later is a `duplicate` of the first: compare the checks' verdicts.
    const verdict = bug?.check ? (bug.check.valid ? 'valid' : `invalid (${bug.check.failedCheck})`) : '-';
    return `${r.reason} ${bug?.fingerprint ?? '-'} ${verdict}`;
  });
}

/** The Images screen's frame with the knotcfg image selected and the engines as they are now. */
async function imagesScreen(): Promise<string> {
  const images = await listRepoImages(engineAt(FIRST));
  const state: ViewState = { ...initialState, ready: true, images, engines: await engineStatuses(), cursor: images.findIndex((i) => i.tag === IMAGE) };
  const frame = render(createElement(ImagesScreen, { state, build: initialImageBuild, rows: 40, columns: 120 }));
  try {
    return frame.lastFrame() ?? '';
  } finally {
    frame.unmount();
  }
}

const containersOfRun = async (host: string, runId: string) =>
  (await dockerClient(host).listContainers({ all: true, filters: { label: ['bugbench.run'] } })).filter((c) => c.Labels['bugbench.run']!.startsWith(runId));

describe('several Docker engines', () => {
  beforeAll(async () => {
    second = await startSecondEngine();
    // The second engine starts without the image: the run must copy it there.
    await dockerClient(second).getImage(IMAGE).remove({ force: true }).catch(() => undefined);
  });
  afterAll(async () => {
    if (savedHost === undefined) delete process.env.DOCKER_HOST;
    else process.env.DOCKER_HOST = savedHost;
    await stopSecondEngine();
  });

  it('makes the same bugs on two engines as on one, after copying the image to the second, and loses none when the second stops mid-run', async () => {
    process.env.DOCKER_HOST = FIRST;
    const oneEngine = outcome(await inject());
    expect(oneEngine.filter((o) => o.startsWith('submitted'))).toHaveLength(4);

    process.env.DOCKER_HOST = `${FIRST}?slots=1,${second}?slots=1&name=second`;
    // The Images screen says the second engine lacks the image and gets it when a run starts.
    const before = await imagesScreen();
    expect(before).toContain('on e1; second gets a copy when a run starts');
    expect(before).toMatch(/engines: e1 ✓ \S+, 1 slot · second ✓ \S+, 1 slot/);
    const events: RunEngineEvent[] = [];
    const running = inject((event) => events.push(event));
    // Once the second engine has the copy and one of its rollouts is under way, stop it, then bring it back.
    await vi.waitFor(
      () => {
        const store = openStore();
        store.refresh();
        const onSecond = store.all('rollouts').find((r) => r.engine === 'second' && r.status === 'running' && r.startedAt && Date.now() - Date.parse(r.startedAt) > 2000);
        expect(onSecond).toBeDefined();
      },
      { timeout: 120_000, interval: 250 },
    );
    await stopEngineNow();
    await startSecondEngine();
    const result = await running;
    const seen = JSON.stringify(events.filter((e) => e.type !== 'image-copy-progress'));

    // The image was copied to the second engine before any work was placed.
    const copied = events.find((e) => e.type === 'image-copy-finished');
    expect(copied, seen).toMatchObject({ image: IMAGE, from: 'e1', to: 'second' });
    const started = events.findIndex((e) => e.type === 'image-copy-started');
    expect(events.findIndex((e) => e.type === 'placed')).toBeGreaterThan(started);
    expect((await dockerClient(second).getImage(IMAGE).inspect()).Id).toBe((await dockerClient(FIRST).getImage(IMAGE).inspect()).Id);

    // The same bugs with the same verdicts as on one engine, though the second engine went away mid-run.
    expect(outcome(result)).toEqual(oneEngine);
    const down = events.find((e) => e.type === 'engine-down');
    expect(down, seen).toMatchObject({ engine: 'second' });
    const lost = down && down.type === 'engine-down' ? down.lost : [];
    expect(lost.length).toBeGreaterThan(0);
    expect(events.some((e) => e.type === 'engine-back' && e.engine === 'second')).toBe(true);
    const store = openStore();
    const rollouts = store.all('rollouts').filter((r) => r.runId === result.runId);
    expect(rollouts.filter((r) => (r.tries ?? 0) > 1).length).toBeGreaterThan(0);
    // Both engines took work: the second one the rollout it lost (waited for above), the first at least one.
    expect(rollouts.filter((r) => r.engine === 'e1').length, seen).toBeGreaterThanOrEqual(1);
    expect(rollouts.map((r) => r.engine)).toHaveLength(4);
    expect(await containersOfRun(second, result.runId)).toEqual([]);
    expect(await containersOfRun(FIRST, result.runId)).toEqual([]);
    expect(await imagesScreen()).toMatch(/on e1, second(?!;)/);

    // doctor lists both engines, with the image now on each.
    const doctor = await bugbench(['doctor', '--json'], { env: { DOCKER_HOST: process.env.DOCKER_HOST } });
    const report = JSON.parse(doctor.stdout);
    expect(report.engines.map((e: { name: string; slots: number; ok: boolean }) => [e.name, e.slots, e.ok])).toEqual([
      ['e1', 1, true],
      ['second', 1, true],
    ]);
    for (const engine of report.engines) expect(engine.images.map((i: { tag: string }) => i.tag)).toContain(IMAGE);
    const text = await bugbench(['doctor'], { env: { DOCKER_HOST: process.env.DOCKER_HOST } });
    expect(text.stdout).toMatch(/^ok +engine second at unix:\/\/\S+: Docker \S+, 1 slot\(s\); .*bugbench\/repo-knotcfg:latest/m);
  }, 600_000);

  it('copies every image of a corpus to an engine that lacks it before the run places work there', async () => {
    const corpus = [IMAGE, 'bugbench/repo-slotsmith:latest'];
    for (const image of corpus) await dockerClient(second).getImage(image).remove({ force: true }).catch(() => undefined);
    process.env.DOCKER_HOST = `${FIRST}?slots=1,${second}?slots=1&name=second`;
    const events: RunEngineEvent[] = [];
    const result = await runInjection(
      { image: IMAGE, images: corpus, strategy: 'removal', policy: 'offline', n: 2, concurrency: 2, seed: 0, params: INJECTION_TEST_PARAMS, maxSteps: 100 },
      { store: openStore() },
      (event) => (event.type === 'engine' ? events.push(event.event) : undefined),
    );
    const copies = events.filter((e) => e.type === 'image-copy-finished') as Extract<RunEngineEvent, { type: 'image-copy-finished' }>[];
    expect(copies.map((e) => [e.image, e.to]).sort()).toEqual(corpus.map((image) => [image, 'second']).sort());
    const lastCopy = Math.max(...events.flatMap((e, i) => (e.type === 'image-copy-finished' ? [i] : [])));
    expect(events.findIndex((e) => e.type === 'placed')).toBeGreaterThan(lastCopy);
    for (const image of corpus) expect((await dockerClient(second).getImage(image).inspect()).Id).toBe((await dockerClient(FIRST).getImage(image).inspect()).Id);
    const store = openStore();
    expect(result.rollouts.map((r) => r.reason)).toEqual(['submitted', 'submitted']);
    expect(result.bugs.map((b) => store.get('bugs', b.id)!.image)).toEqual(corpus);
  }, 600_000);

  it('spreads solver attempts over both engines with the same results as on one', async () => {
    const store = openStore();
    const bug = store.all('bugs').find((b) => b.image === IMAGE && b.check?.valid && b.status === 'valid');
    expect(bug).toBeDefined();
    const solve = () => solveBug({ ...DEFAULT_SOLVE, bugId: bug!.id, policy: 'offline', k: 4, concurrency: 2, solver: 'mix', seed: 3 }, { store: openStore() });
    process.env.DOCKER_HOST = FIRST;
    const one = await solve();
    process.env.DOCKER_HOST = `${FIRST}?slots=1,${second}?slots=1&name=second`;
    const two = await solve();
    expect(two.attempts.map((a) => [a.solver, a.solved])).toEqual(one.attempts.map((a) => [a.solver, a.solved]));
    const engines = openStore().all('rollouts').filter((r) => r.runId === two.runId).map((r) => r.engine);
    expect(new Set(engines)).toEqual(new Set(['e1', 'second']));
    expect(await containersOfRun(second, two.runId)).toEqual([]);
  }, 300_000);
});
