import { describe, expect, it } from 'vitest';
import { CappedOutput } from '../../../src/sandbox/capped-output.js';

describe('CappedOutput', () => {
  it('keeps everything under the cap', () => {
    const out = new CappedOutput(100);
    out.push(Buffer.from('hello '));
    out.push(Buffer.from('world'));
    expect(out.text()).toBe('hello world');
    expect(out.truncated).toBe(false);
  });

  it('keeps head and tail past the cap and says how much it dropped', () => {
    const out = new CappedOutput(10);
    for (const c of 'abcdefghijklmnopqrstuvwxyz') out.push(Buffer.from(c));
    expect(out.truncated).toBe(true);
    expect(out.totalBytes).toBe(26);
    const text = out.text();
    expect(text.startsWith('abcde')).toBe(true);
    expect(text.endsWith('vwxyz')).toBe(true);
    expect(text).toContain('16 bytes of output truncated');
  });

  it('splits a single large chunk between head and tail', () => {
    const out = new CappedOutput(8);
    out.push(Buffer.from('0123456789ABCDEF'));
    expect(out.text()).toMatch(/^0123\n.*8 bytes.*\nCDEF$/s);
  });
});
