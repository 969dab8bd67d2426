/**
 * Go code is indented with tabs and `go test` separates its columns with them
 * (issue 34, item 2): every screen shows a tab as the spaces to the next stop
 * of 4 columns, and cuts a line by the columns it takes once expanded.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { artifactPath } from '../helpers/artifacts.js';
import { fits } from '../helpers/terminal.js';
import { openWorkbench } from '../helpers/workbench.js';
import { coreOf, IMAGE, putBug, putRun, putTrajectory, workspace } from '../helpers/workspace.js';

const SIZE = { columns: 80, rows: 24 };
const BUG = 'ratekit-removal-1d5c1fcc';
/** A changed line longer than the terminal once its two tabs are expanded (79 characters, 84 columns). */
const LONG = '-\t\treturn fmt.Errorf("attempt %d: the delay %v passed the cap %v", a, d, p.Max)';

let term: Awaited<ReturnType<typeof openWorkbench>> | undefined;
afterEach(() => term?.unmount());

function expectNoTabs(frame: string): void {
  expect(frame).not.toContain('\t');
  const { widest } = fits(frame, SIZE);
  expect(widest).toBeLessThanOrEqual(SIZE.columns);
}

describe('tab-indented lines at 80 columns', () => {
  it("shows Review's diff of a Go bug with its tabs expanded, and cuts a long line by its columns", async () => {
    const store = workspace();
    const diff = readFileSync(artifactPath('go-valid-two-files/bug_inject.diff'), 'utf8');
    putBug(store, BUG, {}, { 'bug_inject.diff': diff.replace(' \tif attempt < 0 {\n', ` \tif attempt < 0 {\n${LONG}\n`), 'test_weaken.diff': '' });
    term = await openWorkbench(coreOf(store), SIZE);
    await term.press('5', /1 bug\(s\)/);
    await term.press('v', /\[checks\]/);
    await term.press('v', /\[diff\]/);
    // Scroll the detail pane to the changed lines.
    term.stdin.write('\r');
    for (let i = 0; i < 6; i++) term.stdin.write('j');
    await term.until(() => expect(term!.frame()).toContain('+   d := p.Initial << uint(attempt)'));
    const frame = term.frame();
    expect(frame).toContain('    if attempt < 0 {');
    expect(frame).toContain('        attempt = 0');
    expect(frame).toContain('-   // Double one step at a time: a shift by attempt overflows past 62');
    // 84 columns once expanded: cut at 79 and marked, its start intact.
    const long = frame.split('\n').find((l) => l.startsWith('-       return fmt.Errorf('));
    expect(long).toBe(`${'-       return fmt.Errorf("attempt %d: the delay %v passed the cap %v", a, d, p.Max)'.slice(0, 79)}…`);
    expectNoTabs(frame);
  });

  it("shows a go test log on Checks with its columns apart, the time whole", async () => {
    const store = workspace();
    const log = `bugs/${BUG}/checks/x/original.log`;
    const report = {
      valid: true,
      checks: [{ name: 'test-files', verdict: 'pass', reason: 'the test files are in order', durationMs: 14, runs: [{ label: 'original', command: 'go test -v ./...', exitCode: 0, durationMs: 14, timedOut: false, logPath: log, results: {} }] }],
      FAIL_TO_PASS: [],
      PASS_TO_PASS: [],
    };
    putBug(store, BUG, { check: { valid: true, cancelled: false, failedCheck: null, reason: 'all 9 checks pass', verdicts: 'ppppppppp', at: '2026-01-01T00:00:00.000Z', dir: 'checks/x', failToPass: 1, passToPass: 9 } }, {
      'checks/x/report.json': JSON.stringify(report),
      'checks/x/original.log': '=== RUN   TestDelay\n--- PASS: TestDelay (0.00s)\nPASS\nok\texample.com/ratekit/backoff\t0.014s\nok  \texample.com/ratekit/lru\t0.002s\n',
    });
    term = await openWorkbench(coreOf(store), SIZE);
    await term.press('5', /1 bug\(s\)/);
    await term.press('4', `${BUG} VALID`);
    await term.press('l', /── log of test-files: original/);
    const frame = term.frame();
    expect(frame).toContain('ok  example.com/ratekit/backoff 0.014s');
    expect(frame).toContain('ok      example.com/ratekit/lru 0.002s');
    expectNoTabs(frame);
  });

  it("shows a transcript's tab-indented tool output with its tabs expanded", async () => {
    const store = workspace();
    putRun(store, { id: 'run-go', kind: 'inject', n: 1 }, 1);
    putTrajectory(store, 'run-go', 'run-go-r1', [
      { type: 'rollout-started', rolloutId: 'run-go-r1', runId: 'run-go', role: 'injector', strategy: 'removal', policy: 'offline', model: 'offline/removal', image: IMAGE },
      { type: 'step-started', step: 1 },
      { type: 'tool-call-started', step: 1, callId: 'c1', name: 'bash' },
      {
        type: 'tool-call-finished',
        step: 1,
        callId: 'c1',
        name: 'bash',
        input: { command: 'sed -n 20,24p backoff/backoff.go; go test ./backoff' },
        output: '\tif attempt < 0 {\n\t\tattempt = 0\n\t}\nok\texample.com/ratekit/backoff\t0.014s\n',
        isError: false,
        exitCode: 0,
        durationMs: 20,
      },
      { type: 'finished', reason: 'submitted', steps: 1, costUsd: 0, durationMs: 30 },
    ]);
    term = await openWorkbench(coreOf(store), SIZE);
    await term.press('3', /r1 transcript/);
    await term.until(() => expect(term!.frame()).toContain('            attempt = 0'));
    const frame = term.frame();
    expect(frame).toContain('        if attempt < 0 {');
    expect(frame).toContain('    ok  example.com/ratekit/backoff 0.014s');
    expectNoTabs(frame);
  });

  it("shows a training job's log with its tabs expanded", async () => {
    const store = workspace();
    store.transact((tx) =>
      tx.put('jobs', {
        id: 'local-2df1',
        engine: 'local',
        handle: { id: '2df1', engine: 'local', key: 'k' },
        key: 'k',
        kind: 'sft',
        format: 'sft',
        status: 'accepted',
        bugCount: 1,
        lines: 1,
        dataset: 'jobs/local-2df1/dataset.jsonl',
        workdir: 'jobs/local-2df1',
        command: 'train',
        state: 'succeeded',
        rawState: 'exited',
        exitCode: 0,
        reason: null,
        submittedAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
      }),
    );
    const log = ['epoch\tloss\tlr', '1\t0.4182\t3e-5', `${'x'.repeat(70)}\t\tthe end`];
    term = await openWorkbench(coreOf(store, { jobLog: async () => log }), SIZE);
    await term.press('6', /── log of local-2df1/);
    await term.until(() => expect(term!.frame()).toContain('epoch'));
    const frame = term.frame();
    expect(frame).toContain('epoch   loss    lr');
    expect(frame).toContain('1   0.4182  3e-5');
    expect(frame).toContain(`${'x'.repeat(70)}      the…`);
    expectNoTabs(frame);
  });
});
