import { describe, expect, it } from 'vitest';
import { isTestFile, keepsEveryChangeNeeded, resultOf } from '../../../src/agent/offline/injector.js';
import { offlineOffer, offlineRefusal } from '../../../src/agent/offline/kit.js';
import { Rng, rolloutSeed } from '../../../src/agent/offline/rng.js';

describe('offline injector parts', () => {
  it('says what it offers for each language of an image', () => {
    expect(offlineOffer('go')).toBe('offline: removal, history, direct (Go)');
    expect(offlineOffer('node')).toBe('offline: removal, history, direct (TS/JS)');
    expect(offlineOffer('rust')).toBe('no offline bugs in Rust: needs a model');
    expect(offlineOffer('cpp')).toBe('no offline bugs in C/C++: needs a model');
    expect(offlineOffer('ruby')).toBe('no offline bugs in Ruby: needs a model');
    expect(offlineOffer('php')).toBe('no offline bugs in PHP: needs a model');
    expect(offlineOffer('')).toBe('no offline bugs in this image: needs a model');
  });

  it('refuses, before any rollout, an image in a language it has no kit for, saying a model is needed', () => {
    expect(offlineRefusal('cpp', 'bugbench/repo-tally:latest')).toBe(
      'the offline policy cannot inject into bugbench/repo-tally:latest: its repository is C/C++, and the offline injector makes bugs only in Python, Go, TS/JS. ' +
        'A model is needed: use --policy anthropic with ANTHROPIC_API_KEY set, or --policy openai with --base-url and --model',
    );
    expect(offlineRefusal('ruby', 'x')).toMatch(/its repository is Ruby/);
    expect(offlineRefusal('php', 'x')).toMatch(/its repository is PHP/);
    for (const language of ['python', 'go', 'node', '']) expect(offlineRefusal(language, 'x')).toBeUndefined();
  });

  it('reads the RESULT line of the helper', () => {
    expect(resultOf<{ a: number }>('noise\nRESULT {"a": 1}\n[exit code 0]')).toEqual({ a: 1 });
    expect(resultOf('no result here')).toBeUndefined();
    expect(resultOf('RESULT {broken')).toBeUndefined();
  });

  it('tells test files from code files', () => {
    expect(isTestFile('tests/test_x.py')).toBe(true);
    expect(isTestFile('pkg/x_test.py')).toBe(true);
    expect(isTestFile('conftest.py')).toBe(true);
    expect(isTestFile('pkg/core.py')).toBe(false);
    expect(isTestFile('pkg/testing_utils.py')).toBe(false);
  });

  it('keeps a set of changes only if each breaks a test of its own', () => {
    expect(keepsEveryChangeNeeded([{ broken: ['a', 'b'] }, { broken: ['b', 'c'] }])).toBe(true);
    expect(keepsEveryChangeNeeded([{ broken: ['a', 'b'] }, { broken: ['b'] }])).toBe(false);
  });

  it('repeats its choices for a seed and varies them across rollouts', () => {
    const a = new Rng(42).shuffle([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(new Rng(42).shuffle([1, 2, 3, 4, 5, 6, 7, 8])).toEqual(a);
    expect(rolloutSeed(1, 0)).not.toBe(rolloutSeed(1, 1));
    expect(rolloutSeed(1, 3)).toBe(rolloutSeed(1, 3));
  });
});
