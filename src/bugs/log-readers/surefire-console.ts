/**
 * Reads what Maven Surefire and Failsafe print on the console, beside the XML
 * reports junit-xml.ts reads: after the " T E S T S" banner, a line per test
 * class ("Tests run: 7, Failures: 2, Errors: 1, Skipped: 1, Time elapsed:
 * 0.8 s <<< FAILURE! -- in com.example.CalcTest"; "- in" before Surefire 3,
 * nothing after the time before 2.19, when the class is the "Running" line's),
 * a line per failed test ("com.example.CalcTest.subtracts -- Time elapsed:
 * 0.06 s <<< FAILURE!" since Surefire 3, "subtracts(com.example.CalcTest)
 * Time elapsed: 0.06 s  <<< FAILURE!" before, "subtracts()  Time elapsed: …"
 * for JUnit 5 under 2.22), and at the end "Tests run: 9, Failures: 2, Errors:
 * 1, Skipped: 1" for the module. Maven's "[INFO] "/"[ERROR] " prefixes are
 * optional. With `-Dsurefire.reportFormat=plain` every test gets a line, passed
 * ones too ("com.example.OtherTest.adds -- Time elapsed: 0.001 s").
 *
 * Tests are named by test-ids.ts as JUnit XML names them (`<class>.<method>`,
 * which a parser may write with "#" or "::"), so a log holding both the console and the
 * reports names each test once. A failure or an error is a failure; skipped
 * tests are not results.
 *
 * A run is read only when its class lines add up to its module's totals and
 * each class names as many failed tests as it counts; Surefire copies what
 * tests print to the console, so a printed look-alike breaks the sums and
 * leaves the log unread. When a class names its passed tests too (plain
 * format), they are results; when it names none (the default, brief format),
 * the reading names the failures and only counts the passes (`unnamed`): the
 * parser's other passes are taken on count. A class naming some passes but not
 * all leaves the log unread.
 */
import { junitNames, ResultSet } from './test-ids.js';
import type { LogReader, LogReading } from './types.js';

export const SUREFIRE_READER = 'Maven Surefire console';

const PREFIX = /^\[(?:INFO|ERROR|WARNING|WARN)\] ?/;
const BANNER = /^ ?T E S T S$/;
const RUNNING = /^Running (\S+)$/;
const COUNTS = /^Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)/;
const CLASS_TAIL = /, Time elapsed: [\d.,]+ s(?:ec)?(?: <<< (?:FAILURE|ERROR)!)?(?: -{1,2} in (\S+))?$/;
const NEW_TEST = /^(\S+?) -- Time elapsed: [\d.,]+ s(?:ec)?(?: <<< (FAILURE|ERROR)!)?$/;
const OLD_TEST = /^(.+?)(?:\((\S+)\))? {2}Time elapsed: [\d.,]+ s(?:ec)?(?: {2}<<< (FAILURE|ERROR)!)?$/;

interface ClassTally {
  name: string;
  run: number;
  failed: number;
  skipped: number;
  namedFailed: number;
  namedPassed: number;
}

export function surefireConsoleReader(): LogReader {
  const results = new ResultSet();
  let seen = false;
  let inRun = false;
  let running: string | undefined;
  let current: ClassTally | undefined;
  let classes: ClassTally[] = [];
  let unnamed = 0;
  let problem: string | undefined;

  const closeClass = () => {
    if (!current) return;
    const c = current;
    current = undefined;
    if (c.namedFailed !== c.failed) problem ??= `Surefire counted ${c.failed} failed test(s) in ${c.name} but named ${c.namedFailed}`;
    const passed = c.run - c.failed - c.skipped;
    if (c.namedPassed !== 0 && c.namedPassed !== passed) problem ??= `Surefire counted ${passed} passed test(s) in ${c.name} but named ${c.namedPassed}`;
    if (c.namedPassed === 0) unnamed += passed;
  };

  const test = (method: string, owner: string | undefined, word: string | undefined) => {
    const cls = owner ?? current?.name;
    if (!current || !cls) {
      problem ??= `a test line comes before its class's "Tests run" line: ${method}`;
      return;
    }
    results.add(junitNames(cls, method), word ? 'failed' : 'passed');
    if (word) current.namedFailed++;
    else current.namedPassed++;
  };

  return {
    line(raw) {
      const text = raw.replace(PREFIX, '');
      if (BANNER.test(text)) {
        seen = inRun = true;
        return;
      }
      if (!inRun) return;
      const counts = COUNTS.exec(text);
      if (counts) {
        closeClass();
        const [run, failures, errors, skipped] = counts.slice(1, 5).map(Number) as [number, number, number, number];
        const tail = CLASS_TAIL.exec(text.slice(counts[0].length));
        if (tail) {
          current = { name: tail[1] ?? running ?? '', run, failed: failures + errors, skipped, namedFailed: 0, namedPassed: 0 };
          classes.push(current);
          return;
        }
        if (text !== counts[0]) return;
        // The module's totals.
        const sum = classes.reduce((s, c) => ({ run: s.run + c.run, failed: s.failed + c.failed, skipped: s.skipped + c.skipped }), { run: 0, failed: 0, skipped: 0 });
        if (sum.run !== run || sum.failed !== failures + errors || sum.skipped !== skipped) {
          problem ??= `Surefire's totals (${run} run, ${failures + errors} failed, ${skipped} skipped) are not the sum of its classes (${sum.run}, ${sum.failed}, ${sum.skipped})`;
        }
        classes = [];
        inRun = false;
        running = undefined;
        return;
      }
      const start = RUNNING.exec(text);
      if (start) {
        closeClass();
        running = start[1];
        return;
      }
      if (!current) return;
      const fresh = NEW_TEST.exec(text);
      if (fresh) {
        // "<class>.<method>[(params)[index]]": the class is the current one, else all before the method's dot.
        const name = fresh[1]!;
        const head = name.split('(')[0]!;
        const owner = name.startsWith(`${current.name}.`) ? current.name : head.slice(0, Math.max(0, head.lastIndexOf('.')));
        test(owner ? name.slice(owner.length + 1) : name, owner || undefined, fresh[2]);
        return;
      }
      const old = OLD_TEST.exec(text);
      if (old) test(old[1]!, old[2], old[3]);
    },
    finish(): LogReading | undefined {
      if (!seen) return undefined;
      closeClass();
      if (inRun) problem ??= 'the Surefire run did not finish (its log has no "Tests run" totals after its classes)';
      if (problem) return { reader: SUREFIRE_READER, why: problem };
      const reading = results.reading(SUREFIRE_READER);
      if (unnamed > 0) reading.unnamed = { passed: unnamed, why: 'Surefire names only the tests that failed (run it with -Dsurefire.reportFormat=plain to name every test)' };
      return reading;
    },
  };
}
