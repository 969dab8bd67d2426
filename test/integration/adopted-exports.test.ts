/**
 * Exports of bugs made on an image bugbench did not build: the SWE-bench
 * look-alike (/testbed, the interpreter only in the conda-style environment
 * its login shell activates, a branch, tag and stash past HEAD) is adopted,
 * injected into offline, and exported; every Harbor task then runs in
 * Harbor's trial order (test/helpers/harbor-trial.ts) as the image's user:
 * reward 1 for the oracle, 0 for no change. The built environments hold one
 * commit and nothing from past HEAD, and RL rows give the image's root.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bugbench } from '../helpers/cli.js';
import { INJECTION_TEST_FLAGS } from '../helpers/check-params.js';
import { buildEnvironment, removeImage, runTrial, startEnvironment } from '../helpers/harbor-trial.js';
import { buildSwebenchLookalike, FUTURE_MARKER, removeAdoptions } from '../helpers/lookalike-images.js';

const ROOT_IMAGE = 'sweb.eval.x86_64.knotcfg__knotcfg-exports:latest';
const env = { BUGBENCH_HOME: mkdtempSync(join(tmpdir(), 'bugbench-adopted-exports-')) };
const built: string[] = [];

const json = async (...args: string[]) => {
  const result = await bugbench([...args, '--json'], { env, timeout: 600_000 });
  expect(result.exitCode, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
};

/** Adopts `image`, makes offline bugs on it, accepts the valid ones and exports them as Harbor tasks; returns the folder and the ids. */
async function exported(image: string): Promise<{ out: string; ids: string[] }> {
  await json('images', 'add', image);
  const run = await json('inject', '--image', image, '--strategy', 'removal', '--policy', 'offline', '-n', '2', '--seed', '11', ...INJECTION_TEST_FLAGS);
  const ids: string[] = run.bugs.filter((b: { valid: boolean }) => b.valid).map((b: { id: string }) => b.id);
  expect(ids.length, JSON.stringify(run.rollouts, null, 1)).toBeGreaterThanOrEqual(1);
  for (const id of ids) await json('accept', id, '--reason', 'for the export of an adopted image');
  const out = join(mkdtempSync(join(tmpdir(), 'bugbench-adopted-harbor-')), 'tasks');
  const result = await json('export', '--format', 'harbor', '--image', image, '--out', out);
  expect(result).toMatchObject({ count: ids.length, skipped: [] });
  return { out, ids };
}

/** Every file of a container of `tag` (outside /proc, /sys, /dev) that holds FUTURE_MARKER. */
async function holdingTheFuture(tag: string): Promise<string> {
  const sandbox = await startEnvironment(tag, 'test-adopted-future');
  try {
    const found = await sandbox.exec(`grep -rlF ${FUTURE_MARKER} / --exclude-dir=proc --exclude-dir=sys --exclude-dir=dev 2>/dev/null; git log --all --format=%B; git tag; git stash list`, { workdir: '/testbed', timeoutMs: 300_000 });
    return found.stdout;
  } finally {
    await sandbox.remove();
  }
}

beforeAll(async () => {
  await buildSwebenchLookalike(ROOT_IMAGE);
}, 300_000);

afterAll(async () => {
  for (const tag of built) await removeImage(tag);
  await removeAdoptions(env.BUGBENCH_HOME, [ROOT_IMAGE]);
});

describe.each([{ image: ROOT_IMAGE, user: 'root' }])('the exports of bugs on an adopted image running as $user', ({ image, user }) => {
  let out = '';
  let ids: string[] = [];

  beforeAll(async () => {
    ({ out, ids } = await exported(image));
  }, 1_200_000);

  it('are Harbor tasks FROM the image by its own name, at /testbed, that give the oracle 1 and no change 0 as its user', async () => {
    for (const id of ids) {
      const dockerfile = readFileSync(join(out, id, 'environment', 'Dockerfile'), 'utf8');
      expect(dockerfile).toMatch(new RegExp(`^FROM ${image.replace(/[.]/g, '\\.')}$`, 'm'));
      expect(dockerfile).toMatch(/^WORKDIR \/testbed$/m);
      expect(readFileSync(join(out, id, 'instruction.md'), 'utf8')).toContain('/testbed');
      expect(JSON.parse(readFileSync(join(out, id, 'tests', 'spec.json'), 'utf8')).repo_dir).toBe('/testbed');

      const tag = `bugbench-test-adopted-harbor/${id}:trial`;
      await buildEnvironment(join(out, id), tag);
      built.push(tag);
      const oracle = await runTrial(join(out, id), tag, 'oracle');
      expect(oracle, `${id}: ${oracle.testStdout}`).toMatchObject({ reward: 1, results: { solved: true, failing: [] } });
      const untouched = await runTrial(join(out, id), tag, 'nothing');
      expect(untouched.reward, `${id}: ${untouched.testStdout}`).toBe(0);
      expect(untouched.results.failing.length).toBeGreaterThan(0);

      const sandbox = await startEnvironment(tag, 'test-adopted-who');
      try {
        expect((await sandbox.run('id -un; stat -c %U /testbed /testbed/.git; git rev-list --all | wc -l', { env: { GIT_CONFIG_COUNT: '0' } })).stdout.trim().split('\n')).toEqual([user, user, user, '1']);
      } finally {
        await sandbox.remove();
      }
      expect(await holdingTheFuture(tag)).not.toContain(FUTURE_MARKER);
    }
  }, 1_200_000);

  it('are RL rows whose workdir is the image\'s root, with its image name', async () => {
    const result = await bugbench(['export', '--format', 'rl', '--image', image, '--out', '-'], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    const rows = result.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(rows.length).toBe(ids.length);
    for (const row of rows) expect(row).toMatchObject({ image, workdir: '/testbed', instance: { image_name: image } });
    expect(result.stdout).not.toContain(FUTURE_MARKER);
  }, 300_000);
});
