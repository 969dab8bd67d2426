import { describe, expect, it } from 'vitest';
import { logEnd } from '../../../src/bugs/test-run.js';

describe('the end of a test log, for a parser that found nothing', () => {
  it('quotes the last two non-empty lines, each cut at 200 characters', () => {
    expect(logEnd('collecting...\n/usr/bin/python3: No module named pytest\n\n')).toBe('"collecting..." / "/usr/bin/python3: No module named pytest"');
    expect(logEnd('x'.repeat(300))).toBe(JSON.stringify(`${'x'.repeat(199)}…`));
  });
});
