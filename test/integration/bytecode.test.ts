import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BugArtifact } from '../../src/bugs/artifact.js';
import { parseDiff } from '../../src/bugs/diff.js';
import { stateScript } from '../../src/bugs/repo-state.js';
import { installArtifact, runTests } from '../../src/bugs/test-run.js';
import type { Sandbox } from '../../src/sandbox/sandbox.js';
import { sandboxWithRepo } from '../helpers/sandbox.js';

// The bug turns `a + b` into `a - b`: the file keeps its size, so only its time tells Python's cache the two apart.
const BUG = `diff --git a/calc.py b/calc.py
--- a/calc.py
+++ b/calc.py
@@ -1,3 +1,3 @@
 def add(a, b):
-    return a + b
+    return a - b
 
`;
// The test is a module of its own: its import caches calc's bytecode beside calc.py, as pytest's would.
const TEST = 'import calc, util\nprint(("PASSED" if calc.add(2, 1) == 3 else "FAILED") + " test_calc.py::test_add")\n';
const PARSER = `import json, sys
print(json.dumps({l.split()[1]: l.split()[0].lower() for l in sys.stdin if l.startswith(("PASSED ", "FAILED "))}))
`;

let sandbox: Sandbox;
let logDir: string;
let artifact: BugArtifact;
let base: string;

beforeAll(async () => {
  sandbox = await sandboxWithRepo('test-bytecode');
  // Ignored, as most repositories have it: \`git clean -fd\` between states leaves the cache alone.
  await sandbox.writeFiles([
    { path: 'test_calc.py', content: TEST },
    { path: 'util.py', content: 'UNCHANGED = True\n' },
    { path: '.gitignore', content: '__pycache__/\n' },
  ]);
  // The files carry the times of an image built long ago.
  await sandbox.run('git -c user.name=t -c user.email=t@example.com add -A && git -c user.name=t -c user.email=t@example.com commit -qm test && touch -d @1700000000 *.py');
  base = (await sandbox.run('git rev-parse HEAD')).stdout.trim();
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

describe("Python's bytecode between a bug's runs", () => {
  it('is kept, and never serves one state the code of another written in the same second', async () => {
    const results: string[] = [];
    const utilCache = async () => (await sandbox.run('stat -c %y __pycache__/util.*.pyc')).stdout;
    let firstUtilCache = '';
    // Runs of a few tens of milliseconds: most states are written in the second the previous one was.
    for (let i = 0; i < 8; i++) {
      const bug = i % 2 === 1;
      const run = await runTests(sandbox, { label: `run ${i}`, timeoutMs: 30_000, logDir, prepare: stateScript(artifact, base, { bug }) });
      results.push(run.results['test_calc.py::test_add'] ?? 'missing');
      if (i === 0) firstUtilCache = await utilCache();
    }
    expect(results).toEqual(['passed', 'failed', 'passed', 'failed', 'passed', 'failed', 'passed', 'failed']);
    // A module no state changed was compiled once, by the first run; the tracked files differ from the commit by the bug alone.
    expect(firstUtilCache).not.toBe('');
    expect(await utilCache()).toBe(firstUtilCache);
    expect((await sandbox.run('git status --porcelain --untracked-files=no')).stdout).toBe(' M calc.py\n');
  });
});
