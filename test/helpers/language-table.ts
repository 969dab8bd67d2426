/**
 * The languages the checks are proven on, one row each: the fixture
 * repository built into its image, its test script and the parser its bugs
 * ship, and the four cases every language has — a valid bug with its exact
 * FAIL_TO_PASS, a parser that invents a failure whenever the bug prints a
 * line, a bug in the test infrastructure, and a bug that fails a test on a
 * coin flip — with what the report must say of each
 * (test/integration/checks-languages.test.ts judges them).
 */
import { readFileSync } from 'node:fs';
import { type BugSpec, dropBlock, edits, parserFile } from './language-artifacts.js';
import { makeCppProject } from './cpp-project.js';
import { makeGoProject } from './go-project.js';
import { makeJavaProject } from './java-project.js';
import { makeNodeProject } from './node-project.js';
import { makePhpProject } from './php-project.js';
import { makeRubyProject } from './ruby-project.js';
import { makeRustProject } from './rust-project.js';

/** A case's bug: what it changes; the row gives the script, test files and parser unless the case does. */
export type Case = Pick<BugSpec, 'bug' | 'weaken'> & Partial<Pick<BugSpec, 'script' | 'testFiles' | 'params'>>;

export interface Language {
  name: string;
  /** How the describe block names it. */
  title: string;
  make: () => Promise<string>;
  /** What `images build --json` says of the repository. */
  built: { language: string; testCommand?: string };
  script: string;
  testFiles?: string[];
  /** The parser the valid, infrastructure and coin-flip bugs ship (test/fixtures/parsers/ or data/parsers/). */
  parser: string;
  /** bugbench's own reader of the log, as the report names it (a pattern where it varies with the runner's version). */
  reader: string | RegExp;
  valid: Case & { failToPass: string[]; passToPass: number; results: number; hidden?: { of: number; test: string }; alsoPassing?: string };
  /** The parser says `test` failed whenever `marker` is in the log. */
  lying: Case & { marker: string; test: string };
  infrastructure: Case & { reason: string };
  coinFlip: Case & { test: string };
  /** How the offline policy names the language when it refuses to inject (a pattern). */
  offline?: string;
}

/** `parser` (a file), lying: `test` failed whenever `marker` is in the log. */
export function lyingParser(parser: string, marker: string, test: string): string {
  return `${readFileSync(parserFile(parser), 'utf8').replace(/\nif __name__ == "__main__":[\s\S]*$/, '')}
def parse_marked(log):
    results = parse(log)
    if ${JSON.stringify(marker)} in log:
        results[${JSON.stringify(test)}] = "failed"
    return results


if __name__ == "__main__":
    json.dump(parse_marked(sys.stdin.read()), sys.stdout)
`;
}

/** Removes the it() line of `title` from a node test file. */
export const dropIt = (title: string) => (text: string) => {
  const line = text.split('\n').find((l) => l.includes(`it('${title}'`));
  if (!line) throw new Error(`no test "${title}"`);
  return text.replace(`${line}\n`, '');
};

export const GO_PKG = 'example.com/tracekit';
export const GO_TEST_FILES = ['span/span_test.go', 'sampler/sampler_test.go'];
export const NODE_TEST_FILES = ['test/slug.test.js', 'test/wrap.test.js', 'test/case.test.js'];

const JAVA_TESTS = 'src/test/java/org/example/shelf';
const JAVA_MAIN = 'src/main/java/org/example/shelf';
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

const CPP_BUILD = 'cmake -S . -B /tmp/bugbench-build -DCMAKE_BUILD_TYPE=Debug > /dev/null && cmake --build /tmp/bugbench-build -j 2';
const RUBY_SMALL_NEGATIVES = "\n    it 'keeps the sign of small negatives' do\n      expect(Ledger.format(-5)).to eq('-0.05')\n    end\n";
const RUBY_LARGEST_EXPENSE = "\n  describe '#largest_expense' do\n    it 'is the most negative entry' do\n      expect(ledger_of('a' => '-3', 'b' => '-12.5', 'c' => '40').largest_expense).to eq(-1250)\n    end\n  end\n";
const PHP_ROUNDS_UP = "\n    public function testRoundsMinutesUp(): void\n    {\n        $this->assertSame(2, Words::minutes(str_repeat('word ', 201)));\n    }\n";

