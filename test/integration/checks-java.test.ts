/**
 * The checks on a Java library tested with JUnit 5 (test/helpers/java-project.ts,
 * built into an image by `images build`), with artifacts written from its
 * repository. The test script compiles with javac, runs the JUnit console
 * launcher with --reports-dir and prints the XML reports into the log, which
 * bugbench reads with its JUnit XML reader: a valid bug with its exact
 * FAIL_TO_PASS and a parser bugbench verifies; a parser that invents a
 * failure; a bug in a test class's helper under src/test/; and a bug that
 * fails a test on a coin flip.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, expectFailsOnly } from '../helpers/check-report.js';
import { makeJavaProject } from '../helpers/java-project.js';
import { describeCoinFlip, dropBlock, edits, LanguageFixture, PARSERS, summary } from '../helpers/language-artifacts.js';

const fixture = new LanguageFixture('bugbench-test/checks-java:latest', () => makeJavaProject());
const TESTS = 'src/test/java/org/example/shelf';
const MAIN = 'src/main/java/org/example/shelf';
const TEST_FILES = [`${TESTS}/IsbnTest.java`, `${TESTS}/ShelfTest.java`];

/**
 * Compiles everything, runs the tests `select` picks, then prints the
 * launcher's XML reports. Both JVMs run with the client compiler alone and the
 * serial collector, which start two to three times faster for runs this short.
 */
const junit = (select = '--scan-class-path') =>
  [
    'J=/usr/share/java/junit-platform-console-standalone.jar',
    'out=/tmp/shelf-tests',
    'rm -rf $out && mkdir -p $out/classes $out/reports',
    "find src -name '*.java' > $out/sources",
    'javac -J-XX:TieredStopAtLevel=1 -J-XX:+UseSerialGC -nowarn -encoding UTF-8 -d $out/classes -cp $J @$out/sources 2>&1 || exit 1',
    `java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -jar $J --disable-banner --disable-ansi-colors --details=summary --class-path $out/classes ${select} --reports-dir $out/reports 2>&1`,
    'status=$?',
    'cat $out/reports/*.xml',
    'exit $status',
  ].join('\n');

/** A JUnit test method, with its @Test line, up to the blank line after it. */
const dropTest = (name: string) => dropBlock(`    @Test\n    void ${name}()`);

beforeAll(async () => {
  const built = await fixture.build();
  expect(built.language).toBe('java');
}, 600_000);

afterAll(() => fixture.remove());

