import { describe, expect, it } from 'vitest';
import { judge } from '../../../src/bugs/evaluate.js';
import type { RunRecord } from '../../../src/bugs/test-run.js';

const run = (over: Partial<RunRecord>): RunRecord => ({
  label: 'candidate patch',
  state: 'candidate-patch',
  command: 'bash test_script.sh',
  exitCode: 0,
  durationMs: 10,
  timedOut: false,
  limitSec: 90,
  logPath: '/tmp/x.log',
  results: { a: 'passed', b: 'passed' },
  parser: { command: 'python3 test_parser.py', exitCode: 0, durationMs: 1 },
  audit: { status: 'agrees', reader: 'pytest -rA' },
  ...over,
});
const spec = { failToPass: ['a'], passToPass: ['b'] };

describe('judging an evaluation run', () => {
  it('solves when every spec test passes', () => {
    expect(judge(run({}), spec)).toMatchObject({ solved: true, failing: [] });
  });

  it('solves nothing with a run that timed out, whatever it printed before', () => {
    expect(judge(run({ timedOut: true, exitCode: 137 }), spec)).toMatchObject({ solved: false, error: 'timed out after 90 s in the candidate-patch state' });
  });

  it('solves nothing when the parser contradicts the log', () => {
    const audit = { status: 'disagrees' as const, reader: 'pytest -rA', disagreements: [{ test: 'a', parser: 'passed' as const, log: 'failed' as const }] };
    expect(judge(run({ audit }), spec)).toMatchObject({ solved: false, error: expect.stringMatching(/parser disagrees/) });
  });
});
