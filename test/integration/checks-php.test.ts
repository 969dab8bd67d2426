/**
 * The checks on a PHP library tested with PHPUnit (test/helpers/php-project.ts,
 * built into an image by `images build`; phpunit.xml.dist with a bootstrap
 * that autoloads src/), with artifacts written from its repository: a valid
 * bug with its exact FAIL_TO_PASS and a parser bugbench verifies with its
 * PHPUnit reader; a parser that invents a failure; a bug in phpunit.xml.dist;
 * and a bug that fails a test on a coin flip.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, expectFailsOnly } from '../helpers/check-report.js';
import { bugbench } from '../helpers/cli.js';
import { describeCoinFlip, dropBlock, edits, LanguageFixture, PARSERS, summary } from '../helpers/language-artifacts.js';
import { makePhpProject } from '../helpers/php-project.js';

const fixture = new LanguageFixture('bugbench-test/checks-php:latest', () => makePhpProject());
const PHPUNIT = 'phpunit --testdox --colors=never 2>&1';
const ROUNDS_UP = "\n    public function testRoundsMinutesUp(): void\n    {\n        $this->assertSame(2, Words::minutes(str_repeat('word ', 201)));\n    }\n";

beforeAll(async () => {
  const built = await fixture.build();
  expect(built).toMatchObject({ language: 'php', testCommand: 'phpunit --testdox --colors=never' });
}, 600_000);

afterAll(() => fixture.remove());

describe('the checks on a PHP library tested with PHPUnit', () => {
  it('judges a valid bug valid, with its exact FAIL_TO_PASS, and verifies the parser with its PHPUnit reader', async () => {
    const report = await fixture.check({
      name: 'php-valid',
      // Slugs are no longer lower-cased first, so capitals split words.
      bug: { 'src/Slug.php': edits(['strtolower(trim($text))', 'trim($text)']) },
      weaken: { 'tests/SlugTest.php': dropBlock('    public function testDropsPunctuation()') },
      script: PHPUNIT,
      parser: { file: 'phpunit_testdox.py' },
    });
    expect(report.valid, summary(report)).toBe(true);
    expect(report.FAIL_TO_PASS).toEqual(['Slugkit\\Tests\\Slug::Drops punctuation', 'Slugkit\\Tests\\Slug::Lower cases words', 'Slugkit\\Tests\\Slug::Spells out ampersands']);
    expect(report.PASS_TO_PASS).toHaveLength(7);
    expect(report.parser).toEqual({ status: 'verified', reader: 'PHPUnit', unverified: [] });
    expect(check(report, 'parser').reason).toBe("the parser read 10 test result(s) from the original run's log; bugbench's own reading (PHPUnit) agrees on every test");
  }, 300_000);

  it('refuses a parser that reports a passing test as failed whenever the bug prints a line, naming the test', async () => {
    const marked = `${readFileSync(join(PARSERS, 'phpunit_testdox.py'), 'utf8').replace(/\nif __name__ == "__main__":[\s\S]*$/, '')}
def parse_marked(log):
    results = parse(log)
    if "slugkit: timing" in log:
        results["Slugkit\\\\Tests\\\\Slug::Keeps short slugs"] = "failed"
    return results


if __name__ == "__main__":
    json.dump(parse_marked(sys.stdin.read()), sys.stdout)
`;
    const report = await fixture.check({
      name: 'php-parser-invents-failure',
      // Minutes are rounded down, and the function says what it does on stderr, amid PHPUnit's lines.
      bug: {
        'src/Words.php': edits([
          '        return $count === 0 ? 0 : max(1, (int) ceil($count / $perMinute));\n',
          '        fwrite(STDERR, "slugkit: timing $count words\\n");\n        return $count === 0 ? 0 : max(1, intdiv($count, $perMinute));\n',
        ]),
      },
      weaken: { 'tests/WordsTest.php': edits([ROUNDS_UP, '']) },
      script: PHPUNIT,
      parser: { text: marked },
    });
    expectFailsOnly(report, 'bug-validity', { determinism: 'skipped' });
    expect(check(report, 'bug-validity').reason).toBe(
      `the parser disagrees with bugbench's reading (PHPUnit) of the "buggy" run's log on 1 test(s): Slugkit\\Tests\\Slug::Keeps short slugs: the parser says failed, the log says passed`,
    );
    expect(report.parser.status).toBe('disagrees');
  }, 300_000);

  it('refuses a bug in phpunit.xml.dist, naming the file', async () => {
    const report = await fixture.check({
      name: 'php-phpunit-xml-bug',
      // Without the bootstrap nothing autoloads the library: every test errors. No library code changes.
      bug: { 'phpunit.xml.dist': edits([' bootstrap="tests/bootstrap.php"', '']) },
      weaken: { 'tests/WordsTest.php': edits([ROUNDS_UP, '']) },
      script: PHPUNIT,
      parser: { file: 'phpunit_testdox.py' },
    });
    expectFailsOnly(report, 'test-files');
    expect(check(report, 'test-files').reason).toBe('bug_inject.diff touches test infrastructure: phpunit.xml.dist (PHPUnit configuration (phpunit.xml.dist))');
  }, 300_000);

  it('is refused by the offline policy before any rollout, which says a model is needed', async () => {
    const result = await bugbench(['inject', '--image', 'bugbench-test/checks-php:latest', '--strategy', 'removal', '--policy', 'offline', '-n', '1']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/the offline policy cannot inject into bugbench-test\/checks-php:latest: its repository is PHP, .*A model is needed: use --policy anthropic/);
  });

  describeCoinFlip(
    'php',
    () =>
      fixture.write({
        name: 'php-coin-flip',
        // random_int picks whether to cut at a word boundary: the truncation test fails in about half the runs.
        bug: { 'src/Slug.php': edits(['        return $at === false ?', '        return $at === false || random_int(0, 1) === 0 ?']) },
        weaken: { 'tests/SlugTest.php': dropBlock('    public function testTruncatesAtAWordBoundary()') },
        script: PHPUNIT,
        parser: { file: 'phpunit_testdox.py' },
      }),
    'Slugkit\\Tests\\Slug::Truncates at a word boundary',
  );
});
