import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { EXPORT_MANIFEST, writeFolderAtomically } from '../../../src/datasets/atomic-folder.js';
import { dockerfile, harborTaskFiles, solveScript, TEST_SH } from '../../../src/datasets/harbor/task-files.js';
import { AGENT_TIMEOUT_SEC, harborTaskName, taskToml, VERIFIER_MARGIN_SEC } from '../../../src/datasets/harbor/task-toml.js';
import { chooseTestFiles, parseRecords } from '../../../src/datasets/harbor/test-files.js';
import type { BugMaterial } from '../../../src/datasets/materials.js';
import { SCRUB_HISTORY } from '../../../src/bugs/starting-state.js';
import { rlTask } from '../../../src/datasets/rl.js';
import { isScriptedSolver } from '../../../src/datasets/sft.js';
import { evalScript, setupScript } from '../../../src/datasets/task-scripts.js';
import { KEEP_UNTRACKED, PAST_HEAD_REMOVAL } from '../../../src/sandbox/adopt.js';
import { BUILT_WORLD, type ImageWorld } from '../../../src/sandbox/sandbox.js';
import type { BugRecord } from '../../../src/store/records.js';

function material(overrides: Partial<BugRecord> = {}): BugMaterial {
  const record: BugRecord = {
    id: 'knotcfg-direct-1a2b3c4d',
    status: 'accepted',
    image: 'bugbench/repo-knotcfg:latest',
    repo: 'knotcfg',
    baseCommit: 'a'.repeat(40),
    strategy: 'direct',
    policy: 'offline',
    model: 'offline/direct',
    order: 1,
    parentId: null,
    attemptId: null,
    runId: null,
    rollout: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    fingerprint: 'f',
    duplicateOf: null,
    checkingBy: null,
    check: null,
    review: { decision: 'accepted', reason: null, by: 'me@host', at: '2026-01-02T00:00:00.000Z' },
    solve: null,
    analysis: null,
    ...overrides,
  };
  return {
    record,
    flaky: [],
    imageId: 'sha256:1234',
    image: record.image,
    world: BUILT_WORLD,
    adopted: false,
    baseCommit: record.baseCommit,
    bugPatch: 'diff --git a/k/lexer.py b/k/lexer.py\n',
    weakenPatch: '',
    predPatch: null,
    fixPatch: 'diff --git a/k/lexer.py b/k/lexer.py\n--- a/k/lexer.py\n+++ b/k/lexer.py\n@@ -1 +1 @@\n-x\n+y\n',
    testPatch: '',
    problemStatement: 'The lexer reads 1e3 as an integer.',
    statement: 'template',
    report: null,
    failToPass: ['tests/test_lexer.py::test_float'],
    passToPass: ['tests/test_lexer.py::test_int'],
    testFiles: ['tests/test_lexer.py'],
    testScript: 'python3 -m pytest -rA tests/test_lexer.py\n',
    testParser: 'print("{}")\n',
    testTimeoutSec: 90,
  };
}

