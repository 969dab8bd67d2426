/**
 * `bugbench verify-export` (#30 item 3) on a small export of the knotcfg
 * sample's two-file bug: an instance as exported holds in every run; one
 * whose record was tampered with (a test that passes before the fix listed in
 * FAIL_TO_PASS) is reported with the test named, and the command exits 1.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { VerifyExportResult } from '../../src/datasets/verify-export.js';
import { artifactPath } from '../helpers/artifacts.js';
import { execa } from 'execa';
import { dockerClient } from '../../src/sandbox/docker-api/client.js';
import { BIN, bugbench } from '../helpers/cli.js';
import { seedExportableBugs } from '../helpers/exportable-bugs.js';

/** Two tests of knotcfg that pass with the bug and without it. */
const KEPT = ['tests/test_lexer.py::test_empty_input_gives_only_eof', 'tests/test_lexer.py::test_simple_assignment_tokens'];
const WORDS = KEPT[1]!;

describe('verify-export', () => {
  it('finds an exported instance holding and names the test of a tampered record', async () => {
    const root = mkdtempSync(join(tmpdir(), 'bugbench-verify-export-'));
    const meta = JSON.parse(readFileSync(join(artifactPath('valid-two-files'), 'meta.json'), 'utf8')) as { image: { tag: string }; baseCommit: string };
    const fields = { status: 'accepted' as const, image: meta.image.tag, baseCommit: meta.baseCommit };
    seedExportableBugs(root, [{ id: 'knot-removal-aaaa1111', fields }, { id: 'knot-removal-bbbb2222', fields: { ...fields, fingerprint: 'g' } }]);
    const env = { BUGBENCH_HOME: root };
    const exported = await bugbench(['export', '--format', 'swebench', '--out', join(root, 'export.jsonl')], { env });
    expect(exported.exitCode, exported.stderr).toBe(0);

    // The seeded records name a PASS_TO_PASS test knotcfg does not have (verify-export reports it missing); two it has replace it.
    const [good, other] = readFileSync(join(root, 'export.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => ({ ...(JSON.parse(l) as Record<string, string[]>), PASS_TO_PASS: KEPT }) as Record<string, string[]>);
    // The tampered record says a kept test breaks with the bug; it passes before the fix as after.
    const tampered = { ...other!, FAIL_TO_PASS: [...other!.FAIL_TO_PASS!, WORDS], PASS_TO_PASS: KEPT.filter((t) => t !== WORDS) };
    const file = join(root, 'tampered.jsonl');
    writeFileSync(file, `${JSON.stringify(good)}\n${JSON.stringify(tampered)}\n`);

    const checked = await bugbench(['verify-export', file, '--runs', '2', '--json'], { env, timeout: 600_000 });
    expect(checked.exitCode, checked.stderr).toBe(1);
    const result = JSON.parse(checked.stdout) as VerifyExportResult;
    expect(result).toMatchObject({ runs: 2, holding: 1, differing: 1 });
    expect(result.instances.map((i) => [i.id, i.holds])).toEqual([
      ['knot-removal-aaaa1111', true],
      ['knot-removal-bbbb2222', false],
    ]);
    expect(result.instances[1]!.problems).toEqual([]);
    expect(result.instances[1]!.differences).toEqual([{ test: WORDS, state: 'before the fix', expected: 'failed', got: ['passed', 'passed'], list: 'FAIL_TO_PASS' }]);

    // Without --json: progress per instance on stderr, the difference in words, exit 1.
    writeFileSync(file, `${JSON.stringify(tampered)}\n`);
    const said = await bugbench(['verify-export', file, '--runs', '1'], { env, timeout: 600_000 });
    expect(said.exitCode).toBe(1);
    expect(said.stderr).toContain('[1/1] knot-removal-bbbb2222 on bugbench/repo-knotcfg:latest: .. DIFFERS (1 test(s); logs in ');
    expect(said.stderr).toContain(`    ${WORDS} (FAIL_TO_PASS) before the fix: expected failed, got passed`);
    expect(said.stdout).toBe('0 of 1 instance(s) hold; 1 differ from their record');
  }, 900_000);

  it('stops on Ctrl-C with exit 130, removing the container of the instance it was verifying', async () => {
    const root = mkdtempSync(join(tmpdir(), 'bugbench-verify-cancel-'));
    const meta = JSON.parse(readFileSync(join(artifactPath('valid-two-files'), 'meta.json'), 'utf8')) as { image: { tag: string }; baseCommit: string };
    seedExportableBugs(root, [{ id: 'knot-removal-cccc3333', fields: { status: 'accepted', image: meta.image.tag, baseCommit: meta.baseCommit } }]);
    const env = { BUGBENCH_HOME: root, CI: 'true' };
    const file = join(root, 'export.jsonl');
    expect((await bugbench(['export', '--format', 'swebench', '--out', file], { env })).exitCode).toBe(0);
    const child = execa('node', [BIN, 'verify-export', file, '--runs', '50'], { reject: false, env });
    let stderr = '';
    await new Promise<void>((resolve) => {
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        // A run has finished, so the instance's container stands.
        if (/: \.\./.test(stderr)) resolve();
      });
    });
    const labelled = async () =>
      (await dockerClient().listContainers({ all: true, filters: { label: ['bugbench.run'] } })).filter((c) => c.Labels['bugbench.run']!.startsWith(`verify-${child.pid}-`));
    expect((await labelled()).length).toBeGreaterThan(0);
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect(result.stderr).toContain('stopping the verification and removing its containers');
    expect(result.stderr).toContain('the verification was cancelled');
    expect(await labelled()).toEqual([]);
  }, 300_000);

  it('gives an instance whose image is not here a verdict that says so, goes on, exits 1 and names the logs folder', async () => {
    const root = mkdtempSync(join(tmpdir(), 'bugbench-verify-export-'));
    const env = { BUGBENCH_HOME: root };
    const meta = JSON.parse(readFileSync(join(artifactPath('valid-two-files'), 'meta.json'), 'utf8')) as { image: { tag: string }; baseCommit: string };
    seedExportableBugs(root, [{ id: 'knot-removal-cccc3333', fields: { status: 'accepted', image: meta.image.tag, baseCommit: meta.baseCommit } }]);
    const exported = await bugbench(['export', '--format', 'swebench', '--out', join(root, 'export.jsonl')], { env });
    expect(exported.exitCode, exported.stderr).toBe(0);
    const line = JSON.parse(readFileSync(join(root, 'export.jsonl'), 'utf8')) as Record<string, unknown>;
    const gone = 'bugbench-test/no-such-image:1';
    const file = join(root, 'elsewhere.jsonl');
    writeFileSync(file, `${JSON.stringify({ ...line, instance_id: 'gone-1', image_name: gone, docker_image: gone })}\n${JSON.stringify({ ...line, instance_id: 'gone-2', image_name: gone, docker_image: gone })}\n`);
    const said = await bugbench(['verify-export', file, '--runs', '1'], { env });
    expect(said.exitCode, said.stderr).toBe(1);
    expect(said.stderr).toContain(`[1/2] gone-1 on ${gone}: NOT VERIFIED: its image ${gone} is not on this engine; pull it (\`docker pull ${gone}\`) or build it, then verify again`);
    expect(said.stderr).toContain(`[2/2] gone-2 on ${gone}: NOT VERIFIED:`);
    expect(said.stderr).toMatch(/\nlogs of every run in \/\S+bugbench-verify-\w+$/);
    expect(said.stdout).toBe('0 of 2 instance(s) hold; 2 could not be verified here (see above)');
  });

  it('refuses a file that is not an export bugbench wrote, saying what it needs', async () => {
    const root = mkdtempSync(join(tmpdir(), 'bugbench-verify-export-'));
    const file = join(root, 'other.jsonl');
    writeFileSync(file, `${JSON.stringify({ instance_id: 'x', image_name: 'i', base_commit: 'c', patch: '', FAIL_TO_PASS: [], PASS_TO_PASS: [] })}\n`);
    const refused = await bugbench(['verify-export', file], { env: { BUGBENCH_HOME: root } });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr.trim()).toBe(
      `bugbench: line 1 of ${file} has no bugbench.bug_patch; verify-export needs the instances bugbench exports (\`--format swebench\` or \`--format rl\`), which carry their tests, script and parser`,
    );
  });
});