export const LANGUAGES: Language[] = [
  {
    name: 'go', title: 'a Go module', make: () => makeGoProject(), built: { language: 'go', testCommand: 'go test -count=1 -v ./...' },
    script: 'go test -count=1 -v ./... 2>&1', testFiles: GO_TEST_FILES, parser: 'go_test_parser.py', reader: 'go test -v',
    valid: {
      // A span's duration counted with both ends: every sum of durations is off.
      bug: { 'span/span.go': edits(['func (s Span) Duration() int64 { return s.End - s.Start }', 'func (s Span) Duration() int64 { return s.End - s.Start + 1 }']) },
      weaken: { 'span/span_test.go': dropBlock('func TestDuration(') },
      failToPass: [`${GO_PKG}/span/TestBusy`, `${GO_PKG}/span/TestBusyNested`, `${GO_PKG}/span/TestDuration`, `${GO_PKG}/span/TestTotal`], passToPass: 14, results: 18,
      hidden: { of: 4, test: `${GO_PKG}/span/TestDuration` }, alsoPassing: `${GO_PKG}/span/TestNew/reversed`,
    },
    lying: {
      bug: { 'span/span.go': edits(['import (\n\t"errors"\n', 'import (\n\t"errors"\n\t"fmt"\n\t"os"\n'], ['\tvar sum int64\n', '\tfmt.Fprintln(os.Stderr, "tracekit: summing spans")\n\tvar sum int64\n']) },
      weaken: { 'span/span_test.go': dropBlock('func TestTotal(') },
      marker: 'tracekit: summing spans', test: `${GO_PKG}/span/TestTotal`,
    },
    infrastructure: {
      // The helper drops the last span before the tests see it; no library code changes.
      bug: { 'span/helpers_test.go': edits(['for i := 0; i+1 < len(bounds); i += 2 {', 'for i := 0; i+3 < len(bounds); i += 2 {']) },
      weaken: { 'span/span_test.go': dropBlock('func TestTotal(') },
      reason: 'bug_inject.diff touches test infrastructure: span/helpers_test.go (a Go test file (*_test.go))',
    },
    coinFlip: {
      // Decided once per test binary: TestOverlaps fails in about half the runs.
      bug: {
        'span/span.go': edits(
          ['import (\n\t"errors"\n', 'import (\n\t"errors"\n\t"math/rand"\n\t"time"\n'],
          ['func (s Span) Overlaps(o Span) bool { return s.Start < o.End && o.Start < s.End }', 'func (s Span) Overlaps(o Span) bool { return s.Start < o.End && o.Start < s.End && !strict }\n\nvar strict = rand.New(rand.NewSource(time.Now().UnixNano())).Intn(2) == 0'],
        ),
      },
      weaken: { 'span/span_test.go': dropBlock('func TestOverlaps(') },
      testFiles: ['span/span_test.go'],
      // Only the package the bug lives in, to keep each run short.
      script: 'go test -count=1 -v ./span 2>&1',
      params: { buggyRuns: 5 },
      test: `${GO_PKG}/span/TestOverlaps`,
    },
  },
  {
    name: 'rust', title: 'a Rust crate', make: () => makeRustProject(), built: { language: 'rust', testCommand: 'cargo test' },
    // --no-fail-fast: without it cargo stops at the first test binary that fails, and the tests of the others vanish from the log.
    script: 'cargo test --no-fail-fast 2>&1', parser: 'cargo_test.py', reader: 'cargo test',
    valid: {
      // The ring's length no longer stops at its capacity.
      bug: { 'src/lib.rs': edits(['self.len = (self.len + 1).min(self.slots.len());', 'self.len += 1;']) },
      weaken: { 'tests/api.rs': dropBlock('#[test]\nfn mean_of_last_samples_only()') },
      failToPass: ['api/tests/api.rs::len_stops_at_capacity', 'api/tests/api.rs::mean_of_last_samples_only', 'ringstat/src/lib.rs::tests::push_wraps_around'], passToPass: 5, results: 8, hidden: { of: 3, test: 'api/tests/api.rs::mean_of_last_samples_only' },
    },
    lying: {
      // The line is the compiler's warning about the bug, which cargo replays from its cache on every run. (A line the
      // tests write to stderr lands wherever libtest's threads happen to be, so the log would differ between runs.)
      bug: { 'src/lib.rs': edits(['    pub fn max(&self) -> Option<f64> {\n', '    pub fn max(&self) -> Option<f64> {\n        let ringstat_computing_max = 0;\n']) },
      weaken: { 'tests/api.rs': dropBlock('#[test]\nfn max_of_negative_samples()') },
      marker: 'ringstat_computing_max', test: 'api/tests/api.rs::max_of_negative_samples',
    },
    infrastructure: {
      // One sample more than the test expects is pushed; no library code changes.
      bug: { 'src/lib.rs': edits(['for v in [1.0, 2.0, 3.0, 4.0] {', 'for v in [1.0, 2.0, 3.0, 4.0, 5.0] {']) },
      weaken: { 'tests/api.rs': dropBlock('#[test]\nfn len_stops_at_capacity()') },
      reason: 'bug_inject.diff touches test infrastructure: src/lib.rs (#[cfg(test)] mod tests)',
    },
    coinFlip: {
      // A hasher with fresh random keys picks min or max: max_of_negative_samples fails in about half the runs.
      bug: {
        'src/lib.rs': edits([
          '        self.values().into_iter().reduce(f64::max)\n',
          '        use std::hash::{BuildHasher, Hasher};\n        let coin = std::collections::hash_map::RandomState::new().build_hasher().finish() % 2 == 0;\n        let pick: fn(f64, f64) -> f64 = if coin { f64::min } else { f64::max };\n        self.values().into_iter().reduce(pick)\n',
        ]),
      },
      weaken: { 'tests/api.rs': dropBlock('#[test]\nfn max_of_negative_samples()') },
      // Only the integration tests, to keep each of the runs short.
      script: 'cargo test --test api 2>&1',
      params: { buggyRuns: 5, minPassingTests: 2 },
      test: 'api/tests/api.rs::max_of_negative_samples',
    },
  },
  {
    // The test script compiles with javac, runs the JUnit console launcher and prints its XML reports into the log.
    name: 'java', title: 'a Java library tested with JUnit 5', make: () => makeJavaProject(), built: { language: 'java' },
    script: junit(), testFiles: [`${JAVA_TESTS}/IsbnTest.java`, `${JAVA_TESTS}/ShelfTest.java`], parser: 'junit_xml.py', reader: 'JUnit XML',
    valid: {
      // Books sorted by title, and authors matched with case.
      bug: {
        [`${JAVA_MAIN}/Shelf.java`]: edits(
          ['books.sort(Comparator.comparing(Book::author).thenComparingInt(Book::year));', 'books.sort(Comparator.comparing(Book::title));'],
          ['b.author().equalsIgnoreCase(author)', 'b.author().equals(author)'],
        ),
      },
      weaken: { [`${JAVA_TESTS}/ShelfTest.java`]: dropTest('keepsAuthorThenYearOrder') },
      failToPass: ['org.example.shelf.ShelfTest.findsByAuthorIgnoringCase()', 'org.example.shelf.ShelfTest.keepsAuthorThenYearOrder()'], passToPass: 9, results: 11,
      hidden: { of: 2, test: 'org.example.shelf.ShelfTest.keepsAuthorThenYearOrder()' },
    },
    lying: {
      bug: { [`${JAVA_MAIN}/Shelf.java`]: edits(['        books.add(book);\n', '        books.add(book);\n        System.err.println("shelf: sorting books");\n']) },
      weaken: { [`${JAVA_TESTS}/ShelfTest.java`]: dropTest('keepsAuthorThenYearOrder') },
      marker: 'shelf: sorting books', test: 'org.example.shelf.ShelfTest.keepsAuthorThenYearOrder()',
    },
    infrastructure: {
      // The helper of a test class under src/test/ that test_files.txt leaves out: the shelf every ShelfTest starts from loses a book.
      bug: { [`${JAVA_TESTS}/ShelfTest.java`]: edits(['        shelf.add(new Book("Other", "Adams", 1979, "9780140449136"));\n', '']) },
      weaken: { [`${JAVA_TESTS}/IsbnTest.java`]: dropTest('acceptsDashes') },
      testFiles: [`${JAVA_TESTS}/IsbnTest.java`],
      reason: `bug_inject.diff touches test infrastructure: ${JAVA_TESTS}/ShelfTest.java (under src/test/ (test sources))`,
    },
    coinFlip: {
      // Decided once per JVM: authors are matched with case in about half the runs.
      bug: {
        [`${JAVA_MAIN}/Shelf.java`]: edits(
          ['    private final List<Book> books = new ArrayList<>();\n', '    private static final boolean STRICT = Math.random() < 0.5;\n    private final List<Book> books = new ArrayList<>();\n'],
          ['b.author().equalsIgnoreCase(author)', '(STRICT ? b.author().equals(author) : b.author().equalsIgnoreCase(author))'],
        ),
      },
      weaken: { [`${JAVA_TESTS}/ShelfTest.java`]: dropTest('findsByAuthorIgnoringCase') },
      testFiles: [`${JAVA_TESTS}/ShelfTest.java`],
      // Only the class the bug is about, to keep each run short.
      script: junit('--select-class org.example.shelf.ShelfTest'),
      params: { buggyRuns: 5, minPassingTests: 4 },
      test: 'org.example.shelf.ShelfTest.findsByAuthorIgnoringCase()',
    },
  },
  {
    // `npm test` runs `node --test`, which prints TAP on a pipe.
    name: 'node', title: 'a package tested with node --test', make: () => makeNodeProject(), built: { language: 'node', testCommand: 'npm test' },
    script: 'npm test 2>&1', testFiles: NODE_TEST_FILES, parser: 'node_tap_parser.py', reader: 'TAP (node --test)',
    valid: {
      // Accents kept and runs of separators no longer collapsed.
      bug: { 'src/slug.js': edits([".normalize('NFKD')", ".normalize('NFC')"], [".replace(/[^a-z0-9]+/g, '-')", ".replace(/[^a-z0-9]/g, '-')"]) },
      weaken: { 'test/slug.test.js': dropIt('drops accents') },
      failToPass: ['slugify > collapses runs of separators', 'slugify > drops accents'], passToPass: 10, results: 12, hidden: { of: 2, test: 'slugify > drops accents' },
    },
    lying: {
      bug: { 'src/wrap.js': edits(['export function wrap(text, width) {\n', "export function wrap(text, width) {\n  console.error('textkit: wrapping');\n"]) },
      weaken: { 'test/wrap.test.js': dropIt('breaks at spaces') },
      marker: 'textkit: wrapping', test: 'wrap > breaks at spaces',
    },
    infrastructure: {
      // The test script preloads a module that breaks String.prototype.normalize in every test process.
      bug: {
        'package.json': edits(['"test": "node --test"', '"test": "node --require ./src/compat.cjs --test"']),
        'src/compat.cjs': () => 'String.prototype.normalize = function () {\n  return String(this);\n};\n',
      },
      weaken: { 'test/slug.test.js': dropIt('drops accents') },
      reason: "bug_inject.diff touches test infrastructure: package.json (package.json's test script)",
    },
    coinFlip: {
      // A coin at each call; only 'trims dashes at the ends' slugs a text that ends in a dash, so it alone fails, in about half the runs.
      bug: { 'src/slug.js': edits([".replace(/^-+|-+$/g, '')", ".replace(Math.random() < 0.5 ? /^-+|-+$/g : /^-+/g, '')"]) },
      weaken: { 'test/slug.test.js': dropIt('trims dashes at the ends') },
      testFiles: ['test/slug.test.js'],
      script: 'node --test test/slug.test.js 2>&1',
      params: { buggyRuns: 5, minPassingTests: 4 },
      test: 'slugify > trims dashes at the ends',
    },
  },
  {
    // GoogleTest and Catch2 tests run by CTest.
    name: 'cpp', title: 'a C++ library built with CMake', make: () => makeCppProject(), built: { language: 'cpp', testCommand: `${CPP_BUILD} && ctest --test-dir /tmp/bugbench-build --output-on-failure` },
    script: `${CPP_BUILD} && ctest --test-dir /tmp/bugbench-build --output-on-failure 2>&1`, parser: 'ctest.py', reader: /.*ctest/, offline: 'C/C\\+\\+',
    valid: {
      // The sum starts from an int, so every sample is truncated: a classic of std::accumulate.
      bug: { 'src/stats.cc': edits(['std::accumulate(values_.begin(), values_.end(), 0.0)', 'std::accumulate(values_.begin(), values_.end(), 0)']) },
      weaken: { 'tests/stats_test.cc': dropBlock('TEST(StatsTest, MeanOfTenths)') },
      failToPass: ['StatsTest.MeanOfTenths', 'StatsTest.MeanOfThree'], passToPass: 7, results: 9,
    },
    lying: {
      // The median of an even count is the upper middle sample again, and the function says what it does on stderr,
      // which CTest shows under --output-on-failure for the test that fails.
      bug: {
        'src/stats.cc': edits(
          ['#include <numeric>\n', '#include <cstdio>\n#include <numeric>\n'],
          ['  if (sorted.size() % 2 == 0) return (sorted[mid - 1] + sorted[mid]) / 2.0;\n', '  std::fprintf(stderr, "tally: computing the median\\n");\n'],
        ),
      },
      weaken: { 'tests/stats_test.cc': dropBlock('TEST(MedianTest, EvenCountIsMeanOfMiddleTwo)') },
      marker: 'tally: computing the median', test: 'StatsTest.MinAndMaxOfNegatives',
    },
    infrastructure: {
      // A compile definition only the tests see: their tolerance drops to zero, so 0.1 + 0.2 no longer averages to 0.15.
      bug: { 'CMakeLists.txt': edits(['TALLY_EPSILON=1e-9', 'TALLY_EPSILON=0']) },
      weaken: { 'tests/stats_test.cc': dropBlock('TEST(StatsTest, MeanOfTenths)') },
      reason: 'bug_inject.diff touches test infrastructure: CMakeLists.txt (CMake test setup: enable_testing, add_test, test discovery, test executables)',
    },
    coinFlip: {
      // A random device picks min or max: MinAndMaxOfNegatives fails in about half the runs.
      bug: {
        'src/stats.cc': edits(
          ['#include <numeric>\n', '#include <numeric>\n#include <random>\n'],
          ['  return *std::max_element(values_.begin(), values_.end());\n', '  if (std::random_device{}() % 2 == 0) return *std::min_element(values_.begin(), values_.end());\n  return *std::max_element(values_.begin(), values_.end());\n'],
        ),
      },
      weaken: { 'tests/stats_test.cc': dropBlock('TEST(StatsTest, MinAndMaxOfNegatives)') },
      // Only the GoogleTest cases, to keep each of the runs short.
      script: `${CPP_BUILD} && ctest --test-dir /tmp/bugbench-build --output-on-failure -R '^(StatsTest|MedianTest)\\.' 2>&1`,
      params: { buggyRuns: 5, minPassingTests: 2 },
      test: 'StatsTest.MinAndMaxOfNegatives',
    },
  },
  {
    name: 'ruby', title: 'a Ruby library tested with RSpec', make: () => makeRubyProject(), built: { language: 'ruby', testCommand: 'rspec --format documentation' },
    script: 'rspec --format documentation 2>&1', parser: 'rspec_documentation.py', reader: 'RSpec', offline: 'Ruby',
    valid: {
      // Cents are padded on the wrong side: 705 formats as 7.50.
      bug: { 'lib/ledger.rb': edits(["(format_abs % 100).to_s.rjust(2, '0')", "(format_abs % 100).to_s.ljust(2, '0')"]) },
      weaken: { 'spec/ledger_spec.rb': edits([RUBY_SMALL_NEGATIVES, '']) },
      failToPass: ['Ledger.format keeps the sign of small negatives', 'Ledger.format pads cents to two digits'], passToPass: 7, results: 9,
    },
    lying: {
      // The largest expense is the smallest one, and the method says what it does on stderr, amid RSpec's tree.
      bug: { 'lib/ledger.rb': edits(['    @entries.map(&:cents).select(&:negative?).min\n', "    warn 'ledger: picking the largest expense'\n    @entries.map(&:cents).select(&:negative?).max\n"]) },
      weaken: { 'spec/ledger_spec.rb': edits([RUBY_LARGEST_EXPENSE, '']) },
      marker: 'ledger: picking the largest expense', test: 'Ledger#balance sums every entry',
    },
    infrastructure: {
      // The specs' helper drops every sign; the library does not change.
      bug: { 'spec/spec_helper.rb': edits(['ledger.add(label, amount)', "ledger.add(label, amount.delete('-'))"]) },
      weaken: { 'spec/ledger_spec.rb': edits([RUBY_LARGEST_EXPENSE, '']) },
      reason: 'bug_inject.diff touches test infrastructure: spec/spec_helper.rb (a test helper (spec_helper.rb))',
    },
    coinFlip: {
      // rand picks min or max: the largest expense is right in about half the runs.
      bug: { 'lib/ledger.rb': edits(['.select(&:negative?).min\n', '.select(&:negative?).send(rand < 0.5 ? :min : :max)\n']) },
      weaken: { 'spec/ledger_spec.rb': edits([RUBY_LARGEST_EXPENSE, '']) },
      params: { buggyRuns: 5 },
      test: 'Ledger#largest_expense is the most negative entry',
    },
  },
  {
    // phpunit.xml.dist with a bootstrap that autoloads src/.
    name: 'php', title: 'a PHP library tested with PHPUnit', make: () => makePhpProject(), built: { language: 'php', testCommand: 'phpunit --testdox --colors=never' },
    script: 'phpunit --testdox --colors=never 2>&1', parser: 'phpunit_testdox.py', reader: 'PHPUnit', offline: 'PHP',
    valid: {
      // Slugs are no longer lower-cased first, so capitals split words.
      bug: { 'src/Slug.php': edits(['strtolower(trim($text))', 'trim($text)']) },
      weaken: { 'tests/SlugTest.php': dropBlock('    public function testDropsPunctuation()') },
      failToPass: ['Slugkit\\Tests\\Slug::Drops punctuation', 'Slugkit\\Tests\\Slug::Lower cases words', 'Slugkit\\Tests\\Slug::Spells out ampersands'], passToPass: 7, results: 10,
    },
    lying: {
      // Minutes are rounded down, and the function says what it does on stderr, amid PHPUnit's lines.
      bug: {
        'src/Words.php': edits([
          '        return $count === 0 ? 0 : max(1, (int) ceil($count / $perMinute));\n',
          '        fwrite(STDERR, "slugkit: timing $count words\\n");\n        return $count === 0 ? 0 : max(1, intdiv($count, $perMinute));\n',
        ]),
      },
      weaken: { 'tests/WordsTest.php': edits([PHP_ROUNDS_UP, '']) },
      marker: 'slugkit: timing', test: 'Slugkit\\Tests\\Slug::Keeps short slugs',
    },
    infrastructure: {
      // Without the bootstrap nothing autoloads the library: every test errors. No library code changes.
      bug: { 'phpunit.xml.dist': edits([' bootstrap="tests/bootstrap.php"', '']) },
      weaken: { 'tests/WordsTest.php': edits([PHP_ROUNDS_UP, '']) },
      reason: 'bug_inject.diff touches test infrastructure: phpunit.xml.dist (PHPUnit configuration (phpunit.xml.dist))',
    },
    coinFlip: {
      // random_int picks whether to cut at a word boundary: the truncation test fails in about half the runs.
      bug: { 'src/Slug.php': edits(['        return $at === false ?', '        return $at === false || random_int(0, 1) === 0 ?']) },
      weaken: { 'tests/SlugTest.php': dropBlock('    public function testTruncatesAtAWordBoundary()') },
      test: 'Slugkit\\Tests\\Slug::Truncates at a word boundary',
    },
  },
];
