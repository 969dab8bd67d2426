import { describe, expect, it } from 'vitest';
import { clip, expandTabs, fit, wrap } from '../../../src/ui/line-fit.js';

describe('fitting a line to the columns', () => {
  it('moves each tab to the next multiple of 4 columns, counted from the start of the line', () => {
    expect(expandTabs('-\tif n == nil {')).toBe('-   if n == nil {');
    expect(expandTabs('-\t\treturn')).toBe('-       return');
    expect(expandTabs('ok\texample.com/ratekit/backoff\t0.014s')).toBe('ok  example.com/ratekit/backoff 0.014s');
    expect(expandTabs('ok  \tx')).toBe('ok      x');
    expect(expandTabs('a\tb\n\tc')).toBe('a   b\n    c');
  });

  it('cuts, pads and wraps by the columns a line takes once its tabs are expanded', () => {
    expect(clip('\t\treturn nil', 12)).toBe('        ret…');
    expect(clip('\treturn', 12)).toBe('    return');
    expect(fit('\tx', 8)).toBe('    x   ');
    expect(fit('\t\treturn nil', 10)).toBe('        r…');
    expect(wrap('\t\treturn errors.New("x")', 17, '  ')).toEqual(['        return', '  errors.New("x")']);
  });
});
