import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dockerClient } from '../../src/sandbox/docker-api/client.js';
import { openSandbox } from '../../src/sandbox/engine-table.js';
import { bugbench } from '../helpers/cli.js';
import { makeGitRepo } from '../helpers/git-repo.js';

const TAG = 'bugbench-test/tinylib:latest';
const NODE_TAG = 'bugbench-test/needs-node20:latest';

afterAll(async () => {
  await dockerClient().getImage(TAG).remove({ force: true }).catch(() => undefined);
  await dockerClient().getImage(NODE_TAG).remove({ force: true }).catch(() => undefined);
});

describe('bugbench images build', () => {
  it('builds an image of a git repository with its history and labels, and lists it', async () => {
    const dir = await makeGitRepo('tinylib', [
      { message: 'Add tinylib', files: { 'tinylib/__init__.py': 'def double(x):\n    return 2 * x\n' } },
      {
        message: 'Add tests',
        files: { 'tests/test_double.py': 'from tinylib import double\n\ndef test_double():\n    assert double(4) == 8\n' },
      },
    ]);
    const built = await bugbench(['images', 'build', dir, '--tag', TAG, '--json']);
    expect(built.exitCode, built.stderr).toBe(0);
    const result = JSON.parse(built.stdout) as { tag: string; commit: string; repo: string; testCommand: string };
    expect(result).toMatchObject({ tag: TAG, repo: 'tinylib', testCommand: 'python3 -m pytest -rA' });
    expect(built.stderr).toMatch(/cloning/);

    const labels = (await dockerClient().getImage(TAG).inspect()).Config.Labels;
    expect(labels).toMatchObject({
      'bugbench.repo': 'tinylib',
      'bugbench.commit': result.commit,
      'bugbench.test-cmd': 'python3 -m pytest -rA',
    });

    const listed = await bugbench(['images', '--json']);
    const images = JSON.parse(listed.stdout) as Record<string, unknown>[];
    const row = images.find((i) => i.tag === TAG);
    expect(row).toMatchObject({ repo: 'tinylib', commit: result.commit, bugs: 0 });
    expect(Object.keys(row!).sort()).toEqual(['adopted', 'bugCounts', 'bugs', 'commit', 'created', 'id', 'language', 'repo', 'root', 'sizeBytes', 'tag', 'user', 'warning']);
    expect(row).toMatchObject({ root: '/repo', user: 'root', adopted: false });
    expect(row!.warning).toBe('');

    const sandbox = await openSandbox({ image: TAG, runId: 'test-images' });
    try {
      expect((await sandbox.exec('git log --format=%s')).stdout).toBe('Add tests\nAdd tinylib\n');
      expect((await sandbox.exec('git status --porcelain')).stdout).toBe('');
      const tests = await sandbox.exec(labels['bugbench.test-cmd']!);
      expect(tests.exitCode, tests.stdout).toBe(0);
      expect(tests.stdout).toMatch(/PASSED tests\/test_double.py::test_double/);
    } finally {
      await sandbox.remove();
    }
  });

  it("warns when the image's Node does not meet package.json's engines field, and keeps the warning with the image", async () => {
    // Issue 34: a package needing Node >= 20 was built on the Node 18 base with only npm's EBADENGINE warning.
    const dir = await makeGitRepo('needs-node20', [
      {
        message: 'Add conv',
        files: {
          'package.json': JSON.stringify({ name: 'conv', version: '1.0.0', type: 'module', engines: { node: '>=20' }, scripts: { test: 'node --test' } }),
          'test/conv.test.js': "import { test } from 'node:test';\ntest('loads', () => {});\n",
        },
      },
    ]);
    const built = await bugbench(['images', 'build', dir, '--tag', NODE_TAG, '--json']);
    expect(built.exitCode, built.stderr).toBe(0);
    const warning = /^warning: (package\.json's engines field needs Node >=20, but the image has Node 18\.\d+\.\d+: .*)$/m.exec(built.stderr)?.[1];
    expect(warning, built.stderr).toBeDefined();
    expect(JSON.parse(built.stdout)).toMatchObject({ tag: NODE_TAG, warning });
    expect((await dockerClient().getImage(NODE_TAG).inspect()).Config.Labels).toMatchObject({ 'bugbench.warning': warning });
    const images = JSON.parse((await bugbench(['images', '--json'])).stdout) as Record<string, unknown>[];
    expect(images.find((i) => i.tag === NODE_TAG)).toMatchObject({ warning });
  });

  it('refuses a folder that is not a git repository in one line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bugbench-plain-'));
    const result = await bugbench(['images', 'build', dir]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([`bugbench: ${dir} is not a git repository with at least one commit`]);
  });

  it('refuses an unknown --from image', async () => {
    const dir = await makeGitRepo('x', [{ message: 'x', files: { 'a.txt': 'a' } }]);
    const result = await bugbench(['images', 'build', dir, '--from', 'bugbench-test/no-such-image:1']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/image bugbench-test\/no-such-image:1 does not exist/);
  });
});

