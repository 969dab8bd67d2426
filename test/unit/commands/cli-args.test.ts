/** The shared flag parser reads negative numbers and `-n=VALUE` as values, so each number's own check speaks (issue 34, item 10). */
import { describe, expect, it } from 'vitest';
import { negativesAsValues, parseFlags, positiveInt, positiveNumber } from '../../../src/commands/args.js';

const OPTIONS = { n: { type: 'string', short: 'n' }, seed: { type: 'string' }, image: { type: 'string' }, json: { type: 'boolean' } } as const;

describe('flag values', () => {
  it('takes a negative number after a flag, and -n=VALUE, as the value', () => {
    expect(negativesAsValues(['-n', '-2', '--seed', '-1', '--json'], OPTIONS)).toEqual(['--n=-2', '--seed=-1', '--json']);
    expect(negativesAsValues(['-n=-2', '--seed=-1'], OPTIONS)).toEqual(['--n=-2', '--seed=-1']);
    // A dash that is not a number stays a flag; after `--` nothing is touched.
    expect(negativesAsValues(['--image', '-x', '--', '-n', '-2'], OPTIONS)).toEqual(['--image', '-x', '--', '-n', '-2']);
    expect(negativesAsValues(['--json', '-2'], OPTIONS)).toEqual(['--json', '-2']);
    expect(parseFlags('inject', ['-n', '-2'], OPTIONS).values.n).toBe('-2');
    expect(parseFlags('inject', ['-n=-2'], OPTIONS).values.n).toBe('-2');
  });

  it('says what the number must be, with the flag as written and the number as given', () => {
    expect(() => positiveInt('n', '-2', 1)).toThrow('-n must be ≥ 1, got -2');
    expect(() => positiveInt('seed', '-1')).toThrow('--seed must be ≥ 0, got -1');
    expect(() => positiveInt('n', '2.5', 1)).toThrow('-n must be a whole number ≥ 1, got "2.5"');
    expect(() => positiveInt('n', '', 1)).toThrow('-n must be a whole number ≥ 1, got ""');
    expect(positiveInt('n', '3', 1)).toBe(3);
    expect(() => positiveNumber('budget', '-1')).toThrow('--budget must be above 0, got -1');
    expect(() => positiveNumber('budget', 'lots')).toThrow('--budget must be a number above 0, got "lots"');
  });
});