describe('a Harbor task of a bug', () => {
  it('has a name Harbor accepts, whatever the bug id holds', () => {
    const pattern = /^[a-zA-Z0-9][a-zA-Z0-9._-]*\/[a-zA-Z0-9][a-zA-Z0-9._-]*$/;
    expect(harborTaskName('knotcfg-direct-1a2b3c4d')).toBe('bugbench/knotcfg-direct-1a2b3c4d');
    expect(harborTaskName('my repo!-x')).toMatch(pattern);
    expect(harborTaskName('.hidden')).toMatch(pattern);
  });

  it('writes task.toml with Harbor sections, no internet, limits from the bug, and provenance without nulls', () => {
    const order1 = parse(taskToml(material(), 'sha256:1234')) as Record<string, Record<string, unknown>>;
    expect(order1).toMatchObject({
      schema_version: '1.1',
      task: { name: 'bugbench/knotcfg-direct-1a2b3c4d' },
      verifier: { timeout_sec: 90 + VERIFIER_MARGIN_SEC },
      agent: { timeout_sec: AGENT_TIMEOUT_SEC },
      environment: { allow_internet: false, memory_mb: 4096 },
      metadata: { bugbench: { bug_id: 'knotcfg-direct-1a2b3c4d', image: 'bugbench/repo-knotcfg:latest', image_id: 'sha256:1234', strategy: 'direct', order: 1, review: { decision: 'accepted', by: 'me@host' } } },
    });
    expect(order1.metadata!.bugbench).not.toHaveProperty('parent');
    const order2 = parse(
      taskToml(material({ order: 2, parentId: 'knotcfg-direct-0000', solve: { runId: 'r', attempts: 4, solved: 1, solveRate: 0.25, injectReward: 0.55, alpha: 0.8, at: 'x' } }), 'sha256:1234'),
    ) as { metadata: { bugbench: Record<string, unknown> } };
    expect(order2.metadata.bugbench).toMatchObject({ order: 2, parent: 'knotcfg-direct-0000', solve: { solve_rate: 0.25, attempts: 4 } });
  });

  it('builds FROM the repo image by tag, records its id, and the oracle applies the fix', () => {
    const m = material();
    expect(dockerfile(m, 'sha256:1234')).toMatch(/^FROM bugbench\/repo-knotcfg:latest$/m);
    expect(dockerfile(m, 'sha256:1234')).toContain('bugbench.image-id="sha256:1234"');
    expect(solveScript(m)).toContain('git apply');
    expect(TEST_SH).toContain('verify.py');
    const files = harborTaskFiles(m, { imageId: 'sha256:1234', verifier: '# verify', testFiles: { clear: ['tests/test_lexer.py'], files: [{ path: 'tests/test_lexer.py', content: Buffer.from('def test(): pass\n'), mode: '644' }], keep: [] } });
    const byPath = new Map(files.map((f) => [f.path, f]));
    expect([...byPath.keys()]).toEqual(expect.arrayContaining(['instruction.md', 'task.toml', 'environment/Dockerfile', 'environment/setup.sh', 'solution/solve.sh', 'solution/fix.diff', 'tests/test.sh', 'tests/spec.json', 'tests/oracle/tests/test_lexer.py']));
    expect(String(byPath.get('instruction.md')!.content)).toContain('The lexer reads 1e3 as an integer.');
    expect(String(byPath.get('environment/setup.sh')!.content)).toContain(SCRUB_HISTORY.join('\n'));
    const spec = JSON.parse(String(byPath.get('tests/spec.json')!.content));
    expect(spec).toMatchObject({ fail_to_pass: m.failToPass, pass_to_pass: m.passToPass, test_timeout_sec: 90, clear: ['tests/test_lexer.py'], files: [{ path: 'tests/test_lexer.py', mode: '644' }] });
  });

  it('puts back the test infrastructure the agent started from, leaves ignored files and config the fix changes', () => {
    const listing = {
      tracked: ['k/lexer.py', 'tests/test_lexer.py', 'tests/conftest.py', 'tests/data/a.json', 'conftest.py', 'pyproject.toml', 'setup.cfg', 'README.md'],
      ignored: ['node_modules/x/test/a.js', 'build/lib.py'],
    };
    expect(chooseTestFiles(listing, ['tests/test_lexer.py'], ['k/lexer.py', 'setup.cfg'])).toEqual({
      restore: ['conftest.py', 'pyproject.toml', 'tests/conftest.py', 'tests/data/a.json'],
      keep: ['node_modules/x/test/a.js', 'setup.cfg'],
    });
  });

  it('reads the records of files and links', () => {
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const files = parseRecords([`O\t100755\t${b64('t/run.sh')}\t${b64('echo')}`, `L\t120000\t${b64('t/link')}\t${b64('run.sh')}`, `S\t644\t${b64('conftest.py')}\t`].join('\n'));
    expect(files).toEqual([
      { path: 't/run.sh', content: Buffer.from('echo'), mode: '755' },
      { path: 't/link', link: 'run.sh' },
      { path: 'conftest.py', content: Buffer.alloc(0), mode: '644' },
    ]);
  });

  it('knows the scripted solvers the sft export leaves out', () => {
    expect(['offline/oracle', 'offline/partial', 'offline/noop'].every(isScriptedSolver)).toBe(true);
    expect(isScriptedSolver('claude-sonnet-4-5')).toBe(false);
  });
});

