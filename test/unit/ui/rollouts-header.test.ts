import { describe, expect, it } from 'vitest';
import { shortImageName } from '../../../src/sandbox/image-names.js';
import { runHeader, type HeaderParts } from '../../../src/ui/rollouts-screen.js';

const ID = 'run-20261126-142735-ab12';
const parts: HeaderParts = { prefix: 'live: ', what: 'removal+history on bugbench/repo-ratekit:latest', counts: '3/4 done, 1 cancelled, 2 valid', id: ID, run: 1, runs: 3 };
const line = (h: { head: string; tail: string }) => h.head + h.tail;

describe("the Rollouts screen's run line", () => {
  it('is whole when it fits', () => {
    expect(line(runHeader(parts, 160))).toBe(`live: removal+history on bugbench/repo-ratekit:latest: 3/4 done, 1 cancelled, 2 valid (${ID}) · [/] run 1 of 3`);
  });

  it('keeps the run id whole at 80 columns and at 60, cutting the strategy and image, then the counts', () => {
    const short = { ...parts, counts: '4/4 done, 2 valid' };
    expect(line(runHeader(short, 80))).toBe(`live: removal+history o…: 4/4 done, 2 valid (${ID}) · [/] 1/3`);
    // Too little room for them to say anything: left out.
    expect(line(runHeader(parts, 80))).toBe(`live: 3/4 done, 1 cancelled, 2 valid (${ID}) · [/] 1/3`);
    const at60 = line(runHeader(parts, 60));
    expect(at60).toHaveLength(60);
    expect(at60).toBe(`live: 3/4 done, 1 canc… (${ID}) · [/] 1/3`);
  });

  it('names the image by the last part of its name where the whole does not fit', () => {
    const short = { ...parts, what: 'removal on bugbench/repo-ratekit:latest', shortWhat: 'removal on ratekit', counts: '0/3 done, 0 valid' };
    expect(line(runHeader(short, 80))).toBe(`live: removal on ratekit: 0/3 done, 0 valid (${ID}) · [/] 1/3`);
    expect(line(runHeader(short, 120))).toContain('removal on bugbench/repo-ratekit:latest');
    expect(shortImageName('bugbench/repo-ratekit:latest')).toBe('ratekit');
    expect(shortImageName('bugbench/repo-ratekit:v2')).toBe('ratekit:v2');
    expect(shortImageName('localhost:5000/team/img:2')).toBe('img:2');
    expect(shortImageName('knotcfg')).toBe('knotcfg');
    // Podman's listing of the same image.
    expect(shortImageName('localhost/bugbench/repo-ratekit:latest')).toBe('ratekit');
  });

  it("gives a resumable run's key up before its counts", () => {
    const resumable = { ...parts, prefix: 'resumable (R): ', shortPrefix: 'resumable: ' };
    expect(line(runHeader(resumable, 80))).toBe(`resumable: 3/4 done, 1 cancelled, 2 valid (${ID}) · [/] 1/3`);
    expect(line(runHeader(resumable, 120))).toContain('resumable (R): removal+history');
  });

  it('cuts even the id only on a terminal narrower than it', () => {
    expect(line(runHeader(parts, 20))).toHaveLength(20);
    expect(line(runHeader({ ...parts, id: '' }, 40)).length).toBeLessThanOrEqual(40);
  });
});
