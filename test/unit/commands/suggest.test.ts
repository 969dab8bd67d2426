import { describe, expect, it } from 'vitest';
import { closestName, editDistance } from '../../../src/commands/suggest.js';

describe('did you mean', () => {
  it('counts edits, a swap of two neighbours as one', () => {
    expect(editDistance('inject', 'inject')).toBe(0);
    expect(editDistance('injct', 'inject')).toBe(1);
    expect(editDistance('ijnect', 'inject')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('names the nearest command within two edits, and none for a word that is nothing like one', () => {
    const commands = ['inject', 'check', 'show', 'solve', 'export', 'queue', 'images'];
    expect(closestName('injct', commands)).toBe('inject');
    expect(closestName('chekc', commands)).toBe('check');
    expect(closestName('Export', commands)).toBe('export');
    expect(closestName('deploy', commands)).toBeUndefined();
    expect(closestName('x', commands)).toBeUndefined();
  });
});