/** A bug of an adopted SWE-bench-style image run as a user of its own: /testbed, conda's PATH from the login shell. */
function adoptedMaterial(world: Partial<ImageWorld> = {}): BugMaterial {
  const m = material({ image: 'sweb.eval.x86_64.knotcfg__knotcfg-1:latest' });
  const env = { PATH: '/opt/miniconda3/envs/testbed/bin:/usr/bin:/bin', CONDA_DEFAULT_ENV: 'testbed', ODD: 'a "quoted" $HOME \\ value', 'BASH_FUNC_x%%': '() { :; }' };
  return { ...m, world: { root: '/testbed', user: '', uid: 1000, gid: 1000, env, ...world }, adopted: true };
}

describe('a task of an adopted image', () => {
  it('builds FROM the image by its own name, as its user, at its root, with its login shell\'s variables, removing the history past HEAD', () => {
    const m = adoptedMaterial();
    const text = dockerfile(m, 'sha256:1234');
    expect(text).toMatch(/^FROM sweb\.eval\.x86_64\.knotcfg__knotcfg-1:latest$/m);
    expect(text).not.toMatch(/bugbench\/adopted-/);
    expect(text).toMatch(/^COPY --chown=1000:1000 setup\.sh \/tmp\/bugbench-setup\.sh$/m);
    expect(text).toMatch(/^WORKDIR \/testbed$/m);
    expect(text).toContain('PATH="/opt/miniconda3/envs/testbed/bin:/usr/bin:/bin"');
    expect(text).toContain('ODD="a \\"quoted\\" \\$HOME \\\\ value"');
    expect(text).not.toContain('BASH_FUNC');
    expect(text).not.toMatch(/^USER /m);
    expect(dockerfile(adoptedMaterial({ user: 'dev' }), 'sha256:1234')).toMatch(/^USER dev$/m);

    const setup = setupScript(m);
    expect(setup).toContain(PAST_HEAD_REMOVAL);
    expect(setup.indexOf(PAST_HEAD_REMOVAL)).toBeLessThan(setup.indexOf('git reset -q --hard'));
    expect(setup).toMatch(/^cd \/testbed$/m);
    expect(setup).not.toContain('/repo');
    expect(setup).toContain("export PATH='/opt/miniconda3/envs/testbed/bin:/usr/bin:/bin'");
    expect(evalScript(m)).toMatch(/^cd \/testbed$/m);
    expect(evalScript(m)).toContain("export CONDA_DEFAULT_ENV='testbed'");
    expect(setupScript(material())).not.toContain(PAST_HEAD_REMOVAL);
    expect(setupScript({ ...m, world: { ...m.world, root: '/home/my repo' } })).toMatch(/^cd '\/home\/my repo'$/m);
    // The image's untracked files (a virtual environment in the work tree) are kept out of the clean, in setup and evaluation.
    for (const script of [setup, evalScript(m)]) {
      expect(script.indexOf(KEEP_UNTRACKED.at(-1)!)).toBeGreaterThan(-1);
      expect(script.indexOf(KEEP_UNTRACKED.at(-1)!)).toBeLessThan(script.indexOf('git clean -q -fd'));
    }
    expect(setupScript(material())).not.toContain(KEEP_UNTRACKED.at(-1)!);
  });

  it('runs, on an adopted image\'s work tree, leaving the untracked folders the image had', async () => {
    const { execSync } = await import('node:child_process');
    const root = mkdtempSync(join(tmpdir(), 'bugbench-setup-'));
    execSync('git init -q && echo a > a.txt && git add a.txt && git -c user.email=u@e -c user.name=u commit -qm a && mkdir -p "venv [x]/bin" && touch "venv [x]/bin/python"', { cwd: root, shell: '/bin/bash' });
    const head = execSync('git rev-parse HEAD', { cwd: root, encoding: 'utf8' }).trim();
    const m = { ...adoptedMaterial(), baseCommit: head, bugPatch: '', weakenPatch: '' };
    writeFileSync(join(root, 'setup.sh'), setupScript({ ...m, world: { ...m.world, root, env: {} } }));
    execSync('bash setup.sh', { cwd: root, env: { ...process.env, GIT_AUTHOR_NAME: 'u', GIT_AUTHOR_EMAIL: 'u@e', GIT_COMMITTER_NAME: 'u', GIT_COMMITTER_EMAIL: 'u@e' } });
    expect(existsSync(join(root, 'venv [x]', 'bin', 'python'))).toBe(true);
  });

  it('names its root in the instruction, task.toml, the oracle, the verifier\'s spec and the RL row', () => {
    const m = adoptedMaterial();
    const files = new Map(harborTaskFiles(m, { imageId: 'sha256:1234', verifier: '# verify', testFiles: { clear: [], files: [], keep: [] } }).map((f) => [f.path, String(f.content)]));
    expect(files.get('instruction.md')).toContain('in the repository at /testbed:');
    expect((parse(files.get('task.toml')!) as { task: { description: string } }).task.description).toMatch(/the repository is at \/testbed\.$/);
    expect(files.get('solution/solve.sh')).toMatch(/^cd \/testbed$/m);
    expect(JSON.parse(files.get('tests/spec.json')!).repo_dir).toBe('/testbed');
    for (const [path, text] of files) if (path !== 'tests/verify.py') expect(text, path).not.toContain('/repo');
    expect(rlTask(m)).toMatchObject({ image: 'sweb.eval.x86_64.knotcfg__knotcfg-1:latest', workdir: '/testbed', instance: { image_name: 'sweb.eval.x86_64.knotcfg__knotcfg-1:latest' } });
    expect(rlTask(material()).workdir).toBe('/repo');
  });
});

