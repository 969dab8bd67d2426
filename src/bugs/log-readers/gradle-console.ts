/**
 * Reads Gradle's console test events, as its test task prints them for the
 * events `testLogging` asks for (FAILED by default; PASSED and SKIPPED with
 * `events "passed", "skipped", "failed"` or under --info): one line a test,
 * its class and the test's display name joined by " > " ("CalcTest >
 * adds() PASSED", "com.example.CalcTest > subtracts FAILED", "CalcTest >
 * Inner > deep() PASSED", "CalcTest > positive(int) > [2] 2 FAILED"), then,
 * when a test failed, the task's counts ("9 tests completed, 2 failed, 1
 * skipped"); the build ends with "BUILD SUCCESSFUL" or "BUILD FAILED".
 *
 * Tests are named by the path as Gradle prints it ("CalcTest > adds()"), with
 * the parts of JUnit XML names (test-ids.ts: class, then the rest). A
 * failure is a failure; skipped tests are not results.
 *
 * A task with counts is read only when its events add up to them: as many
 * FAILED lines as failures, and PASSED lines either for every passing test
 * or for none (then the passes are counted, not named: `unnamed`). A task
 * without counts had no failure; it is read when the build finished
 * ("BUILD SUCCESSFUL") and it showed PASSED events, else it vouches for
 * nothing (Gradle prints no line for a pass it was not asked to show) and the
 * log is unread. The log is Gradle's when it holds a test event line and a
 * "> Task :…" line.
 */
import { gradleNames, ResultSet, type TestName } from './test-ids.js';
import type { LogOutcome, LogReader, LogReading } from './types.js';

export const GRADLE_READER = 'Gradle test events';

const TASK = /^> Task (:\S+)/;
const EVENT = /^(\S.*?) > (.+) (PASSED|FAILED|SKIPPED)$/;
const COUNTS = /^(\d+) tests? completed(?:, (\d+) failed)?(?:, (\d+) skipped)?$/;
const BUILD = /^BUILD (SUCCESSFUL|FAILED)\b/;

interface Tally {
  passed: number;
  failed: number;
  skipped: number;
}

export function gradleConsoleReader(): LogReader {
  const results = new ResultSet();
  let tasks = false;
  let events = 0;
  let tally: Tally = { passed: 0, failed: 0, skipped: 0 };
  /** Events since the last counts line, not yet vouched for. */
  let pending: { names: TestName; outcome: LogOutcome }[] = [];
  let built: string | undefined;
  let unnamed = 0;
  let problem: string | undefined;

  const vouch = () => {
    for (const { names, outcome } of pending) results.add(names, outcome);
    pending = [];
    tally = { passed: 0, failed: 0, skipped: 0 };
  };

  return {
    line(text) {
      if (TASK.test(text)) {
        tasks = true;
        // The events of a task that printed no counts: none of its tests failed.
        if (pending.length > 0 && tally.failed === 0 && tally.passed > 0) vouch();
        return;
      }
      const event = EVENT.exec(text);
      if (event) {
        events++;
        const word = event[3]!;
        if (word === 'SKIPPED') tally.skipped++;
        else {
          const outcome = word === 'PASSED' ? 'passed' : 'failed';
          tally[outcome]++;
          pending.push({ names: gradleNames(event[1]!, event[2]!), outcome });
        }
        return;
      }
      const counts = COUNTS.exec(text);
      if (counts) {
        const total = Number(counts[1]);
        const failed = Number(counts[2] ?? 0);
        const skipped = Number(counts[3] ?? 0);
        const passed = total - failed - skipped;
        if (tally.failed !== failed) problem ??= `Gradle counted ${failed} failed test(s) where its events show ${tally.failed}`;
        else if (tally.passed !== passed && tally.passed !== 0) problem ??= `Gradle counted ${passed} passed test(s) where its events show ${tally.passed}`;
        else if (tally.passed === 0) unnamed += passed;
        vouch();
        return;
      }
      const build = BUILD.exec(text);
      if (build) built = build[1];
    },
    finish(): LogReading | undefined {
      if (!tasks || events === 0) return undefined;
      if (pending.length > 0 || tally.skipped > 0) {
        // Events after the last counts line: a task that had no failure.
        if (built !== 'SUCCESSFUL') problem ??= 'the Gradle build did not finish, or a test task failed without its counts line';
        else if (tally.failed > 0) problem ??= 'Gradle showed a failed test but printed no counts for its task';
        else if (tally.passed === 0) problem ??= 'Gradle showed no PASSED events (add events "passed" to testLogging so that every test gets a line)';
        else vouch();
      }
      if (problem) return { reader: GRADLE_READER, why: problem };
      const reading = results.reading(GRADLE_READER);
      if (unnamed > 0) reading.unnamed = { passed: unnamed, why: 'Gradle showed only the failed tests (add events "passed" to testLogging to name every test)' };
      return reading;
    },
  };
}
