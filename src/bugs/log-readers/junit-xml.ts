/**
 * Reads JUnit XML reports (Maven Surefire, Gradle, the JUnit 5 console
 * launcher's --reports-dir) that a test script prints into its log, e.g. with
 * `cat target/surefire-reports/*.xml`. A report starts at a line that opens
 * "<?xml" or a <testsuites>/<testsuite> element and ends where that root
 * element closes; the scanner skips CDATA sections and comments, so what a
 * test printed into <system-out> cannot close a report early. Each report is
 * parsed whole with fast-xml-parser. A <testcase> failed when it holds a
 * <failure> or <error>, is skipped (not a result) when it holds <skipped>,
 * and passed otherwise (Surefire's flaky reruns included). Tests are named by
 * test-ids.ts (`<classname>.<name>`).
 *
 * A report is read only when it is well-formed and each suite's own counts
 * (tests, failures, errors, skipped) match its test cases (Catch2's, which
 * count assertions, are at least its test cases'); a report cut short,
 * one with a DOCTYPE, or one larger than MAX_REPORT_CHARS leaves the log
 * unread, with the reason. Lines longer than lines.ts keeps are cut, so a
 * report written on one long line does not parse: print reports as the tools
 * write them.
 *
 * A failed test case's detail is the text of its <failure> or <error> (the
 * exception and its message, stack frames left out), else its message
 * attribute.
 */
import { lazyRequire } from '../../lazy-require.js';
import { DetailLines, FailureDetails } from './failure-details.js';
import { junitNames, phpunitNames, ResultSet } from './test-ids.js';
import type { LogReader, LogReading } from './types.js';

/** fast-xml-parser, loaded once a report or build file is read. */
const fastXml = lazyRequire<typeof import('fast-xml-parser')>('fast-xml-parser');

export const JUNIT_READER = 'JUnit XML';
export const MAX_REPORT_CHARS = 32 * 1024 * 1024;
/** How far a report may run before its root element shows. */
const MAX_PROLOG_CHARS = 64 * 1024;

const START = /^\s*(?:<\?xml\b|<testsuites?[\s>/])/;
const ARRAYS = new Set(['testsuite', 'testcase', 'failure', 'error', 'skipped']);

type Node = Record<string, unknown>;

/** Follows a report's text, a piece at a time, to find where its root element closes. */
class ReportScanner {
  private mode: 'text' | 'cdata' | 'comment' | 'tag' = 'text';
  private quote = '';
  private closing = false;
  private suiteTag = false;
  private depth = 0;
  root: string | undefined;

  /** The index in `text` just past the end of the report, or -1 while it goes on. */
  scan(text: string): number {
    let i = 0;
    while (i < text.length) {
      if (this.mode === 'cdata' || this.mode === 'comment') {
        const end = text.indexOf(this.mode === 'cdata' ? ']]>' : '-->', i);
        if (end < 0) return -1;
        i = end + 3;
        this.mode = 'text';
      } else if (this.mode === 'tag') {
        const ch = text[i]!;
        i++;
        if (this.quote) {
          if (ch === this.quote) this.quote = '';
        } else if (ch === '"' || ch === "'") {
          this.quote = ch;
        } else if (ch === '>') {
          this.mode = 'text';
          const selfClosing = text[i - 2] === '/';
          if (this.suiteTag) {
            if (this.closing) this.depth--;
            else if (!selfClosing) this.depth++;
            if (this.depth === 0 && (this.closing || selfClosing)) return i;
          }
        }
      } else {
        const lt = text.indexOf('<', i);
        if (lt < 0) return -1;
        i = lt;
        if (text.startsWith('<![CDATA[', i)) {
          this.mode = 'cdata';
          i += 9;
        } else if (text.startsWith('<!--', i)) {
          this.mode = 'comment';
          i += 4;
        } else {
          const m = /^<(\/?)([A-Za-z_?!][\w.:-]*)/.exec(text.slice(i, i + 64));
          this.mode = 'tag';
          this.closing = m?.[1] === '/';
          const name = m?.[2] ?? '';
          if (!this.closing && this.root === undefined && /^[A-Za-z_]/.test(name)) this.root = name;
          this.suiteTag = name === 'testsuite' || name === 'testsuites';
          i += m ? m[0].length : 1;
        }
      }
    }
    return -1;
  }
}

const attr = (node: Node, key: string): string | undefined => (typeof node[key] === 'string' ? (node[key] as string) : undefined);
const children = (node: Node, key: string): Node[] => (Array.isArray(node[key]) ? (node[key] as Node[]) : []);

/** The detail of a <failure> or <error>: a string when it has only text, else its attributes and '#text'. */
function failureDetail(node: unknown): string[] {
  const element: Node = typeof node === 'object' && node !== null ? (node as Node) : { '#text': node };
  const text = typeof element['#text'] === 'string' ? element['#text'] : '';
  const lines = new DetailLines().pushAll(text.split('\n')).lines;
  const message = attr(element, 'message');
  return lines.length > 0 || message === undefined ? lines : new DetailLines().pushAll(message.split('\n')).lines;
}

