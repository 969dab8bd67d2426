/**
 * Reads GoogleTest's console output: each test binary's run is framed by
 * "[==========] Running 6 tests from 2 test suites." and "[==========] 6
 * tests from 2 test suites ran. (0 ms total)", each test by "[ RUN      ]
 * Suite.Test" and "[       OK ] Suite.Test (0 ms)" or "[  FAILED  ]
 * Suite.Test (0 ms)" (a parameterised one "[  FAILED  ] Inst/Suite.Test/0,
 * where GetParam() = 3 (0 ms)"). A test is named "Suite.Test" as GoogleTest
 * prints it (what gtest_discover_tests names it in CTest too); a skipped test
 * is not a result.
 *
 * A result counts only for the test last shown running, and a run is read
 * only when its results number what its "Running N tests" line said and its
 * "[  PASSED  ] K tests." line agrees; so what a test prints cannot pose as a
 * result, a binary that crashed mid-run leaves the log unread, and so does
 * --gtest_brief=1, which prints only the failing tests.
 *
 * Several runs may share one log (several binaries, or CTest's
 * --output-on-failure, which shows one run for each failing test).
 *
 * A failing test's detail is what it printed between its RUN and FAILED lines.
 */
import { DetailLines, FailureDetails } from './failure-details.js';
import { dottedNames, ResultSet } from './test-ids.js';
import type { LogReader, LogReading } from './types.js';
import { Unreadable } from './unreadable.js';

export const GOOGLETEST_READER = 'GoogleTest';

const RUNNING = /^\[==========\] Running (\d+) tests? from \d+ test (?:suites?|cases?)\.$/;
const RAN = /^\[==========\] (\d+) tests? from \d+ test (?:suites?|cases?) ran\./;
const RUN = /^\[ RUN {6}\] (\S+)$/;
const RESULT = /^\[ {2}(FAILED|SKIPPED) {2}\] (\S+?)(?:, where .*)? \(\d+ ms\)$|^\[ {7}OK \] (\S+) \(\d+ ms\)$/;
const PASSED = /^\[ {2}PASSED {2}\] (\d+) tests?\.$/;

interface Run {
  expected: number;
  seen: Map<string, 'passed' | 'failed' | 'skipped'>;
  running?: string;
  printed?: DetailLines;
  details: Map<string, string[]>;
  ran?: number;
  passed?: number;
}

export function googletestReader(): LogReader {
  const results = new ResultSet();
  const failures = new FailureDetails();
  let seen = false;
  let run: Run | undefined;
  const problem = new Unreadable();
  const note = (why: string) => problem.note(why);
  const noteOnlyFailures = (why: string) => problem.noteOnlyFailures(why);

  const close = (r: Run) => {
    const passed = [...r.seen.values()].filter((o) => o === 'passed').length;
    if (r.seen.size !== r.expected || r.ran !== r.expected || (r.passed !== undefined && r.passed !== passed)) {
      note(`a GoogleTest run shows ${r.seen.size} result(s), ${passed} passed, where it announced ${r.expected} test(s) and counted ${r.passed ?? '?'} passed (a test binary stopped, or a test printed a look-alike of GoogleTest's lines)`);
      return;
    }
    for (const [name, outcome] of r.seen) {
      if (outcome === 'skipped') continue;
      results.add(dottedNames(name), outcome);
      if (outcome === 'failed') failures.add(dottedNames(name), r.details.get(name) ?? []);
    }
  };

  return {
    line(text) {
      const running = RUNNING.exec(text);
      if (running) {
        seen = true;
        if (run) note('a GoogleTest run started before the last one ended (a test binary stopped mid-run)');
        run = { expected: Number(running[1]), seen: new Map(), details: new Map() };
        return;
      }
      if (!run) {
        // The brief format (--gtest_brief=1) ends like a run but never announces one.
        if (RAN.test(text)) {
          seen = true;
          noteOnlyFailures('GoogleTest printed only its failing tests (--gtest_brief=1); run the test binary without it so each test has a line');
        }
        return;
      }
      const start = RUN.exec(text);
      if (start) {
        run.running = start[1];
        run.printed = new DetailLines();
        return;
      }
      const result = RESULT.exec(text);
      if (result) {
        const name = result[2] ?? result[3]!;
        if (name === run.running) {
          if (run.seen.has(name)) note(`test ${name} has two results in one GoogleTest run`);
          else run.seen.set(name, result[1] === 'FAILED' ? 'failed' : result[1] === 'SKIPPED' ? 'skipped' : 'passed');
          if (result[1] === 'FAILED') run.details.set(name, run.printed?.lines ?? []);
          run.running = undefined;
          run.printed = undefined;
          return;
        }
        // After the run, GoogleTest lists the failed tests again ("[  FAILED  ] Suite.Test" without a time).
        if (run.ran === undefined) note(`a result line for ${name} while ${run.running ?? 'no test'} was running (a test printed a look-alike of GoogleTest's lines)`);
        return;
      }
      const ran = RAN.exec(text);
      if (ran) {
        run.ran = Number(ran[1]);
        return;
      }
      const passed = PASSED.exec(text);
      if (passed && run.ran !== undefined) {
        run.passed = Number(passed[1]);
        close(run);
        run = undefined;
        return;
      }
      run.printed?.push(text);
    },
    finish(): LogReading | undefined {
      if (!seen) return undefined;
      if (run) note('a GoogleTest run did not finish (its test binary stopped or the log was cut short)');
      const unread = problem.reading(GOOGLETEST_READER);
      if (unread) return unread;
      return results.reading(GOOGLETEST_READER);
    },
    failures: () => failures.record(),
  };
}
