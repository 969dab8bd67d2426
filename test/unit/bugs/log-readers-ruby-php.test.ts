import { describe, expect, it } from 'vitest';
import { readLog, readLogWithFailures } from '../../../src/bugs/log-readers/index.js';
import { fullDescription } from '../../../src/bugs/log-readers/rspec.js';
import { auditParser } from '../../../src/bugs/parser-audit.js';
import { cutBefore, fixtureLog, readInPieces } from './log-reader-fixtures.js';
import { NameIndex } from '../../../src/bugs/log-readers/name-match.js';
import type { LogReading } from '../../../src/bugs/log-readers/types.js';

/** The test each of `names` stands for in `reading` (as the parser audit finds it), or '?' when none or several. */
function namesFor(reading: LogReading | undefined, names: string[]): string[] {
  const index = new NameIndex();
  for (const id of Object.keys(reading?.results ?? {})) index.add(id, reading?.parts?.[id]);
  return names.map((name) => {
    const found = index.resolve(name);
    return found.length === 1 ? found[0]! : '?';
  });
}

/** ledger's examples with the largest expense broken (see test/fixtures/logs/ruby). */
const RSPEC = {
  'Ledger.cents reads whole amounts': 'passed',
  'Ledger.cents reads amounts with cents': 'passed',
  'Ledger.cents reads thousands separators': 'passed',
  'Ledger.cents reads negative amounts': 'passed',
  'Ledger.format pads cents to two digits': 'passed',
  'Ledger.format keeps the sign of small negatives': 'passed',
  'Ledger#balance sums every entry': 'passed',
  'Ledger#balance is zero when empty': 'passed',
  'Ledger#largest_expense is the most negative entry': 'failed',
} as const;

describe('the RSpec readers', () => {
  it('builds full descriptions as RSpec does', () => {
    expect(fullDescription(['Ledger', '#balance', 'sums every entry'])).toBe('Ledger#balance sums every entry');
    expect(fullDescription(['Ledger', '::Entry', 'holds cents'])).toBe('Ledger::Entry holds cents');
    expect(fullDescription(['a parser', 'with spaces', 'reads'])).toBe('a parser with spaces reads');
  });

  it('reads the documentation format, with lines the code printed mixed into its tree', () => {
    const { reading, failures } = readLogWithFailures(fixtureLog('ruby', 'rspec-doc.log'));
    expect(reading?.reader).toBe('RSpec');
    expect(reading?.results).toEqual(RSPEC);
    expect(namesFor(reading, ['Ledger > #balance > sums every entry', 'Ledger balance sums every entry'])).toEqual(['Ledger#balance sums every entry', 'Ledger#balance sums every entry']);
    expect(failures.get('Ledger#largest_expense is the most negative entry')?.lines).toEqual([
      "expect(ledger_of('a' => '-3', 'b' => '-12.5', 'c' => '40').largest_expense).to eq(-1250)",
      'expected: -1250',
      'got: -300',
      '(compared using ==)',
    ]);
    for (const size of [1, 29, 1000]) expect(readInPieces(fixtureLog('ruby', 'rspec-doc.log'), size)).toEqual(reading);
  });

  it('reads the JSON format, and the same examples by the same names', () => {
    const reading = readLog(fixtureLog('ruby', 'rspec-json.log'));
    expect(reading).toMatchObject({ reader: 'RSpec JSON', results: RSPEC });
    expect(namesFor(reading, ['Ledger.cents > reads whole amounts'])).toEqual(['Ledger.cents reads whole amounts']);
  });

  it('leaves the progress format unread (it names only failures), and a tree whose failures differ from the list RSpec prints after', () => {
    expect(readLog(fixtureLog('ruby', 'rspec-progress.log'))).toMatchObject({ reader: 'RSpec', why: expect.stringMatching(/progress format names only the examples that fail/), namesOnlyFailures: true });
    const lying = fixtureLog('ruby', 'rspec-doc.log').replace('    sums every entry', '    sums every entry (FAILED - 2)');
    expect(readLog(lying)?.why).toMatch(/shows 9 example\(s\), 2 failed, where RSpec counted 9, 1 failed/);
    expect(readLog(cutBefore(fixtureLog('ruby', 'rspec-json.log'), '{"version"'))).toBeUndefined();
    expect(readLog(fixtureLog('ruby', 'rspec-json.log').replace('"example_count":9', '"example_count":10'))?.why).toMatch(/lists 9 example\(s\), 1 failed, where its summary counts 10/);
  });

  it('catches a parser that invents a failure', () => {
    const reading = readLog(fixtureLog('ruby', 'rspec-doc.log'))!;
    expect(auditParser({ ...RSPEC }, reading).status).toBe('agrees');
    expect(auditParser({ ...RSPEC, 'Ledger#balance sums every entry': 'failed' }, reading).status).toBe('disagrees');
  });
});