describe('a folder export', () => {
  it('appears whole, replaces an earlier export, and leaves the old one when filling fails', async () => {
    const root = mkdtempSync(join(tmpdir(), 'bugbench-folder-'));
    const out = join(root, 'set');
    await writeFolderAtomically(out, async (staging) => {
      writeFileSync(join(staging, 'a'), '1');
      return { manifest: { n: 1 } };
    });
    expect(readdirSync(out).sort()).toEqual([EXPORT_MANIFEST, 'a']);
    await expect(
      writeFolderAtomically(out, async (staging) => {
        writeFileSync(join(staging, 'b'), '2');
        throw new Error('disk on fire');
      }),
    ).rejects.toThrow('disk on fire');
    expect(readdirSync(out).sort()).toEqual([EXPORT_MANIFEST, 'a']);
    await writeFolderAtomically(out, async (staging) => {
      writeFileSync(join(staging, 'b'), '2');
      return { manifest: { n: 2 } };
    });
    expect(readdirSync(out).sort()).toEqual([EXPORT_MANIFEST, 'b']);
    expect(JSON.parse(readFileSync(join(out, EXPORT_MANIFEST), 'utf8'))).toEqual({ n: 2 });
    expect(readdirSync(root)).toEqual(['set']);
  });

  it("refuses a folder of the user's and a missing parent, before doing anything", async () => {
    const root = mkdtempSync(join(tmpdir(), 'bugbench-folder-'));
    mkdirSync(join(root, 'mine'));
    writeFileSync(join(root, 'mine', 'thesis.tex'), '');
    let called = false;
    const fill = async () => {
      called = true;
      return { manifest: {} };
    };
    await expect(writeFolderAtomically(join(root, 'mine'), fill)).rejects.toMatchObject({ code: 'BB_EXPORT', message: expect.stringContaining('holds other things') });
    await expect(writeFolderAtomically(join(root, 'no', 'such'), fill)).rejects.toMatchObject({ message: `cannot write ${join(root, 'no', 'such')}: the folder ${join(root, 'no')} does not exist` });
    expect(called).toBe(false);
    expect(existsSync(join(root, 'mine', 'thesis.tex'))).toBe(true);
  });
});