/** Reads one suite (and the suites inside it) into `into`; returns its tallies, or throws the reason it cannot be trusted. */
function readSuite(suite: Node, into: ResultSet, failures: FailureDetails): { tests: number; failures: number; errors: number; skipped: number } {
  const tally = { tests: 0, failures: 0, errors: 0, skipped: 0 };
  for (const inner of children(suite, 'testsuite')) {
    const t = readSuite(inner, into, failures);
    tally.tests += t.tests;
    tally.failures += t.failures;
    tally.errors += t.errors;
    tally.skipped += t.skipped;
  }
  for (const test of children(suite, 'testcase')) {
    tally.tests++;
    const failed = children(test, 'failure').length > 0;
    const errored = children(test, 'error').length > 0;
    const skipped = children(test, 'skipped').length > 0;
    if (failed) tally.failures++;
    else if (errored) tally.errors++;
    else if (skipped) tally.skipped++;
    const name = attr(test, 'name');
    if (name === undefined) throw new Error('a <testcase> has no name');
    if (skipped && !failed && !errored) continue;
    const classname = attr(test, 'classname') ?? attr(suite, 'name') ?? '';
    // PHPUnit writes the class with its namespace's backslashes beside the dotted classname.
    const phpClass = attr(test, 'class');
    const names = phpClass === undefined ? junitNames(classname, name) : phpunitNames(`${classname}.${name}`, [classname, phpClass, phpClass.replace(/^.*\\/, '')], name);
    into.add(names, failed || errored ? 'failed' : 'passed');
    if (failed || errored) failures.add(names, failureDetail([...children(test, 'failure'), ...children(test, 'error')][0]));
  }
  // Catch2's JUnit reporter (hostname "tbd", each case status="run") counts assertions, not test cases:
  // a suite of 3 cases with 6 checks says tests="6". Its counts can only bound the cases from above.
  const catch2 = attr(suite, 'hostname') === 'tbd' && children(suite, 'testcase').every((t) => attr(t, 'status') === 'run');
  for (const key of ['tests', 'failures', 'errors', 'skipped'] as const) {
    const said = attr(suite, key);
    if (said !== undefined && (catch2 ? Number(said) < tally[key] : Number(said) !== tally[key])) {
      throw new Error(`suite ${attr(suite, 'name') ?? '(unnamed)'} counts ${said} ${key} but lists ${tally[key]}`);
    }
  }
  return tally;
}

/** Reads one report's text into `into`, or says why it cannot. */
export function readReport(xml: string, into: ResultSet, failures = new FailureDetails()): string | undefined {
  if (/<!DOCTYPE/i.test(xml)) return 'a JUnit XML report with a DOCTYPE is not read';
  const valid = fastXml().XMLValidator.validate(xml);
  if (valid !== true) return `a JUnit XML report is not well-formed (line ${valid.err.line}: ${valid.err.msg})`;
  const doc = new (fastXml().XMLParser)({ ignoreAttributes: false, attributeNamePrefix: '', parseAttributeValue: false, isArray: (name) => ARRAYS.has(name) }).parse(xml) as Node;
  const root = (doc.testsuites ?? { testsuite: doc.testsuite }) as Node;
  try {
    readSuite(typeof root === 'object' && root !== null ? root : {}, into, failures);
  } catch (e) {
    return `a JUnit XML report does not add up: ${(e as Error).message}`;
  }
  return undefined;
}

export function junitXmlReader(): LogReader {
  const results = new ResultSet();
  const failures = new FailureDetails();
  let report: { text: string; scanner: ReportScanner } | undefined;
  let reports = 0;
  let problem: string | undefined;

  const take = (text: string): void => {
    if (!report) {
      const start = START.exec(text);
      if (!start) return;
      report = { text: '', scanner: new ReportScanner() };
      text = text.trimStart();
    }
    const end = report.scanner.scan(`${text}\n`);
    const root = report.scanner.root;
    if (root !== undefined && root !== 'testsuite' && root !== 'testsuites') {
      report = undefined; // Some other XML document.
      return;
    }
    if (end < 0) {
      report.text += `${text}\n`;
      if (root === undefined && report.text.length > MAX_PROLOG_CHARS) {
        report = undefined; // A stray "<?xml" with no element after it.
        return;
      }
      if (report.text.length > MAX_REPORT_CHARS) {
        problem ??= `a JUnit XML report is larger than ${MAX_REPORT_CHARS} characters`;
        report = undefined;
        reports++;
      }
      return;
    }
    const xml = report.text + text.slice(0, end);
    report = undefined;
    reports++;
    const why = readReport(xml, results, failures);
    if (why) problem ??= why;
    // A report may follow on the same line.
    if (end < text.length) take(text.slice(end));
  };

  return {
    line: take,
    finish(): LogReading | undefined {
      if (report?.scanner.root !== undefined) {
        reports++;
        problem ??= 'a JUnit XML report was cut short (its root element never closes)';
      }
      report = undefined;
      if (reports === 0) return undefined;
      return problem ? { reader: JUNIT_READER, why: problem } : results.reading(JUNIT_READER);
    },
    failures: () => failures.record(),
  };
}
