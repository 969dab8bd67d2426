import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BugArtifact } from '../../src/bugs/artifact.js';
import { parseDiff } from '../../src/bugs/diff.js';
import { stateScript, type StateLayers } from '../../src/bugs/repo-state.js';
import { installArtifact, runTests } from '../../src/bugs/test-run.js';
import type { Sandbox } from '../../src/sandbox/sandbox.js';
import { sandboxWithRepo } from '../helpers/sandbox.js';

// Every change below keeps its file's size, so only a file's time tells Python's cache its versions apart.
const change = (file: string, context: string, from: string, to: string) => `diff --git a/${file} b/${file}
--- a/${file}
+++ b/${file}
@@ -1,3 +1,3 @@
 ${context}
-${from}
+${to}
 
`;
/** The bug: `a + b` made `a - b`. */
const BUG = change('calc.py', 'def add(a, b):', '    return a + b', '    return a - b');
/** A candidate that fixes the bug, and one that leaves it and breaks util.py instead. */
const FIX = change('calc.py', 'def add(a, b):', '    return a - b', '    return a + b');
const WRONG = change('util.py', '# settings', 'K = 1', 'K = 2');
/** Candidates that delete util.py, and that rename it: the next state's reset writes it back. */
const DELETE = 'diff --git a/util.py b/util.py\ndeleted file mode 100644\n--- a/util.py\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-# settings\n-K = 1\n-\n';
const RENAME = 'diff --git a/util.py b/settings.py\nsimilarity index 100%\nrename from util.py\nrename to settings.py\n';
/** A candidate that adds a package: its folder must not outlive its state as a namespace package. */
const ADD = 'diff --git a/newpkg/sub/__init__.py b/newpkg/sub/__init__.py\nnew file mode 100644\n--- /dev/null\n+++ b/newpkg/sub/__init__.py\n@@ -0,0 +1 @@\n+NAME = 1\n';

// The tests are a module of their own: their import caches the bytecode of calc, util and keep beside them, as pytest's would.
const TEST = `import calc, util, keep, mode
print(("PASSED" if mode.VALUE == "fast" else "FAILED") + " test_calc.py::test_mode")
print(("PASSED" if calc.add(2, 1) == 3 else "FAILED") + " test_calc.py::test_add")
print(("PASSED" if util.K == 1 else "FAILED") + " test_calc.py::test_k")
try:
    import newpkg.sub
    print("FAILED test_calc.py::test_no_newpkg")
except ImportError:
    print("PASSED test_calc.py::test_no_newpkg")
`;
const PARSER = `import json, sys
print(json.dumps({l.split()[1]: l.split()[0].lower() for l in sys.stdin if l.startswith(("PASSED ", "FAILED "))}))
`;

let sandbox: Sandbox;
let logDir: string;
let artifact: BugArtifact;
let base: string;
let runs = 0;
let RETARGET = '';

beforeAll(async () => {
  sandbox = await sandboxWithRepo('test-bytecode');
  // __pycache__ is ignored, as most repositories have it: `git clean -fd` between states leaves the cache alone.
  await sandbox.writeFiles([
    { path: 'test_calc.py', content: TEST },
    { path: 'util.py', content: '# settings\nK = 1\n\n' },
    { path: 'keep.py', content: 'UNCHANGED = True\n' },
    // Two modules of one size that a symlinked module may point at.
    { path: 'fast.py', content: 'VALUE = "fast"\n' },
    { path: 'safe.py', content: 'VALUE = "safe"\n' },
    { path: '.gitignore', content: '__pycache__/\n' },
  ]);
  // The files carry the times of an image built long ago.
  await sandbox.run('ln -s fast.py mode.py && git -c user.name=t -c user.email=t@example.com add -A && git -c user.name=t -c user.email=t@example.com commit -qm test && touch -h -d @1700000000 *.py');
  base = (await sandbox.run('git rev-parse HEAD')).stdout.trim();
  // A candidate that points mode.py at safe.py: a patch of the symlink, as git writes it.
  RETARGET = (await sandbox.run('ln -sfn safe.py mode.py && git diff && git checkout -q mode.py && touch -h -d @1700000000 mode.py')).stdout;
  logDir = mkdtempSync(join(tmpdir(), 'bugbench-bytecode-'));
  artifact = {
    dir: logDir,
    testFiles: ['test_calc.py'],
    testScript: '#!/bin/bash\npython3 test_calc.py\n',
    testParser: PARSER,
    bugInject: BUG,
    testWeaken: '',
    bugChanges: parseDiff(BUG),
    weakenChanges: [],
    predChanges: [],
  };
  await installArtifact(sandbox, artifact);
});
afterAll(async () => {
  await sandbox?.remove();
  if (logDir) rmSync(logDir, { recursive: true, force: true });
});

