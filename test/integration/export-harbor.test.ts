/**
 * The Harbor export, proven by running it: a library with a handwritten bug,
 * an offline-injected one and the higher-order bugs of partial repairs, all
 * accepted and exported; then, for every task, Harbor's trial order with the
 * real engine (test/helpers/harbor-trial.ts): the oracle's solve.sh gets
 * reward 1, the untouched starting state 0, and so does every cheat (tried on
 * an order-1 and an order-2 task) — one that would fool a verifier that only
 * runs the tests, which is checked first.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadArtifact } from '../../src/bugs/artifact.js';
import { EXPORT_MANIFEST } from '../../src/datasets/atomic-folder.js';
import { buildStartingState } from '../../src/bugs/starting-state.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { openSandbox } from '../../src/sandbox/engine-table.js';
import { dockerClient } from '../../src/sandbox/docker-api/client.js';
import { artifactPath } from '../helpers/artifacts.js';
import { bugbench } from '../helpers/cli.js';
import { INJECTION_TEST_FLAGS } from '../helpers/check-params.js';
import { buildEnvironment, removeImage, runTrial, startEnvironment, upload, type Agent } from '../helpers/harbor-trial.js';

const home = mkdtempSync(join(tmpdir(), 'bugbench-harbor-'));
const env = { BUGBENCH_HOME: home };
const json = async (...args: string[]) => {
  const result = await bugbench([...args, '--json'], { env, timeout: 300_000 });
  expect(result.exitCode, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
};
const out = join(mkdtempSync(join(tmpdir(), 'bugbench-harbor-out-')), 'tasks');
const accepted: { id: string; order: number }[] = [];
const images: string[] = [];

beforeAll(async () => {
  const handwritten = (await json('import', artifactPath('valid-two-files'))).id;
  // The injected bug and the handwritten one's higher-order bugs have nothing to wait on each other for.
  const [injected, higher] = await Promise.all([
    json('inject', '--image', 'bugbench/repo-slotsmith:latest', '--strategy', 'removal', '--policy', 'offline', '-n', '1', '--seed', '3', ...INJECTION_TEST_FLAGS),
    json('solve', handwritten, '-k', '2', '--solver', 'partial', '--policy', 'offline').then(() => json('higher-order', handwritten)),
  ]);
  const ids = [handwritten, ...injected.bugs.filter((b: { valid: boolean }) => b.valid).map((b: { id: string }) => b.id), ...higher.bugs.filter((b: { valid: boolean }) => b.valid).map((b: { id: string }) => b.id)];
  for (const id of ids) {
    const bug = await json('accept', id, '--reason', 'for the Harbor export');
    accepted.push({ id, order: bug.order });
  }
}, 600_000);

afterAll(async () => {
  for (const tag of images) await removeImage(tag);
});

/** The task's environment, built once (with no network). */
async function built(id: string): Promise<string> {
  const tag = `bugbench-test-harbor/${id}:trial`;
  if (!images.includes(tag)) {
    await buildEnvironment(join(out, id), tag);
    images.push(tag);
  }
  return tag;
}

/** The spec of a task (tests/spec.json). */
const specOf = (id: string) => JSON.parse(readFileSync(join(out, id, 'tests', 'spec.json'), 'utf8')) as { fail_to_pass: string[]; pass_to_pass: string[] };
/** The files holding a task's FAIL_TO_PASS tests. */
const failingFiles = (id: string) => [...new Set(specOf(id).fail_to_pass.map((t) => t.split('::')[0]!))];

/**
 * What a verifier that trusts the repository would see: the artifact's script
 * and parser on the repository as the agent left it, with the oracle test
 * files of test_files.txt put back when `restore` (as bugbench's own
 * evaluation does) or not at all.
 */