describe('the checks on a Java library tested with JUnit 5', () => {
  it('judges a valid bug valid, with its exact FAIL_TO_PASS, and verifies the parser with its JUnit XML reader', async () => {
    const report = await fixture.check({
      name: 'java-valid',
      // Books sorted by title, and authors matched with case.
      bug: {
        [`${MAIN}/Shelf.java`]: edits(
          ['books.sort(Comparator.comparing(Book::author).thenComparingInt(Book::year));', 'books.sort(Comparator.comparing(Book::title));'],
          ['b.author().equalsIgnoreCase(author)', 'b.author().equals(author)'],
        ),
      },
      weaken: { [`${TESTS}/ShelfTest.java`]: dropTest('keepsAuthorThenYearOrder') },
      testFiles: TEST_FILES,
      script: junit(),
      parser: { file: 'junit_xml.py' },
    });
    expect(report.valid, summary(report)).toBe(true);
    expect(report.FAIL_TO_PASS).toEqual(['org.example.shelf.ShelfTest.findsByAuthorIgnoringCase()', 'org.example.shelf.ShelfTest.keepsAuthorThenYearOrder()']);
    expect(report.PASS_TO_PASS).toHaveLength(9);
    expect(report.parser).toEqual({ status: 'verified', reader: 'JUnit XML', unverified: [] });
    expect(check(report, 'parser').reason).toBe("the parser read 11 test result(s) from the original run's log; bugbench's own reading (JUnit XML) agrees on every test");
    expect(check(report, 'test-weakening').reason).toMatch(/^the weakening hides 1 of 2 failure\(s\) \(1 removed, 0 loosened\): org\.example\.shelf\.ShelfTest\.keepsAuthorThenYearOrder\(\);/);
  }, 300_000);

  it('refuses a parser that reports a passing test as failed whenever the bug prints a line, naming the test', async () => {
    const marked = `${readFileSync(join(PARSERS, 'junit_xml.py'), 'utf8').replace(/\nif __name__ == "__main__":[\s\S]*$/, '')}
def parse_marked(log):
    results = parse(log)
    if "shelf: sorting books" in log:
        results["org.example.shelf.ShelfTest.keepsAuthorThenYearOrder()"] = "failed"
    return results


if __name__ == "__main__":
    json.dump(parse_marked(sys.stdin.read()), sys.stdout)
`;
    const report = await fixture.check({
      name: 'java-parser-invents-failure',
      bug: { [`${MAIN}/Shelf.java`]: edits(['        books.add(book);\n', '        books.add(book);\n        System.err.println("shelf: sorting books");\n']) },
      weaken: { [`${TESTS}/ShelfTest.java`]: dropTest('keepsAuthorThenYearOrder') },
      testFiles: TEST_FILES,
      script: junit(),
      parser: { text: marked },
    });
    expectFailsOnly(report, 'bug-validity', { determinism: 'skipped' });
    expect(check(report, 'bug-validity').reason).toBe(
      `the parser disagrees with bugbench's reading (JUnit XML) of the "buggy" run's log on 1 test(s): org.example.shelf.ShelfTest.keepsAuthorThenYearOrder(): the parser says failed, the log says passed`,
    );
    expect(report.parser.status).toBe('disagrees');
  }, 300_000);

  it('refuses a bug in the helper of a test class under src/test/ that test_files.txt leaves out, naming the file', async () => {
    const report = await fixture.check({
      name: 'java-test-helper-bug',
      // The shelf every ShelfTest starts from loses a book; no library code changes.
      bug: { [`${TESTS}/ShelfTest.java`]: edits(['        shelf.add(new Book("Other", "Adams", 1979, "9780140449136"));\n', '']) },
      weaken: { [`${TESTS}/IsbnTest.java`]: dropTest('acceptsDashes') },
      testFiles: [`${TESTS}/IsbnTest.java`],
      script: junit(),
      parser: { file: 'junit_xml.py' },
    });
    expectFailsOnly(report, 'test-files');
    expect(check(report, 'test-files').reason).toBe(`bug_inject.diff touches test infrastructure: ${TESTS}/ShelfTest.java (under src/test/ (test sources))`);
  }, 300_000);

  describeCoinFlip(
    'java',
    () => fixture.write({
      name: 'java-coin-flip',
      // Decided once per JVM: authors are matched with case in about half the runs.
      bug: {
        [`${MAIN}/Shelf.java`]: edits(
          ['    private final List<Book> books = new ArrayList<>();\n', '    private static final boolean STRICT = Math.random() < 0.5;\n    private final List<Book> books = new ArrayList<>();\n'],
          ['b.author().equalsIgnoreCase(author)', '(STRICT ? b.author().equals(author) : b.author().equalsIgnoreCase(author))'],
        ),
      },
      weaken: { [`${TESTS}/ShelfTest.java`]: dropTest('findsByAuthorIgnoringCase') },
      testFiles: [`${TESTS}/ShelfTest.java`],
      // Only the class the bug is about, to keep each run short.
      script: junit('--select-class org.example.shelf.ShelfTest'),
      parser: { file: 'junit_xml.py' },
      params: { buggyRuns: 5, minPassingTests: 4 },
    }),
    'org.example.shelf.ShelfTest.findsByAuthorIgnoringCase()',
  );
});
