/**
 * Rebuilding the tag bugs are on (issue 34, item 7): the build keeps the old
 * image by id and warns; export (swebench, rl, harbor) and solve all take the
 * bugs on the image they were checked on, by one rule (bugs/bug-image.ts),
 * and all refuse alike when nothing keeps it.
 */
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keptTag } from '../../src/bugs/bug-image.js';
import { dockerClient } from '../../src/sandbox/docker-api/client.js';
import { bugFolder } from '../../src/store/records.js';
import { bugbench } from '../helpers/cli.js';
import { seedExportableBugs } from '../helpers/exportable-bugs.js';
import { makeGitRepo } from '../helpers/git-repo.js';

const TAG = `bugbench/repo-rebuildtest-${process.pid}:latest`;
const docker = dockerClient();
const idOf = async (image: string) => ((await docker.getImage(image).inspect()) as { Id: string }).Id;
const made: string[] = [];

afterAll(async () => {
  for (const image of [TAG, ...made]) await docker.getImage(image).remove({ force: true }).catch(() => undefined);
});

describe('rebuilding a tag that bugs are on', () => {
  it('keeps the old image by id with a warning, and export and solve take the bugs there; without it they say so', async () => {
    const repo = await makeGitRepo('rebuildtest', [{ message: 'Add it', files: { 'rt/__init__.py': 'def one():\n    return 1\n', 'tests/test_one.py': 'from rt import one\n\ndef test_one():\n    assert one() == 1\n' } }]);
    const root = mkdtempSync(join(tmpdir(), 'bugbench-rebuild-'));
    const env = { BUGBENCH_HOME: root };
    const first = await bugbench(['images', 'build', repo, '--tag', TAG], { env, timeout: 300_000 });
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stderr).not.toContain('warning');
    const old = await idOf(TAG);
    const store = seedExportableBugs(root, [{ id: 'rebuildtest-removal-aaaa1111', fields: { image: TAG, status: 'accepted' } }]);
    const meta = store.abs(join(bugFolder('rebuildtest-removal-aaaa1111'), 'meta.json'));
    writeFileSync(meta, JSON.stringify({ ...JSON.parse(readFileSync(meta, 'utf8')), image: { tag: TAG, id: old } }));

    const again = await bugbench(['images', 'build', repo, '--tag', TAG, '--json'], { env, timeout: 300_000 });
    expect(again.exitCode, again.stderr).toBe(0);
    const kept = keptTag(TAG, old);
    made.push(kept);
    expect(again.stderr).toContain(`warning: 1 bug(s) on ${TAG} were checked on the image this build replaced; it is kept as ${kept}, where export and solve take those bugs`);
    expect(JSON.parse(again.stdout)).toMatchObject({ tag: TAG, kept: { tag: kept, imageId: old, bugs: 1 } });
    expect(await idOf(TAG)).not.toBe(old);
    expect(await idOf(kept)).toBe(old);

    const swebench = await bugbench(['export', '--format', 'swebench', '--out', '-'], { env });
    expect((JSON.parse(swebench.stdout) as { image_name: string }).image_name).toBe(kept);
    const rl = await bugbench(['export', '--format', 'rl', '--out', '-'], { env });
    expect((JSON.parse(rl.stdout) as { image: string }).image).toBe(kept);

    // Without the kept image, every path says the same thing instead of taking the new image silently.
    await docker.getImage(kept).remove({ noprune: true });
    const gone = `its image ${TAG} is now image ${(await idOf(TAG)).slice(7, 19)}, not ${old.slice(7, 19)} the bug was checked on, and no ${kept} keeps the old one`;
    const skipped = await bugbench(['export', '--format', 'swebench', '--out', join(root, 'x.jsonl')], { env });
    expect(skipped.stdout).toContain(`skipped rebuildtest-removal-aaaa1111: ${gone}`);
    const harbor = await bugbench(['export', '--format', 'harbor', '--out', join(root, 'harbor')], { env });
    expect(harbor.stdout).toContain(`skipped rebuildtest-removal-aaaa1111: ${gone}`);
    const solve = await bugbench(['solve', 'rebuildtest-removal-aaaa1111', '--policy', 'offline', '-k', '1'], { env });
    expect(solve.exitCode).toBe(1);
    expect(solve.stderr.trim()).toContain(`bugbench: ${gone}`);
  }, 600_000);
});