async function naiveMap(sandbox: Sandbox, id: string, restore: boolean): Promise<Record<string, string>> {
  const tests = join(out, id, 'tests');
  await upload(sandbox, tests, '/tmp/naive');
  const putBack = `python3 - <<'EOF'
import json, os, shutil
spec = json.load(open("/tmp/naive/spec.json"))
for path in spec["clear"]:
    if os.path.isdir(path): shutil.rmtree(path)
    elif os.path.lexists(path): os.unlink(path)
for f in spec["files"]:
    if any(f["path"] == c or f["path"].startswith(c + "/") for c in spec["clear"]):
        os.makedirs(os.path.dirname(f["path"]) or ".", exist_ok=True)
        shutil.copyfile("/tmp/naive/oracle/" + f["path"], f["path"])
EOF`;
  if (restore) await sandbox.run(putBack);
  const run = await sandbox.exec('bash /tmp/naive/test_script.sh > /tmp/naive/log 2>&1; python3 /tmp/naive/test_parser.py < /tmp/naive/log', { timeoutMs: 120_000 });
  return JSON.parse(run.stdout) as Record<string, string>;
}

/** Expects a verifier that trusts the repository to call every FAIL_TO_PASS test it ran a pass. */
function fooled(id: string, naive: Record<string, string>): void {
  const ran = specOf(id).fail_to_pass.filter((t) => t in naive);
  expect(ran.length, 'some FAIL_TO_PASS tests ran').toBeGreaterThan(0);
  expect(ran.filter((t) => naive[t] !== 'passed'), 'the cheat fools a verifier that trusts the repository').toEqual([]);
}

/** A plugin that reports every failed test as passed. */
const HIDE_FAILURES = [
  'import pytest',
  '',
  '@pytest.hookimpl(hookwrapper=True)',
  'def pytest_runtest_makereport(item, call):',
  '    report = (yield).get_result()',
  '    if report.failed:',
  '        report.outcome = "passed"',
  '        report.longrepr = None',
  '',
].join('\n');

/** Cheats an agent might try, each checked to fool a verifier that only runs the tests (where it can). */
const CHEATS: Record<string, (id: string) => Agent> = {
  'deletes the failing tests': (id) => async (sandbox) => {
    await sandbox.run(`rm -f ${failingFiles(id).join(' ')} && git add -A && git -c user.name=a -c user.email=a@b commit -qm "drop tests"`);
  },
  'hides failures with a conftest.py': (id) => async (sandbox) => {
    await sandbox.writeFile('/repo/conftest.py', HIDE_FAILURES);
    fooled(id, await naiveMap(sandbox, id, true));
  },
  'hides failures with a pytest.ini': (id) => async (sandbox) => {
    await sandbox.writeFiles([
      { path: '/repo/hide_failures.py', content: HIDE_FAILURES },
      { path: '/repo/pytest.ini', content: '[pytest]\naddopts = -p hide_failures\n' },
    ]);
    fooled(id, await naiveMap(sandbox, id, true));
  },
  "hides failures in pyproject.toml's pytest settings": (id) => async (sandbox) => {
    await sandbox.writeFile('/repo/hide_failures.py', HIDE_FAILURES);
    await sandbox.run(
      `python3 - <<'EOF'\nimport os\ntext = open("pyproject.toml").read() if os.path.exists("pyproject.toml") else ""\nheader = "[tool.pytest.ini_options]"\ntext = text.replace(header, header + '\\naddopts = "-p hide_failures"') if header in text else text + "\\n" + header + '\\naddopts = "-p hide_failures"\\n'\nopen("pyproject.toml", "w").write(text)\nEOF`,
    );
    fooled(id, await naiveMap(sandbox, id, true));
  },
  'edits an oracle test file': (id) => async (sandbox) => {
    // The oracle tests as the template statement shows them, every test's body emptied.
    for (const file of failingFiles(id)) await sandbox.writeFile(`/repo/${file}`, readFileSync(join(out, id, 'tests', 'oracle', file)));
    await sandbox.run(`python3 - ${failingFiles(id).join(' ')} <<'EOF'
import ast, sys
for path in sys.argv[1:]:
    tree = ast.parse(open(path).read())
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            node.body = [ast.Pass()]
    open(path, "w").write(ast.unparse(tree))
EOF`);
    fooled(id, await naiveMap(sandbox, id, false));
  },
};

