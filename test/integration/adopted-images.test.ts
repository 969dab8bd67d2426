/**
 * Images bugbench did not build, taken as they are: a SWE-bench look-alike
 * (repository at /testbed with history past HEAD, the interpreter only in a
 * conda-style environment the login shell activates) is adopted, injected
 * into offline, and exported, and nothing from past HEAD is ever shown.
 */
import { execSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSandbox } from '../../src/sandbox/engine-table.js';
import { bugbench as run } from '../helpers/cli.js';
import { artifactPath } from '../helpers/artifacts.js';
import { INJECTION_TEST_FLAGS } from '../helpers/check-params.js';
import { buildMovedRepoImage, buildMultiSwebenchGoLookalike, buildUnadoptableImages, buildNonRootNodeLookalike, buildNoRepoImage, buildSwebenchLookalike, FUTURE_MARKER, removeAdoptions } from '../helpers/lookalike-images.js';

const SWEB = 'sweb.eval.x86_64.knotcfg__knotcfg-1:latest';
const NODE_APP = 'example/vercraft-app:1.0';
const NO_REPO = 'example/no-repo:1.0';
const GO_IMAGE = 'mswebench/example_m_ratekit:pr-1';
const MOVED = 'example/knotcfg-moved:1';
const NO_BASH = 'example/no-bash:1';
const READ_ONLY = 'example/read-only-repo:1';
let head = '';

// A workspace of its own: adoptions, bugs and duplicates of earlier runs of this file play no part.
const HOME = mkdtempSync(join(tmpdir(), 'bugbench-adopted-'));
const bugbench = (args: string[], options: { timeout?: number } = {}) => run(args, { ...options, env: { BUGBENCH_HOME: HOME } });

