/**
 * The checks on a Ruby library tested with RSpec (test/helpers/ruby-project.ts,
 * built into an image by `images build`; specs under spec/ with a
 * spec_helper.rb), with artifacts written from its repository: a valid bug
 * with its exact FAIL_TO_PASS and a parser bugbench verifies with its RSpec
 * reader; a parser that invents a failure; a bug in spec_helper.rb; and a bug
 * that fails an example on a coin flip.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, expectFailsOnly } from '../helpers/check-report.js';
import { bugbench } from '../helpers/cli.js';
import { describeCoinFlip, edits, LanguageFixture, PARSERS, summary } from '../helpers/language-artifacts.js';
import { makeRubyProject } from '../helpers/ruby-project.js';

const fixture = new LanguageFixture('bugbench-test/checks-ruby:latest', () => makeRubyProject());
const RSPEC = 'rspec --format documentation 2>&1';

const SMALL_NEGATIVES = "\n    it 'keeps the sign of small negatives' do\n      expect(Ledger.format(-5)).to eq('-0.05')\n    end\n";
const LARGEST_EXPENSE = "\n  describe '#largest_expense' do\n    it 'is the most negative entry' do\n      expect(ledger_of('a' => '-3', 'b' => '-12.5', 'c' => '40').largest_expense).to eq(-1250)\n    end\n  end\n";

beforeAll(async () => {
  const built = await fixture.build();
  expect(built).toMatchObject({ language: 'ruby', testCommand: 'rspec --format documentation' });
}, 600_000);

afterAll(() => fixture.remove());

describe('the checks on a Ruby library tested with RSpec', () => {
  it('judges a valid bug valid, with its exact FAIL_TO_PASS, and verifies the parser with its RSpec reader', async () => {
    const report = await fixture.check({
      name: 'ruby-valid',
      // Cents are padded on the wrong side: 705 formats as 7.50.
      bug: { 'lib/ledger.rb': edits(["(format_abs % 100).to_s.rjust(2, '0')", "(format_abs % 100).to_s.ljust(2, '0')"]) },
      weaken: { 'spec/ledger_spec.rb': edits([SMALL_NEGATIVES, '']) },
      script: RSPEC,
      parser: { file: 'rspec_documentation.py' },
    });
    expect(report.valid, summary(report)).toBe(true);
    expect(report.FAIL_TO_PASS).toEqual(['Ledger.format keeps the sign of small negatives', 'Ledger.format pads cents to two digits']);
    expect(report.PASS_TO_PASS).toHaveLength(7);
    expect(report.parser).toEqual({ status: 'verified', reader: 'RSpec', unverified: [] });
    expect(check(report, 'parser').reason).toBe("the parser read 9 test result(s) from the original run's log; bugbench's own reading (RSpec) agrees on every test");
  }, 300_000);

  it('refuses a parser that reports a passing example as failed whenever the bug prints a line, naming the example', async () => {
    const marked = `${readFileSync(join(PARSERS, 'rspec_documentation.py'), 'utf8').replace(/\nif __name__ == "__main__":[\s\S]*$/, '')}
def parse_marked(log):
    results = parse(log)
    if "ledger: picking the largest expense" in log:
        results["Ledger#balance sums every entry"] = "failed"
    return results


if __name__ == "__main__":
    json.dump(parse_marked(sys.stdin.read()), sys.stdout)
`;
    const report = await fixture.check({
      name: 'ruby-parser-invents-failure',
      // The largest expense is the smallest one, and the method says what it does on stderr, amid RSpec's tree.
      bug: {
        'lib/ledger.rb': edits(['    @entries.map(&:cents).select(&:negative?).min\n', "    warn 'ledger: picking the largest expense'\n    @entries.map(&:cents).select(&:negative?).max\n"]),
      },
      weaken: { 'spec/ledger_spec.rb': edits([LARGEST_EXPENSE, '']) },
      script: RSPEC,
      parser: { text: marked },
    });
    expectFailsOnly(report, 'bug-validity', { determinism: 'skipped' });
    expect(check(report, 'bug-validity').reason).toBe(
      `the parser disagrees with bugbench's reading (RSpec) of the "buggy" run's log on 1 test(s): Ledger#balance sums every entry: the parser says failed, the log says passed`,
    );
    expect(report.parser.status).toBe('disagrees');
  }, 300_000);

  it('refuses a bug in spec/spec_helper.rb, naming the file', async () => {
    const report = await fixture.check({
      name: 'ruby-spec-helper-bug',
      // The specs' helper drops every sign; the library does not change.
      bug: { 'spec/spec_helper.rb': edits(['ledger.add(label, amount)', "ledger.add(label, amount.delete('-'))"]) },
      weaken: { 'spec/ledger_spec.rb': edits([LARGEST_EXPENSE, '']) },
      script: RSPEC,
      parser: { file: 'rspec_documentation.py' },
    });
    expectFailsOnly(report, 'test-files');
    expect(check(report, 'test-files').reason).toBe('bug_inject.diff touches test infrastructure: spec/spec_helper.rb (a test helper (spec_helper.rb))');
  }, 300_000);

  it('is refused by the offline policy before any rollout, which says a model is needed', async () => {
    const result = await bugbench(['inject', '--image', 'bugbench-test/checks-ruby:latest', '--strategy', 'removal', '--policy', 'offline', '-n', '1']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/the offline policy cannot inject into bugbench-test\/checks-ruby:latest: its repository is Ruby, .*A model is needed: use --policy anthropic/);
  });

  describeCoinFlip(
    'ruby',
    () =>
      fixture.write({
        name: 'ruby-coin-flip',
        // rand picks min or max: the largest expense is right in about half the runs.
        bug: { 'lib/ledger.rb': edits(['.select(&:negative?).min\n', '.select(&:negative?).send(rand < 0.5 ? :min : :max)\n']) },
        weaken: { 'spec/ledger_spec.rb': edits([LARGEST_EXPENSE, '']) },
        script: RSPEC,
        parser: { file: 'rspec_documentation.py' },
        params: { buggyRuns: 5 },
      }),
    'Ledger#largest_expense is the most negative entry',
  );
});
