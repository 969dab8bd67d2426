import { appendFileSync, cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadArtifact } from '../../src/bugs/artifact.js';
import { CHECK_NAMES, type CheckEvent } from '../../src/bugs/check-types.js';
import { CheckSession } from '../../src/bugs/consistency.js';
import { DEFAULT_CHECK_PARAMS } from '../../src/bugs/meta.js';
import { MAX_PARSER_OUTPUT_BYTES } from '../../src/bugs/test-run.js';
import { ArtifactError } from '../../src/errors.js';
import { dockerClient } from '../../src/sandbox/docker-api/client.js';
import { artifactPath, VALID_FAIL_TO_PASS } from '../helpers/artifacts.js';
import { check, checkJson, expectFailsOnly, verdicts, type JsonReport } from '../helpers/check-report.js';
import { bugbench } from '../helpers/cli.js';

/** A copy of a fixture artifact to change. */
function copyOf(name: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'bugbench-artifact-')), name);
  cpSync(artifactPath(name), dir, { recursive: true });
  return dir;
}

const containersOf = async (runId: string) =>
  (await dockerClient().listContainers({ all: true, filters: { label: [`bugbench.run=${runId}`] } })).length;

describe('bugbench check', () => {
  it('passes a valid two-file bug on all nine checks, with its exact FAIL_TO_PASS', async () => {
    const { exitCode, report } = await checkJson('valid-two-files');
    expect(exitCode).toBe(0);
    expect(report.valid).toBe(true);
    expect(report.checks.map((c) => c.name)).toEqual([...CHECK_NAMES]);
    expect(report.checks.every((c) => c.verdict === 'pass')).toBe(true);
    expect(report.FAIL_TO_PASS).toEqual(VALID_FAIL_TO_PASS);
    expect(report.PASS_TO_PASS).toHaveLength(77);
    expect(report.PASS_TO_PASS).not.toContain(VALID_FAIL_TO_PASS[0]);
    const gold = report.checks.find((c) => c.name === 'gold-patch')!;
    expect(gold.runs).toHaveLength(1);
    expect(Object.values(gold.runs[0]!.results).every((s) => s === 'passed')).toBe(true);
    const original = report.checks.find((c) => c.name === 'test-script')!.runs[0]!;
    expect(original).toMatchObject({ exitCode: 0, timedOut: false });
    expect(original.command).toContain('test_script.sh');
    expect(original.logPath).toMatch(/original\.log$/);
    const inverse = report.checks.find((c) => c.name === 'inverse-mutation')!;
    const logNames = inverse.runs.map((r) => r.logPath.split('/').at(-1));
    expect(logNames[0]).toMatch(/^revert_knotcfg_lexer\.py-[0-9a-f]{6}\.log$/);
    expect(logNames[1]).toMatch(/^revert_knotcfg_serializer\.py-[0-9a-f]{6}\.log$/);
    // Five runs of the buggy code against a coin flip: the weakened run counts for the tests it leaves alone and the two
    // reverts, each fixing a failing test, as one, so two reruns; bugbench read every log itself, and the report says what the weakening hides.
    const determinism = check(report, 'determinism');
    expect(determinism.runs.map((r) => r.label)).toEqual(['buggy (run 2)', 'buggy (run 3)']);
    expect(determinism.reason).toMatch(
      /^the original state gives the same results in "original" and "gold patch"; the bug's failures show again in 4 run\(s\) of the buggy code \("buggy", "buggy \(run 2\)", "buggy \(run 3\)", "buggy \+ weakened tests"\), each failing test in at least 3, and each of "revert knotcfg\/lexer\.py", "revert knotcfg\/serializer\.py" fixes a failing test, which a coin that survives one of those reverts does half the time: a bug whose failures come on a coin flip gets this far once in 32$/,
    );
    expect(report.flaky).toEqual([]);
    expect(report.parser).toEqual({ status: 'verified', reader: 'pytest -rA', unverified: [] });
    expect(report.checks.flatMap((c) => c.runs).every((r) => r.audit.status === 'agrees')).toBe(true);
    expect(report.weakening).toMatchObject({ files: 1, deletedTests: 2, changedTests: 0, suiteTests: 83, infrastructure: [], method: 'syntax' });
    expect(check(report, 'test-weakening').reason).toMatch(/; the weakening deletes 2 and changes 0 of the 83 tests, in 1 file\(s\)$/);
  }, 120_000);

  it('rejects a weakening beyond --max-weakened-tests, and reruns the buggy state as far as --buggy-runs asks', async () => {
    const { report } = await checkJson('valid-two-files', '--max-weakened-tests', '1', '--buggy-runs', '7');
    expectFailsOnly(report, 'test-weakening');
    expect(check(report, 'test-weakening').reason).toBe(
      'the weakening deletes 2 and changes 0 of the 83 tests, in 1 file(s): more than the 1 allowed (--max-weakened-tests)',
    );
    // Seven runs of the bug: the first, the weakened run, the reverts as one and four reruns; the tests the weakening deletes fail in five.
    expect(check(report, 'determinism').runs.map((r) => r.label)).toEqual(['buggy (run 2)', 'buggy (run 3)', 'buggy (run 4)', 'buggy (run 5)']);
    expect(check(report, 'determinism').reason).toMatch(/show again in 6 run\(s\) of the buggy code .*each failing test in at least 5, and each of .* once in 128$/);
  });

  it('fails inverse-mutation when one changed file does not matter', async () => {
    const { exitCode, report } = await checkJson('unneeded-file');
    expect(exitCode).toBe(1);
    expectFailsOnly(report, 'inverse-mutation');
    expect(report.checks.find((c) => c.name === 'inverse-mutation')!.reason).toMatch(/knotcfg\/errors\.py alone fixes none/);
  });

  it('fails determinism when the script picks different tests on each run', async () => {
    const { report } = await checkJson('flaky-selection');
    expectFailsOnly(report, 'determinism');
    expect(report.checks.find((c) => c.name === 'determinism')!.reason).toMatch(
      /^the test script picks different tests from run to run of one state \(\d+ test\(s\)\): tests\/test_query\.py::\S+: (passed|missing) in "(original|buggy)"/,
    );
  });

  it('fails test-files when the bug edits a test file', async () => {
    const { report } = await checkJson('bug-touches-tests');
    expectFailsOnly(report, 'test-files');
    expect(report.checks[0]!.reason).toBe('bug_inject.diff touches test files: tests/test_serializer.py');
  });

  it('fails test-files for listed test files the original does not have, naming each', async () => {
    const dir = copyOf('valid-two-files');
    appendFileSync(join(dir, 'test_files.txt'), 'tests/test_gone.py\ntests/test with space.py\ntests\n');
    const result = await bugbench(['check', dir, '--json']);
    const report = JSON.parse(result.stdout) as JsonReport;
    expectFailsOnly(report, 'test-files');
    expect(report.checks[0]!.reason).toBe('not in the original repository: tests/test_gone.py, tests/test with space.py');
  });

  it('fails parser when it prints prose instead of a JSON map', async () => {
    const { report } = await checkJson('prose-parser');
    expectFailsOnly(report, 'parser');
    expect(report.checks[1]!.reason).toMatch(/not JSON/);
  });

  it('fails parser when it prints more than the limit, even a map that would parse', async () => {
    const dir = copyOf('valid-two-files');
    // Leading blanks are valid JSON: only the size may refuse this map.
    writeFileSync(join(dir, 'test_parser.py'), `import sys\nsys.stdin.read()\nsys.stdout.write(" " * ${MAX_PARSER_OUTPUT_BYTES} + '{"tests/test_lexer.py::test_x": "passed"}')\n`);
    const result = await bugbench(['check', dir, '--json']);
    const report = JSON.parse(result.stdout) as JsonReport;
    expectFailsOnly(report, 'parser');
    expect(report.checks[1]!.reason).toMatch(`the parser printed more than ${MAX_PARSER_OUTPUT_BYTES} bytes, the limit`);
  });

  it('fails test-weakening when the weakening hides no failure', async () => {
    const { report } = await checkJson('weakening-hides-nothing');
    expectFailsOnly(report, 'test-weakening');
  });

  it('runs every check with --all even after a failure', async () => {
    const { report } = await checkJson('weakening-hides-nothing', '--all');
    expect(verdicts(report)).toMatchObject({ 'test-weakening': 'fail', 'inverse-mutation': 'pass', 'gold-patch': 'pass' });
  });

  it('applies --min-passing and the other thresholds', async () => {
    const { report } = await checkJson('valid-two-files', '--min-passing', '500');
    expectFailsOnly(report, 'test-script');
    expect(report.checks.find((c) => c.name === 'test-script')!.reason).toBe('83 test(s) pass on the original code; at least 500 required');
  });

  it('refuses an artifact whose diff leaves the repository before anything runs', async () => {
    expect(() => loadArtifact(artifactPath('escaping-path'))).toThrow(ArtifactError);
    const result = await bugbench(['check', artifactPath('escaping-path'), '--json']);
    expect(result.exitCode).toBe(1);
    // No report: the failure alone, as JSON for the script that asked for it.
    expect(JSON.parse(result.stdout).error.message).toBe('bug_inject.diff: refused: "../../etc/bugbench-owned" leaves the repository');
    expect(result.stderr.trim()).toBe('bugbench: bug_inject.diff: refused: "../../etc/bugbench-owned" leaves the repository');
  });

  it('names a missing artifact file', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'bugbench-empty-artifact-'));
    const result = await bugbench(['check', empty]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trim()).toBe('bugbench: test_files.txt: missing from the artifact folder');
  });
});

