/**
 * One run over a corpus of images: bugbench's own knotcfg and slotsmith
 * images and a SWE-bench look-alike it adopts on first use. The rollouts are
 * dealt round-robin from the seed, each makes its bug on its own image, and a
 * run stopped with Ctrl-C resumes each rollout on the image it was given.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageOfRollout } from '../../src/pipeline/corpus.js';
import { Store } from '../../src/store/store.js';
import { BIN, bugbench as run } from '../helpers/cli.js';
import { INJECTION_TEST_FLAGS } from '../helpers/check-params.js';
import { buildSwebenchLookalike, removeAdoptions } from '../helpers/lookalike-images.js';

const SWEB = 'sweb.eval.x86_64.knotcfg__knotcfg-corpus:latest';
const IMAGES = ['bugbench/repo-knotcfg:latest', 'bugbench/repo-slotsmith:latest', SWEB];

// A workspace of its own: adoptions and bugs of other runs play no part.
const HOME = mkdtempSync(join(tmpdir(), 'bugbench-corpus-'));
const env = { BUGBENCH_HOME: HOME };
const bugbench = (args: string[], options: { timeout?: number } = {}) => run(args, { ...options, env });
const LIST = join(HOME, 'images.txt');
/** The image a rollout's container was made from, as its trajectory's first event says. */
const startedOn = (trajectory: string) => (JSON.parse(readFileSync(trajectory, 'utf8').split('\n')[0]!) as { type: string; image: string }).image;
const assigned = (seed: number, n: number) => Array.from({ length: n }, (_, i) => imageOfRollout({ image: IMAGES[0]!, images: IMAGES, seed }, i));

describe('a run over a corpus of images', () => {
  beforeAll(async () => {
    await buildSwebenchLookalike(SWEB);
    writeFileSync(LIST, `# bugbench's own images\n${IMAGES[0]}\n${IMAGES[1]}\n\n# adopted on first use\n${SWEB}\n`);
  }, 300_000);

  afterAll(async () => {
    await removeAdoptions(HOME, [SWEB]);
  });

  it('puts one rollout on each image, with its bug, and counts bugs per image', async () => {
    const injected = await bugbench(['inject', '--images', LIST, '-n', '3', '--seed', '1', '--policy', 'offline', '--strategy', 'removal', '--json', ...INJECTION_TEST_FLAGS], { timeout: 600_000 });
    expect(injected.exitCode, injected.stderr).toBe(0);
    const result = JSON.parse(injected.stdout);
    // Seed 1 starts at the second image.
    expect(assigned(1, 3)).toEqual([IMAGES[1], IMAGES[2], IMAGES[0]]);
    expect(result.rollouts.map((r: { image: string }) => r.image)).toEqual(assigned(1, 3));
    expect(result.rollouts.map((r: { reason: string }) => r.reason)).toEqual(['submitted', 'submitted', 'submitted']);
    // Each rollout's agent worked in a container of its image.
    expect(result.rollouts.map((r: { trajectory: string }) => startedOn(r.trajectory))).toEqual(assigned(1, 3));

    const store = Store.open({ root: HOME });
    const bugs = result.bugs.map((b: { id: string }) => store.get('bugs', b.id)!);
    expect(bugs.map((b: { image: string }) => b.image)).toEqual(assigned(1, 3));
    expect(bugs.map((b: { status: string }) => b.status)).toEqual(['valid', 'valid', 'valid']);
    expect(store.get('runs', result.runId)).toMatchObject({ image: IMAGES[0], images: IMAGES });

    const listed = JSON.parse((await bugbench(['images', '--json'])).stdout) as { tag: string; bugCounts: Record<string, number>; adopted: boolean }[];
    for (const image of IMAGES) expect(listed.find((i) => i.tag === image)?.bugCounts, image).toMatchObject({ valid: 1 });
    expect(listed.find((i) => i.tag === SWEB)?.adopted).toBe(true);

    const runs = await bugbench(['runs']);
    expect(runs.stdout).toMatch(new RegExp(`${result.runId}\\s+inject\\s+finished\\s+3 images\\s+removal`));
  }, 900_000);

  it('stops on Ctrl-C after the first rollout and resumes the rest, each on its own image', async () => {
    // Four rollouts: seed 2 deals them SWEB, knotcfg, slotsmith, SWEB, so those left after the first are on all three images.
    const child = execa('node', [BIN, 'inject', '--images', LIST, '-n', '4', '--concurrency', '2', '--seed', '2', '--policy', 'offline', '--strategy', 'removal', ...INJECTION_TEST_FLAGS], { env, reject: false });
    let stderr = '';
    await new Promise<void>((resolve, reject) => {
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        // The first rollout has finished and its bug has its verdict.
        if (/\[r\d\] bug \S+: [A-Z]+/.test(stderr)) resolve();
      });
      void child.then(() => reject(new Error(`inject ended before a bug had its verdict:\n${stderr}`)));
    });
    child.kill('SIGINT');
    const stopped = await child;
    expect(stopped.exitCode).toBe(130);
    const runId = /run-\d{8}-\d{6}-[0-9a-f]{4}/.exec(stopped.stdout)![0];

    let store = Store.open({ root: HOME });
    expect(store.get('runs', runId)).toMatchObject({ status: 'cancelled', images: IMAGES });
    const rollouts = () => store.all('rollouts').filter((r) => r.runId === runId).sort((a, b) => a.index - b.index);
    // Every rollout was given its image when the run was recorded.
    expect(rollouts().map((r) => r.image)).toEqual(assigned(2, 4));
    const finished = rollouts().filter((r) => r.status === 'submitted').length;
    expect(finished).toBeGreaterThanOrEqual(1);
    expect(finished).toBeLessThan(4);

    const resumed = await bugbench(['inject', '--resume', runId, '--json'], { timeout: 900_000 });
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    const result = JSON.parse(resumed.stdout);
    expect(result).toMatchObject({ runId, status: 'finished' });
    expect(result.rollouts.map((r: { reason: string }) => r.reason)).toEqual(Array(4).fill('submitted'));
    expect(result.rollouts.map((r: { image: string }) => r.image)).toEqual(assigned(2, 4));
    store = Store.open({ root: HOME });
    const bugImages = rollouts().map((r) => store.get('bugs', r.bugId!)!.image);
    expect(bugImages).toEqual(assigned(2, 4));
    // What the resume ran, it ran in containers of the image each rollout was given.
    expect(result.rollouts.map((r: { trajectory: string }) => startedOn(r.trajectory))).toEqual(assigned(2, 4));
  }, 1_500_000);

  it('stops before any container starts when an image of the list does not exist, naming it, with nothing recorded', async () => {
    const list = join(HOME, 'with-a-typo.txt');
    writeFileSync(list, `${IMAGES[0]}\nbugbench/repo-nope:latest\n`);
    const runsBefore = Store.open({ root: HOME }).all('runs').length;
    const refused = await bugbench(['inject', '--images', list, '-n', '2', '--policy', 'offline', '--strategy', 'removal']);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/image bugbench\/repo-nope:latest does not exist/);
    expect(Store.open({ root: HOME }).all('runs')).toHaveLength(runsBefore);
    const twice = await bugbench(['inject', '--images', list, '--image', 'bugbench/repo-nope:latest', '--policy', 'offline', '--strategy', 'removal']);
    expect(twice.exitCode).toBe(2);
    expect(twice.stderr.trim()).toBe('bugbench: inject: image bugbench/repo-nope:latest is named twice; name each image of the run once');
  });
});
