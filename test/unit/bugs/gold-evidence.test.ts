import { describe, expect, it } from 'vitest';
import type { BugArtifact } from '../../../src/bugs/artifact.js';
import { gatherEvidence, type EvidenceSource } from '../../../src/bugs/check-evidence.js';
import { parseDiff } from '../../../src/bugs/diff.js';
import type { RunRecord } from '../../../src/bugs/test-run.js';
import type { TestMap } from '../../../src/bugs/test-results.js';

const change = (file: string) => `diff --git a/${file} b/${file}\n--- a/${file}\n+++ b/${file}\n@@ -1 +1 @@\n-a\n+b\n`;

function run(label: string, results: TestMap): RunRecord {
  return {
    label,
    state: label,
    command: 'bash test_script.sh',
    exitCode: 0,
    durationMs: 1,
    timedOut: false,
    limitSec: 90,
    logPath: `${label}.log`,
    results,
    parser: { command: 'python3 test_parser.py', exitCode: 0, durationMs: 1 },
    audit: { status: 'agrees', reader: 'pytest -rA' } as RunRecord['audit'],
  };
}

/** A bug of one code file whose failing test is t.py::a; the gold run fails t.py::b. */
function source(weaken: string): EvidenceSource {
  const artifact = {
    dir: '/x',
    testFiles: ['t.py'],
    testScript: '',
    testParser: '',
    bugInject: change('lib.py'),
    testWeaken: weaken,
    bugChanges: parseDiff(change('lib.py')),
    weakenChanges: parseDiff(weaken),
    predChanges: [],
  } as unknown as BugArtifact;
  const buggy = { 't.py::a': 'failed', 't.py::b': 'passed' } as const;
  return {
    artifact,
    setup: { parallelism: 1 },
    buggyRunCount: 5,
    revertsRun: false,
    originalRun: async () => run('original', { 't.py::a': 'passed', 't.py::b': 'passed' }),
    buggyRun: async () => run('buggy', buggy),
    buggyRerun: async (n) => run(`buggy (run ${n})`, buggy),
    weakenedRun: async () => run('buggy + weakened tests', { 't.py::b': 'passed' }),
    goldRun: async () => run('gold patch', { 't.py::a': 'passed', 't.py::b': 'failed' }),
    codeChanges: () => artifact.bugChanges,
    revertRun: async () => {
      throw new Error('no reverts for one file');
    },
    goImports: async () => undefined,
    weakeningScope: async () => ({ everything: false, touched: () => false, removed: (id: string) => id === 't.py::a' }) as never,
    weakening: async () => ({}) as never,
  };
}

describe('the gold run as evidence of the original state', () => {
  it('is a second look at the original only when its tree is the original: else a test it fails is no flip', async () => {
    // The weakening changes helper.py too, which the gold patch leaves in: its tree is not the original's.
    const apart = await gatherEvidence(source(`${change('t.py')}${change('helper.py')}`));
    expect(apart.flaky).toEqual([]);
    expect(apart.passToPass).toEqual(['t.py::b']);
    expect(apart.originalRuns.map((r) => r.label)).toEqual(['original']);
    // Weakening the test file alone: the gold tree is the original's, and b passing there and failing in it flips.
    const same = await gatherEvidence(source(change('t.py')));
    expect(same.flaky.map((f) => f.id)).toEqual(['t.py::b']);
    expect(same.originalRuns.map((r) => r.label)).toEqual(['original', 'gold patch']);
  });
});