describe('bugbench doctor --json', () => {
  it('reports the engine, images, key and cluster in the documented shape', async () => {
    const result = await bugbench(['doctor', '--json'], { env: { ANTHROPIC_API_KEY: 'sk-test-not-a-real-key' } });
    expect(result.exitCode).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.engine).toMatchObject({ ok: true, host: expect.any(String), version: expect.any(String) });
    expect(report.baseImage).toEqual({ ok: true, tag: 'bugbench/base:bookworm' });
    expect(report.sampleImages.length).toBeGreaterThanOrEqual(2);
    expect(report.sampleImages.every((s: { ok: boolean }) => s.ok)).toBe(true);
    expect(report.anthropicKey).toBe(true);
    expect(result.stdout).not.toContain('sk-test-not-a-real-key');
    expect(report.cluster).toMatchObject({ ok: expect.any(Boolean), detail: expect.any(String) });
  });

  it('exits non-zero and says how to fix when the engine does not answer', async () => {
    const result = await bugbench(['doctor', '--json'], { env: { DOCKER_HOST: 'unix:///tmp/no-such-docker.sock' } });
    expect(result.exitCode).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.engine.ok).toBe(false);
    expect(report.engine.detail).toMatch(/doctor --fix/);
  });

  it('makes nothing when everything is present', async () => {
    // Judged by what it did, not by its time: a busy engine answers slowly.
    const report = JSON.parse((await bugbench(['doctor', '--json'])).stdout) as { baseImage: { tag: string }; sampleImages: { tag: string }[]; toolchainBases: { tag: string }[] };
    const tags = [report.baseImage, ...report.sampleImages, ...report.toolchainBases].map((image) => image.tag);
    const ids = () => Promise.all(tags.map(async (tag) => [tag, (await dockerClient().getImage(tag).inspect()).Id]));
    const before = await ids();
    const result = await bugbench(['doctor', '--fix', '--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(await ids()).toEqual(before);
  });
});

describe('bad usage', () => {
  it('names an unknown command and exits 2', async () => {
    const result = await bugbench(['frobnicate']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/unknown command "frobnicate"/);
  });
  it('names an unknown flag', async () => {
    const result = await bugbench(['images', '--frob']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/images: Unknown option '--frob'/);
  });
});

describe('help', () => {
  it('prints each command with its summary, and a command its synopsis', async () => {
    const all = await bugbench(['--help']);
    expect(all.exitCode).toBe(0);
    for (const name of ['tui', 'doctor', 'images', 'inject', 'check', 'eval', 'replay']) expect(all.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    const one = await bugbench(['check', '--help']);
    expect(one.exitCode).toBe(0);
    expect(one.stdout).toMatch(/bugbench check <bug-id \| artifact-dir>/);
  });
});
