/**
 * Passes a log counts but does not name (Surefire's brief console, Gradle's
 * default events): the parser audit takes the parser's passes that match no
 * name on count, and the count must be exact; the check then says what it
 * could not see.
 */
import type { LogReading } from './log-readers/index.js';

/** A disagreement when the parser's unmatched passes are not as many as the log counts; empty when they are. */
export function unnamedDisagreement(unnamed: NonNullable<LogReading['unnamed']>, parserPasses: number): { test: string; parser: 'passed' | 'missing'; log: 'passed' | 'missing' }[] {
  if (parserPasses === unnamed.passed) return [];
  const test = `(passing tests the log counts but does not name: ${unnamed.passed}; the parser gives ${parserPasses} passes under other names)`;
  return [{ test, parser: parserPasses > unnamed.passed ? 'passed' : 'missing', log: parserPasses > unnamed.passed ? 'missing' : 'passed' }];
}

/** "could not see 5 passing test(s) by name: Surefire names only …; the parser's 5 other passes were taken on count" */
export function unseenNote(unnamed: NonNullable<LogReading['unnamed']>): string {
  return `it could not see ${unnamed.passed} passing test(s) by name (${unnamed.why}); the parser's ${unnamed.passed} other passes were taken on count`;
}
