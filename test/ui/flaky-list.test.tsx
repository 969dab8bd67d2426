/**
 * The flaky tests a check found travel with the bug (#30 item 2): the store's
 * summary keeps them, `show`, the Review screen's tests and the Checks screen
 * name them, and a SWE-bench instance carries them beside FAIL_TO_PASS and
 * PASS_TO_PASS, which hold none of them.
 */
import { Box } from 'ink';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { formatDetails } from '../../src/commands/show.js';
import { swebenchInstance } from '../../src/datasets/swebench.js';
import type { BugMaterial } from '../../src/datasets/materials.js';
import type { BugDetails } from '../../src/pipeline/bug-details.js';
import { summariseReport } from '../../src/store/check-summary.js';
import { ChecksScreen } from '../../src/ui/checks-screen.js';
import { initialChecks } from '../../src/ui/checks-state.js';
import { detailLines } from '../../src/ui/review-lines.js';
import { bugRecord } from '../helpers/records.js';

const FLAKY = { id: 'tests/test_parser.py::test_top_level_assignments', flips: 1, seen: 'passed in "original", failed in "gold patch"' };
const checks = Array.from({ length: 9 }, (_, i) => ({ name: `c${i}`, verdict: 'pass', reason: 'fine' }));
const check = summariseReport({ valid: true, checks, FAIL_TO_PASS: ['tests/t.py::a'], PASS_TO_PASS: ['tests/t.py::b'], flaky: [FLAKY] }, '2026-11-26T00:00:00.000Z', 'checks/x');
const record = bugRecord('b1', { check });

describe('the flaky list', () => {
  it('is kept in the store\'s summary of the check', () => {
    expect(check.flaky).toEqual([{ id: FLAKY.id, flips: 1 }]);
  });

  it('is named by show and on the Review screen', () => {
    const details = { record, artifactDir: '/w/bugs/b1', trajectory: null, meta: null, testFiles: ['tests/t.py'], diffs: { bugInject: '', testWeaken: '', predPatch: null }, checks: null, FAIL_TO_PASS: ['tests/t.py::a'], PASS_TO_PASS: ['tests/t.py::b'], flaky: [FLAKY], reviews: [], checkHistory: [], report: null, attempts: [] } satisfies BugDetails;
    expect(formatDetails(details)).toContain(`flaky, in neither list (1):\n  ${FLAKY.id}: 1 flip(s): passed in "original", failed in "gold patch"`);
    const tests = detailLines(details, 'tests', 0).map((l) => l.text);
    expect(tests).toContain('flaky, in neither list (1)');
    expect(tests).toContain(`  ${FLAKY.id}: 1 flip(s)`);
  });

  it('is shown on the Checks screen', () => {
    const { lastFrame, unmount } = render(<ChecksScreen state={{ ...initialChecks, bugId: 'b1', source: 'report' }} bug={record} log={null} rows={30} columns={160} />);
    expect(lastFrame()).toContain(`flaky, dropped from PASS_TO_PASS: ${FLAKY.id} (1 flip)`);
    unmount();
  });

  it('leaves the focused check\'s whole reason readable on the Checks screen at 80 columns', () => {
    const reason = 'the original state gives the same results in "original" and "gold patch", and each of "revert a.py", "revert b.py" fixes a failing test: a bug whose failures come on a coin flip gets this far once in 32';
    const lines = [{ name: 'determinism', verdict: 'pass' as const, reason, durationMs: 1200, runs: [] }];
    const { lastFrame, unmount } = render(
      <Box width={80}>
        <ChecksScreen state={{ ...initialChecks, bugId: 'b1', source: 'report', lines, cursor: 3 }} bug={record} log={null} rows={30} columns={80} />
      </Box>,
    );
    const frame = lastFrame()!;
    for (const line of frame.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(frame.split('\n').map((l) => l.trim()).join(' ')).toContain(`determinism: ${reason}`);
    unmount();
  });

  it('travels in a SWE-bench instance', () => {
    const material = { record, flaky: [{ id: FLAKY.id, flips: 1 }], failToPass: ['tests/t.py::a'], passToPass: ['tests/t.py::b'] } as unknown as BugMaterial;
    const instance = swebenchInstance(material);
    expect(instance.bugbench.flaky_tests).toEqual([{ id: FLAKY.id, flips: 1 }]);
    expect(instance.PASS_TO_PASS).not.toContain(FLAKY.id);
  });
});