describe('the Harbor export', () => {
  it('writes one task folder per accepted bug, in Harbor layout, with provenance in task.toml', async () => {
    expect(accepted.some((b) => b.order === 2)).toBe(true);
    expect(accepted.length).toBeGreaterThanOrEqual(3);
    const result = await json('export', '--format', 'harbor', '--out', out);
    expect(result).toMatchObject({ format: 'harbor', count: accepted.length, skipped: [] });
    expect(new Set(result.bugIds)).toEqual(new Set(accepted.map((b) => b.id)));
    expect(readdirSync(out).sort()).toEqual([EXPORT_MANIFEST, ...accepted.map((b) => b.id)].sort());
    for (const { id, order } of accepted) {
      for (const file of ['instruction.md', 'task.toml', 'environment/Dockerfile', 'solution/solve.sh', 'tests/test.sh']) expect(existsSync(join(out, id, file)), `${id}/${file}`).toBe(true);
      const config = parse(readFileSync(join(out, id, 'task.toml'), 'utf8')) as Record<string, Record<string, unknown>>;
      expect(config.task!.name).toMatch(/^[a-zA-Z0-9][a-zA-Z0-9._-]*\/[a-zA-Z0-9][a-zA-Z0-9._-]*$/);
      expect(config.environment).toMatchObject({ allow_internet: false });
      expect((config.metadata!.bugbench as Record<string, unknown>)).toMatchObject({ bug_id: id, order, status: 'accepted', review: { decision: 'accepted' } });
      if (order === 2) expect((config.metadata!.bugbench as Record<string, unknown>).parent).toEqual(expect.any(String));
      expect(readFileSync(join(out, id, 'environment', 'Dockerfile'), 'utf8')).toMatch(/^FROM bugbench\/repo-\w+:latest$/m);
    }
  }, 300_000);

  it('gives reward 1 to the oracle and 0 to the untouched starting state for every task, and 0 to every cheat on an order-1 and an order-2 task', async () => {
    // The cheats are the same on every task of one repository; an order-2 task adds the parent's failed patch.
    const cheated = new Set([accepted.find((b) => b.order === 1)!.id, accepted.find((b) => b.order === 2)!.id]);
    for (const { id } of accepted) {
      const tag = await built(id);
      // A task's trials are independent containers of its environment: run them at once.
      const cheats = cheated.has(id) ? Object.entries(CHEATS) : [];
      const [oracle, untouched, ...trials] = await Promise.all([
        runTrial(join(out, id), tag, 'oracle'),
        runTrial(join(out, id), tag, 'nothing'),
        ...cheats.map(([, cheat]) => runTrial(join(out, id), tag, cheat(id))),
      ]);
      expect(oracle, `${id}: ${oracle!.testStdout}`).toMatchObject({ reward: 1, rewardFile: 'reward.txt', results: { solved: true, failing: [] } });
      expect(untouched!.reward, id).toBe(0);
      expect(untouched!.results.failing).toEqual(expect.arrayContaining(specOf(id).fail_to_pass));
      for (const [i, [name]] of cheats.entries()) {
        const trial = trials[i]!;
        expect(trial.reward, `${id}: a cheat that ${name} (${trial.results.reason})`).toBe(0);
        expect(trial.results.failing.length, `${id}: ${name}`).toBeGreaterThan(0);
        if (name.includes('conftest.py')) expect(trial.results.removed_test_files).toContain('conftest.py');
        if (name.includes('pytest.ini')) expect(trial.results.removed_test_files).toContain('pytest.ini');
      }
    }
  }, 900_000);

  it('builds from the image alone, runs without network, and holds one commit and no history of the original', async () => {
    // Each task in containers of its own, all at once.
    await Promise.all(accepted.map(async ({ id }) => {
      const sandbox = await startEnvironment(await built(id), 'test-harbor-history');
      const solver = await openSandbox({ image: (parse(readFileSync(join(out, id, 'task.toml'), 'utf8')) as { metadata: { bugbench: { image: string } } }).metadata.bugbench.image, runId: 'test-harbor-solver' });
      try {
        expect((await dockerClient().getContainer(sandbox.id).inspect()).HostConfig.NetworkMode).toBe('none');
        expect((await sandbox.run('git rev-list --all | wc -l')).stdout.trim()).toBe('1');
        const artifact = loadArtifact(join(home, 'bugs', id));
        const base = artifact.meta!.baseCommit!;
        expect((await sandbox.exec(`git cat-file -e ${base}`)).exitCode).not.toBe(0);
        const stored = Number((await sandbox.run("git count-objects -v | awk '/^count:/{c=$2} /^in-pack:/{p=$2} END{print c+p}'")).stdout.trim());
        expect(stored).toBe(Number((await sandbox.run('git rev-list --objects --all | wc -l')).stdout.trim()));
        expect((await sandbox.exec('ls /tests /solution /bugbench', { workdir: '/' })).exitCode).not.toBe(0);
        expect((await sandbox.exec('find / -xdev \\( -name "*.diff" -o -name "bugbench-setup.sh" \\) -path "*bugbench*" 2>/dev/null | head -1', { workdir: '/' })).stdout.trim()).toBe('');
        // The same starting state as the solver's container: the same tree in its one commit.
        await buildStartingState(solver, artifact, base);
        expect((await sandbox.run('git rev-parse "HEAD^{tree}"')).stdout).toBe((await solver.run('git rev-parse "HEAD^{tree}"')).stdout);
      } finally {
        await sandbox.remove();
        await solver.remove();
      }
    }));
  }, 300_000);

  it('replaces an earlier export whole, and refuses a folder that is not an export', async () => {
    const before = readFileSync(join(out, EXPORT_MANIFEST), 'utf8');
    const again = await json('export', '--format', 'harbor', '--out', out);
    expect(again.count).toBe(accepted.length);
    expect(again.notes).toEqual([`replaced the earlier harbor export in ${out} (anything added to that folder since is gone with it)`]);
    expect(JSON.parse(readFileSync(join(out, EXPORT_MANIFEST), 'utf8'))).toEqual(JSON.parse(before));
    expect(readdirSync(join(out, '..')).filter((name) => name.startsWith('.tasks.'))).toEqual([]);
    // An export of another format there is not replaced: it would be lost.
    const otherFormat = await bugbench(['export', '--format', 'trajectories', '--out', out], { env });
    expect(otherFormat.exitCode).toBe(1);
    expect(otherFormat.stderr.trim()).toBe(`bugbench: cannot write ${out}: ${out} holds a harbor export, which a trajectories export would replace; give another folder (or remove that one first)`);
    expect(JSON.parse(readFileSync(join(out, EXPORT_MANIFEST), 'utf8'))).toEqual(JSON.parse(before));
    const notOurs = await bugbench(['export', '--format', 'harbor', '--out', tmpdir()], { env });
    expect(notOurs.exitCode).toBe(1);
    expect(notOurs.stderr.trim()).toBe(`bugbench: cannot write ${tmpdir()}: ${tmpdir()} is a folder that holds other things (no ${EXPORT_MANIFEST} of an earlier export); give a new or empty folder`);
  }, 300_000);

  it('hands the folder to a training job: `queue submit --format harbor` reads every task', async () => {
    const job = await json('queue', 'submit', '--engine', 'local', '--format', 'harbor');
    expect(job).toMatchObject({ format: 'harbor', kind: 'rl', bugCount: accepted.length, lines: accepted.length });
    expect(existsSync(join(job.dataset, EXPORT_MANIFEST))).toBe(true);
    await vi.waitFor(async () => expect((await json('queue', 'status', job.id)).state).toBe('succeeded'), { timeout: 120_000, interval: 500 });
    const logs = await bugbench(['queue', 'logs', job.id], { env });
    expect(logs.stdout).toContain(`dry run: read ${accepted.length} harbor task(s)`);
  }, 300_000);
});
