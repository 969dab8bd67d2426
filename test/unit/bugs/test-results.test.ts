import { describe, expect, it } from 'vitest';
import { brokenTests, keptTests, mapDifferences, notPassingAmong, parseTestMap, ParserOutputError } from '../../../src/bugs/test-results.js';

describe('parseTestMap', () => {
  it('accepts a map of passed and failed', () => {
    expect(parseTestMap('{"a": "passed", "b": "failed"}')).toEqual({ a: 'passed', b: 'failed' });
  });
  it.each([
    ['not json', /not JSON/],
    ['', /printed nothing/],
    ['[1, 2]', /an array/],
    ['{}', /empty map/],
    ['{"a": "skipped"}', /"skipped"/],
  ])('refuses %j', (text, message) => {
    expect(() => parseTestMap(text)).toThrow(ParserOutputError);
    expect(() => parseTestMap(text)).toThrow(message);
  });
});

describe('comparing runs', () => {
  const original = { a: 'passed', b: 'passed', c: 'passed', d: 'failed' } as const;
  it('counts a test missing from the later run as broken', () => {
    const buggy = { a: 'passed', b: 'failed', d: 'failed' } as const;
    expect(brokenTests(original, buggy)).toEqual(['b', 'c']);
    expect(keptTests(original, buggy)).toEqual(['a']);
  });
  it('requires spec tests to be present and passed', () => {
    expect(notPassingAmong(['a', 'b', 'c'], { a: 'passed', b: 'failed' })).toEqual(['b', 'c']);
  });
  it('explains differences between maps', () => {
    expect(mapDifferences({ a: 'passed', b: 'passed' }, { a: 'failed', c: 'passed' })).toEqual([
      'a: passed → failed',
      'b: passed → missing',
      'c: missing → passed',
    ]);
  });
});