describe('the check stepper', () => {
  it('kills a hanging test script at the time limit, fails test-script, and removes its container', async () => {
    const runId = `test-hang-${Date.now()}`;
    const artifact = loadArtifact(artifactPath('hanging-script'));
    const session = new CheckSession({
      artifact,
      image: artifact.meta!.image.tag,
      baseCommit: artifact.meta!.baseCommit!,
      params: { ...DEFAULT_CHECK_PARAMS, testTimeoutSec: 2 },
      logDir: mkdtempSync(join(tmpdir(), 'bugbench-logs-')),
      parallelism: 1,
      runId,
    });
    try {
      expect((await session.step())?.verdict).toBe('pass'); // test-files
      expect(await containersOf(runId)).toBe(1);
      const parser = await session.step();
      expect(parser?.verdict).toBe('skipped');
      const script = await session.step();
      expect(script?.verdict).toBe('fail');
      expect(script?.runs[0]).toMatchObject({ timedOut: true });
      expect(script?.reason).toBe('timed out after 2 s in the original state (test_script.sh was killed at the limit)');
    } finally {
      await session.close();
    }
    expect(await containersOf(runId)).toBe(0);
  });

  it('steps one check at a time and emits events for each run', async () => {
    const events: CheckEvent[] = [];
    const artifact = loadArtifact(artifactPath('unneeded-file'));
    const session = new CheckSession({
      artifact,
      image: artifact.meta!.image.tag,
      baseCommit: artifact.meta!.baseCommit!,
      params: DEFAULT_CHECK_PARAMS,
      logDir: mkdtempSync(join(tmpdir(), 'bugbench-logs-')),
      parallelism: 3,
      onEvent: (e) => events.push(e),
    });
    try {
      const first = await session.step();
      expect(first?.name).toBe('test-files');
      expect(session.next).toBe('parser');
      expect(events.map((e) => e.type)).toEqual(['check-started', 'check-finished']);
      const report = await session.runAll();
      expect(report.checks).toHaveLength(9);
      expect(report.valid).toBe(false);
    } finally {
      await session.close();
    }
    const inverse = events.filter((e) => e.type === 'run-finished' && e.check === 'inverse-mutation');
    expect(inverse).toHaveLength(3);
    const output = events.filter((e) => e.type === 'run-output' && e.check === 'parser');
    expect(output.map((e) => (e.type === 'run-output' ? e.text : '')).join('')).toMatch(/83 passed/);
  });
});