describe('the minitest reader', () => {
  const MINITEST = {
    'LedgerCentsTest#test_whole_amounts': 'passed',
    'LedgerCentsTest#test_negative_amounts': 'passed',
    'LedgerCentsTest#test_amounts_with_cents': 'passed',
    'LedgerBalanceTest#test_zero_when_empty': 'failed',
    'LedgerBalanceTest#test_sums_every_entry': 'failed',
  };

  it('reads --verbose, run directly or by rake', () => {
    for (const name of ['minitest-verbose.log', 'minitest-rake-verbose.log']) {
      const { reading, failures } = readLogWithFailures(fixtureLog('ruby', name));
      expect(reading?.reader).toBe('minitest');
      expect(reading?.results).toEqual(MINITEST);
      expect(namesFor(reading, ['LedgerBalanceTest::test_zero_when_empty', 'LedgerBalanceTest.test_zero_when_empty', 'test_zero_when_empty'])).toEqual(Array(3).fill('LedgerBalanceTest#test_zero_when_empty'));
      expect(failures.get('LedgerBalanceTest#test_zero_when_empty')?.lines).toEqual(['Expected: 0', 'Actual: 1']);
    }
  });

  it('leaves the default output unread (one character a test), and a run whose lines do not add up', () => {
    expect(readLog(fixtureLog('ruby', 'minitest-default.log'))).toMatchObject({ why: expect.stringMatching(/--verbose/), namesOnlyFailures: true });
    expect(readLog(fixtureLog('ruby', 'minitest-verbose.log').replace('5 runs,', '6 runs,'))?.why).toMatch(/show 5 test\(s\), 2 failed, where it counted 6 runs/);
  });
});

describe('the PHPUnit reader', () => {
  const TESTDOX = {
    'Slugkit\\Tests\\Slug::Lower cases words': 'passed',
    'Slugkit\\Tests\\Slug::Drops punctuation': 'passed',
    'Slugkit\\Tests\\Slug::Spells out ampersands': 'passed',
    'Slugkit\\Tests\\Slug::Uses the separator given': 'passed',
    'Slugkit\\Tests\\Slug::Truncates at a word boundary': 'failed',
    'Slugkit\\Tests\\Slug::Keeps short slugs': 'passed',
    'Slugkit\\Tests\\Words::Counts words across lines': 'passed',
    'Slugkit\\Tests\\Words::Empty text has no words': 'passed',
    'Slugkit\\Tests\\Words::Short text takes a minute': 'passed',
    'Slugkit\\Tests\\Words::Rounds minutes up': 'failed',
  };

  it('reads --testdox, with lines the code printed among the tests, and not the summary of failures it repeats', () => {
    const { reading, failures } = readLogWithFailures(fixtureLog('php', 'phpunit-testdox.log'));
    expect(reading?.reader).toBe('PHPUnit');
    expect(reading?.results).toEqual(TESTDOX);
    expect(namesFor(reading, ['Words::Rounds minutes up', 'Words > Rounds minutes up', 'Slugkit\\Tests\\Words > Rounds minutes up'])).toEqual(Array(3).fill('Slugkit\\Tests\\Words::Rounds minutes up'));
    expect(failures.get('Slugkit\\Tests\\Words::Rounds minutes up')?.lines).toEqual(['Failed asserting that 1 is identical to 2.', '/work/php/tests/WordsTest.php:29']);
    expect(readLog(fixtureLog('php', 'phpunit-testdox-pass.log'))?.results).toEqual(Object.fromEntries(Object.keys(TESTDOX).map((t) => [t, 'passed'])));
    for (const size of [1, 31]) expect(readInPieces(fixtureLog('php', 'phpunit-testdox.log'), size)).toEqual(reading);
  });

  it('leaves the default output unread, unless its JUnit report follows', () => {
    expect(readLog(fixtureLog('php', 'phpunit-default.log'))).toMatchObject({ reader: 'PHPUnit', why: expect.stringMatching(/--testdox/), namesOnlyFailures: true });
    const junit = readLog(fixtureLog('php', 'phpunit-junit.log'));
    expect(junit?.reader).toBe('JUnit XML');
    expect(junit?.results?.['Slugkit.Tests.SlugTest.testTruncatesAtAWordBoundary']).toBe('failed');
    expect(namesFor(junit, ['Slugkit\\Tests\\SlugTest::testTruncatesAtAWordBoundary', 'SlugTest#testTruncatesAtAWordBoundary'])).toEqual(Array(2).fill('Slugkit.Tests.SlugTest.testTruncatesAtAWordBoundary'));
    expect(Object.keys(junit?.results ?? {})).toHaveLength(10);
  });

  it('does not read a run cut short or one whose lines do not add up', () => {
    expect(readLog(cutBefore(fixtureLog('php', 'phpunit-testdox.log'), 'Time:'))?.why).toMatch(/did not print its tally/);
    expect(readLog(fixtureLog('php', 'phpunit-testdox.log').replace('Tests: 10,', 'Tests: 11,'))?.why).toMatch(/show 10 test\(s\), 2 failed, where PHPUnit counted 11/);
  });
});