/** Builds the state and runs the tests in it: their results by id. */
async function resultsIn(layers: StateLayers): Promise<Record<string, string>> {
  return (await runTests(sandbox, { label: `run ${runs++}`, timeoutMs: 30_000, logDir, prepare: stateScript(artifact, base, layers) })).results;
}

/** The results of `add` then `k` (and `no_newpkg` where it fails) in the state. */
async function run(layers: StateLayers): Promise<string> {
  const results = await resultsIn(layers);
  const absent = results['test_calc.py::test_no_newpkg'] === 'failed' ? ' newpkg' : '';
  return `${results['test_calc.py::test_add'] ?? 'missing'} ${results['test_calc.py::test_k'] ?? 'missing'}${absent}`;
}

/**
 * Waits for the start of a second after every stamp given so far (states quicker than one a second stamp
 * ahead of the clock), so that the runs after it (a tenth of a second each) write their files in that second.
 */
async function nextSecond(): Promise<void> {
  const stamp = Number((await sandbox.run('cat /bugbench/bytecode-stamp 2>/dev/null || echo 0')).stdout.trim());
  const start = Math.max(Math.floor(Date.now() / 1000) + 1, stamp + 1) * 1000;
  await new Promise((resolve) => setTimeout(resolve, start - Date.now() + 20));
}

const keepCache = async () => (await sandbox.run('stat -c %y __pycache__/keep.*.pyc')).stdout;

describe("Python's bytecode between a bug's runs", () => {
  it('never serves one state the code of another written in the same second', async () => {
    const results: string[] = [];
    await nextSecond();
    for (let i = 0; i < 6; i++) results.push(await run({ bug: i % 2 === 1 }));
    expect(results).toEqual(['passed passed', 'failed passed', 'passed passed', 'failed passed', 'passed passed', 'failed passed']);
  });

  it('nor after a state that repeats the one before it (git rewrites its files with the same content)', async () => {
    await nextSecond();
    expect(await run({ bug: false })).toBe('passed passed');
    await nextSecond();
    expect(await run({ bug: true })).toBe('failed passed');
    await nextSecond();
    expect(await run({ bug: true })).toBe('failed passed');
    expect(await run({ bug: false })).toBe('passed passed');
  });

  it("nor after a candidate changed a file the next candidate leaves alone", async () => {
    await nextSecond();
    expect(await run({ bug: true, candidate: WRONG })).toBe('failed failed');
    expect(await run({ bug: true, candidate: FIX })).toBe('passed passed');
    expect(await run({ bug: true, candidate: WRONG })).toBe('failed failed');
    await nextSecond();
    expect(await run({ bug: true, candidate: FIX })).toBe('passed passed');
    expect(await run({ bug: true, candidate: WRONG })).toBe('failed failed');
  });

  it('nor after a candidate deleted or renamed a file', async () => {
    for (const gone of [DELETE, RENAME]) {
      await nextSecond();
      expect(await run({ bug: true, candidate: gone })).toBe('missing missing');
      expect(await run({ bug: true })).toBe('failed passed');
      expect(await run({ bug: true, candidate: WRONG })).toBe('failed failed');
      await nextSecond();
      expect(await run({ bug: true, candidate: WRONG })).toBe('failed failed');
      expect(await run({ bug: true, candidate: gone })).toBe('missing missing');
      expect(await run({ bug: true })).toBe('failed passed');
    }
  });

  it('leaves no folder of a package a candidate added to import in later states', async () => {
    expect(await run({ bug: true, candidate: ADD })).toBe('failed passed newpkg');
    expect(await run({ bug: true })).toBe('failed passed');
    expect(await run({ bug: false })).toBe('passed passed');
    expect((await sandbox.run('ls -a')).stdout).not.toMatch(/newpkg/);
  });

  it('nor after a candidate pointed a symlinked module at another file of its size and time', async () => {
    const mode = async (layers: StateLayers) => (await resultsIn(layers))['test_calc.py::test_mode'];
    expect(RETARGET).toContain('+safe.py');
    await nextSecond();
    expect(await mode({ bug: true })).toBe('passed');
    expect(await mode({ bug: true, candidate: RETARGET })).toBe('failed');
    expect(await mode({ bug: true })).toBe('passed');
    await nextSecond();
    expect(await mode({ bug: true, candidate: RETARGET })).toBe('failed');
    expect(await mode({ bug: false })).toBe('passed');
  });

  it('compiles a module no state changed once, and leaves the tracked files as the state made them', async () => {
    const first = await keepCache();
    expect(first).not.toBe('');
    await run({ bug: true });
    await run({ bug: false });
    expect(await keepCache()).toBe(first);
    expect((await sandbox.run('git status --porcelain --untracked-files=no')).stdout).toBe('');
  });
});
