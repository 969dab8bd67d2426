/**
 * Images bugbench did not build, taken as they are: a SWE-bench look-alike
 * (repository at /testbed with history past HEAD, the interpreter only in a
 * conda-style environment the login shell activates) is adopted, injected
 * into offline, and exported, and nothing from past HEAD is ever shown.
 */
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceDir } from '../../src/paths.js';
import { bugbench } from '../helpers/cli.js';
import { INJECTION_TEST_FLAGS } from '../helpers/check-params.js';
import { buildSwebenchLookalike, FUTURE_MARKER } from '../helpers/lookalike-images.js';

const SWEB = 'sweb.eval.x86_64.knotcfg__knotcfg-1:latest';
let head = '';

/** Every file of the workspace that holds `text` (trajectories, logs, artifacts, records). */
function filesHolding(text: string): string[] {
  try {
    return execSync(`grep -rlF ${JSON.stringify(text)} ${JSON.stringify(workspaceDir())}`, { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

describe('an image bugbench did not build', () => {
  beforeAll(async () => {
    ({ head } = await buildSwebenchLookalike(SWEB));
  }, 300_000);

  afterAll(() => {
    execSync(`docker rmi -f ${SWEB} >/dev/null 2>&1 || true`);
  });

  it('is adopted as it is: /testbed, its login shell\'s environment, HEAD, Python; nothing past HEAD in its snapshot', async () => {
    const added = await bugbench(['images', 'add', SWEB, '--json']);
    expect(added.exitCode, added.stderr).toBe(0);
    const record = JSON.parse(added.stdout);
    expect(record).toMatchObject({ root: '/testbed', commit: head, language: 'python', adopted: true, testCommand: 'python3 -m pytest -rA' });
    expect(record.world.env.PATH).toMatch(/^\/opt\/miniconda3\/envs\/testbed\/bin:/);
    expect(record.world.env.CONDA_DEFAULT_ENV).toBe('testbed');
    expect(added.stderr).toMatch(/removing the history past HEAD/);

    const history = execSync(`docker run --rm --network none ${record.runImage} bash -c 'cd /testbed && git log --all --format=%H%n%B && git tag && git stash list && git for-each-ref && git count-objects -v'`, { encoding: 'utf8' });
    expect(history).not.toContain(FUTURE_MARKER);
    expect(history).toContain(head);

    const listed = await bugbench(['images', '--json']);
    expect(JSON.parse(listed.stdout)).toContainEqual(expect.objectContaining({ tag: SWEB, root: '/testbed', language: 'python', adopted: true }));
  }, 300_000);

  it('makes valid bugs offline without a build step, and no trajectory, log or export holds anything from past HEAD', async () => {
    const run = await bugbench(['inject', '--image', SWEB, '--strategy', 'removal+history', '--policy', 'offline', '-n', '2', '--seed', '11', '--json', ...INJECTION_TEST_FLAGS], { timeout: 600_000 });
    expect(run.exitCode, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.yield.valid, JSON.stringify(result.rollouts, null, 1)).toBeGreaterThanOrEqual(1);
    const valid = result.bugs.find((b: { valid: boolean }) => b.valid);
    const meta = JSON.parse(readFileSync(join(valid.artifactDir, 'meta.json'), 'utf8'));
    expect(meta).toMatchObject({ baseCommit: head, image: { tag: SWEB } });
    const trajectory = readFileSync(valid.trajectory, 'utf8');
    expect(trajectory).toContain('/testbed');

    const exported = await bugbench(['export', '--format', 'swebench', '--status', 'valid', '--image', SWEB, '--out', '-']);
    expect(exported.exitCode, exported.stderr).toBe(0);
    const rows = exported.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows[0]).toMatchObject({ image_name: SWEB, base_commit: head });
    expect(exported.stdout).not.toContain(FUTURE_MARKER);
    expect(filesHolding(FUTURE_MARKER)).toEqual([]);
  }, 900_000);

  it('refuses bad input clearly and records nothing', async () => {
    const records = () => readFileSync(join(workspaceDir(), 'adopted-images.json'), 'utf8');
    const before = records();
    const missing = await bugbench(['images', 'add', 'no-such-image:nope']);
    expect(missing.exitCode).not.toBe(0);
    expect(missing.stderr).toMatch(/image no-such-image:nope does not exist/);
    const root = await bugbench(['images', 'add', SWEB, '--root', '/opt']);
    expect(root.stderr).toMatch(/--root \/opt is not the top of a git work tree/);
    const user = await bugbench(['images', 'add', SWEB, '--user', 'ghost']);
    expect(user.stderr).toMatch(/user ghost does not exist/);
    const bare = await bugbench(['images', 'add', 'bugbench/base:bookworm']);
    expect(bare.stderr).toMatch(/no git work tree at its WorkingDir .* name it with --root/);
    expect(records()).toBe(before);
  }, 300_000);
});