/** Every file of the workspace that holds `text` (trajectories, logs, artifacts, records). */
function filesHolding(text: string): string[] {
  try {
    return execSync(`grep -rlF ${JSON.stringify(text)} ${JSON.stringify(HOME)}`, { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

describe('an image bugbench did not build', () => {
  beforeAll(async () => {
    ({ head } = await buildSwebenchLookalike(SWEB));
    await buildNonRootNodeLookalike(NODE_APP);
    await buildNoRepoImage(NO_REPO);
    await buildMultiSwebenchGoLookalike(GO_IMAGE);
    await buildMovedRepoImage(MOVED);
    await buildUnadoptableImages(NO_BASH, READ_ONLY);
  }, 300_000);

  afterAll(async () => {
    // The images and the snapshots their adoptions made.
    await removeAdoptions(HOME, [SWEB, NODE_APP, NO_REPO, GO_IMAGE, MOVED, NO_BASH, READ_ONLY]);
  });

  it('is adopted as it is: /testbed, its login shell\'s environment, HEAD, Python; nothing past HEAD in its snapshot', async () => {
    const added = await bugbench(['images', 'add', SWEB, '--json']);
    expect(added.exitCode, added.stderr).toBe(0);
    const record = JSON.parse(added.stdout);
    expect(record).toMatchObject({ root: '/testbed', commit: head, language: 'python', adopted: true, testCommand: 'python3 -m pytest -rA' });
    expect(record.world.env.PATH).toMatch(/^\/opt\/miniconda3\/envs\/testbed\/bin:/);
    expect(record.world.env.CONDA_DEFAULT_ENV).toBe('testbed');
    expect(added.stderr).toMatch(/removing the history past HEAD/);
    // The edit to a tracked file is named; the untracked egg-info and the modes are kept out of every reset and diff.
    expect(added.stderr).toContain('warning: its work tree differs from HEAD in 1 tracked file(s) (pyproject.toml)');
    expect(added.stderr).toMatch(/git is set to ignore the executable bit there/);
    const reset = execSync(`docker run --rm --network none --entrypoint bash ${record.runImage} -c 'cd /testbed && git reset -q --hard && git clean -q -fd && git status --short && cat knotcfg.egg-info/PKG-INFO'`, { encoding: 'utf8' });
    expect(reset).toBe('Name: knotcfg\n');

    const history = execSync(`docker run --rm --network none ${record.runImage} bash -c 'cd /testbed && git log --all --format=%H%n%B && git tag && git stash list && git for-each-ref && git count-objects -v'`, { encoding: 'utf8' });
    expect(history).not.toContain(FUTURE_MARKER);
    expect(history).toContain(head);

    const listed = await bugbench(['images', '--json']);
    expect(JSON.parse(listed.stdout)).toContainEqual(expect.objectContaining({ tag: SWEB, root: '/testbed', language: 'python', adopted: true, warning: expect.stringMatching(/differs from HEAD in 1 tracked file/) }));
  }, 300_000);

  it('makes valid bugs offline without a build step, and no trajectory, log or export holds anything from past HEAD', async () => {
    const run = await bugbench(['inject', '--image', SWEB, '--strategy', 'removal+history', '--policy', 'offline', '-n', '2', '--seed', '11', '--json', ...INJECTION_TEST_FLAGS], { timeout: 600_000 });
    expect(run.exitCode, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    // Valid by its checks (a bug an earlier run of the same seed made is valid too, and recorded as a duplicate).
    expect(result.bugs.filter((b: { valid: boolean }) => b.valid).length, JSON.stringify(result.rollouts, null, 1)).toBeGreaterThanOrEqual(1);
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
    const records = () => (existsSync(join(HOME, 'adopted-images.json')) ? readFileSync(join(HOME, 'adopted-images.json'), 'utf8') : '');
    const before = records();
    const missing = await bugbench(['images', 'add', 'no-such-image:nope']);
    expect(missing.exitCode).not.toBe(0);
    expect(missing.stderr).toMatch(/image no-such-image:nope does not exist/);
    const root = await bugbench(['images', 'add', SWEB, '--root', '/opt']);
    expect(root.stderr).toMatch(/--root \/opt is not the top of a git work tree/);
    const user = await bugbench(['images', 'add', SWEB, '--user', 'ghost']);
    expect(user.stderr).toMatch(/user ghost does not exist/);
    const bare = await bugbench(['images', 'add', NO_REPO]);
    expect(bare.stderr).toMatch(/no git work tree at its WorkingDir \(\/srv\) or .* name it with --root/);
    const ours = await bugbench(['images', 'add', 'bugbench/base:bookworm']);
    expect(ours.stderr).toMatch(/bugbench built it \(or it was made FROM an image bugbench built, whose labels it carries\); it needs no adopting, unless it moved the repository or changed the user: then name them with --root and --user/);
    const noBash = await bugbench(['images', 'add', NO_BASH]);
    expect(noBash.stderr.trim().split('\n').at(-1)).toBe(`bugbench: cannot adopt ${NO_BASH}: it has no bash, which bugbench runs every command with; add it to the image (on Alpine: apk add bash)`);
    const readOnly = await bugbench(['images', 'add', READ_ONLY]);
    expect(readOnly.stderr).toMatch(/its repository at \/testbed is not writable by app \(uid \d+\), whom commands run as; adopt it with --user root/);
    expect(records()).toBe(before);
    // Nor any snapshot: the image with no work tree was never adopted.
    expect(execSync("docker images -q --filter reference='bugbench/adopted-example-no-repo'", { encoding: 'utf8' }).trim()).toBe('');
  }, 300_000);

  it('adopts an image made FROM one bugbench built once told where it moved the repository, and checks a bug there', async () => {
    const refused = await bugbench(['images', 'add', MOVED]);
    expect(refused.stderr).toMatch(/it needs no adopting, unless it moved the repository or changed the user/);
    const added = await bugbench(['images', 'add', MOVED, '--root', '/testbed', '--json']);
    expect(added.exitCode, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ root: '/testbed', adopted: true });
    const checked = await bugbench(['check', artifactPath('valid-two-files'), '--image', MOVED, '--buggy-runs', '2', '--json'], { timeout: 300_000 });
    expect(JSON.parse(checked.stdout).valid, checked.stderr.slice(-2000)).toBe(true);
  }, 300_000);

  it('runs as the image\'s own user: a non-root JavaScript image makes a valid bug, and every file bugbench wrote is that user\'s', async () => {
    const added = await bugbench(['images', 'add', NODE_APP, '--again']);
    expect(added.stderr).toMatch(/found the repository at \/home\/app\/vercraft \(app, uid 1000\)/);
    // Seed 7 takes three tries to a two-file bug (seed 11 took six to a three-file one, each try a tsc build and test run).
    const run = await bugbench(['inject', '--image', NODE_APP, '--strategy', 'removal', '--policy', 'offline', '-n', '1', '--seed', '7', '--json', ...INJECTION_TEST_FLAGS], { timeout: 600_000 });
    expect(run.exitCode, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.bugs.filter((b: { valid: boolean }) => b.valid).length, JSON.stringify(result.rollouts, null, 1)).toBe(1);
    // The TypeScript removal run of offline-languages.test.ts, on the same vercraft tree: the weakening deletes
    // tests from the TypeScript test files only, and the bug stays out of them.
    const dir = result.bugs.find((b: { valid: boolean }) => b.valid).artifactDir;
    const touched = (diff: string) => [...readFileSync(join(dir, diff), 'utf8').matchAll(/^diff --git a\/(\S+)/gm)].map((m) => m[1]!);
    expect(touched('test_weaken.diff').length).toBeGreaterThan(0);
    expect(touched('test_weaken.diff').every((f) => /^test\/.*\.test\.ts$/.test(f))).toBe(true);
    expect(touched('bug_inject.diff').some((f) => /^test\/.*\.test\.ts$/.test(f))).toBe(false);
    const listed = JSON.parse((await bugbench(['images', '--json'])).stdout);
    expect(listed).toContainEqual(expect.objectContaining({ tag: NODE_APP, root: '/home/app/vercraft', language: 'node', adopted: true }));

    const home = process.env.BUGBENCH_HOME;
    process.env.BUGBENCH_HOME = HOME; // the adoption recorded there
    const sandbox = await openSandbox({ image: NODE_APP, runId: 'test-adopted-owner' }).finally(() => (process.env.BUGBENCH_HOME = home));
    try {
      await sandbox.writeFiles([
        { path: 'src/new/deep/x.ts', content: 'export const x = 1;\n' },
        { path: '/bugbench/artifact/test_script.sh', content: 'true\n', mode: 0o755 },
        { path: '/tmp/work/helper.py', content: '' },
      ]);
      const owners = await sandbox.run('id -un; stat -c %U src/new src/new/deep src/new/deep/x.ts /bugbench /bugbench/artifact /bugbench/artifact/test_script.sh /tmp/work; mkdir -p /bugbench/run && touch /tmp/work/log');
      expect(owners.stdout.trim().split('\n')).toEqual(Array(8).fill('app'));
    } finally {
      await sandbox.remove();
    }
  }, 900_000);

  it('checks a Go bug on a Multi-SWE-bench image with no python3: the parser runs in bugbench\'s base and the check says so', async () => {
    const added = await bugbench(['images', 'add', GO_IMAGE, '--json']);
    expect(added.exitCode, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ root: '/home/ratekit', language: 'go' });
    expect(execSync(`docker run --rm --network none ${GO_IMAGE} -c 'command -v python3 || echo none; command -v go'`, { encoding: 'utf8' })).toBe('none\n/usr/lib/go-1.19/bin/go\n');
    // The bench's two-file Go bug, written for the ratekit sample, judged on this image as it is.
    const checked = await bugbench(['check', artifactPath('go-valid-two-files'), '--image', GO_IMAGE, '--buggy-runs', '2', '--json'], { timeout: 300_000 });
    const report = JSON.parse(checked.stdout);
    expect(report.valid, checked.stderr.slice(-2000)).toBe(true);
    expect(report.FAIL_TO_PASS).toEqual(['example.com/ratekit/backoff/TestDelayCappedForLargeAttempts', 'example.com/ratekit/lru/TestKeysMostRecentFirst']);
    const parser = report.checks.find((c: { name: string }) => c.name === 'parser');
    expect(parser.reason).toMatch(/\(it ran in a container of bugbench\/base:bookworm, as the image has no python3\); bugbench's own reading \(go test -v\) agrees on every test/);
  }, 600_000);
});
