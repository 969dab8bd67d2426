import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dealShares } from '../../../src/pipeline/cluster-run.js';
import { isEngineFailure } from '../../../src/sandbox/engine-errors.js';
import { engineSpecs, parseEngineEntry } from '../../../src/sandbox/engine-config.js';
import { labelBelongsTo } from '../../../src/sandbox/owner.js';

describe('engine configuration', () => {
  it('reads DOCKER_HOST entries with slots and names', () => {
    expect(parseEngineEntry('unix:///var/run/docker.sock', 0)).toEqual({ name: 'e1', host: 'unix:///var/run/docker.sock', slots: undefined });
    expect(parseEngineEntry('tcp://10.0.0.7:2375?slots=8&name=big', 1)).toEqual({ name: 'big', host: 'tcp://10.0.0.7:2375', slots: 8 });
    expect(() => parseEngineEntry('tcp://h:1?slots=0', 0)).toThrow(/slots must be a positive integer, got "0"/);
    expect(() => parseEngineEntry('tcp://h:1?weight=2', 0)).toThrow(/unknown parameter "weight"/);
    expect(engineSpecs({ DOCKER_HOST: 'unix:///a.sock?slots=1, unix:///b.sock?slots=3' }).map((s) => [s.name, s.host, s.slots])).toEqual([
      ['e1', 'unix:///a.sock', 1],
      ['e2', 'unix:///b.sock', 3],
    ]);
    expect(() => engineSpecs({ DOCKER_HOST: 'unix:///a.sock?name=x,unix:///b.sock?name=x' })).toThrow(/two Docker engines are named "x"/);
  });

  it('reads the workspace config when DOCKER_HOST is not set, and the local socket otherwise', () => {
    const home = mkdtempSync(join(tmpdir(), 'bugbench-engines-'));
    expect(engineSpecs({ BUGBENCH_HOME: home })).toEqual([{ name: 'e1', host: 'unix:///var/run/docker.sock' }]);
    writeFileSync(join(home, 'bugbench.config.json'), JSON.stringify({ engines: [{ host: 'unix:///a.sock', slots: 2 }, { host: 'tcp://b:2375', name: 'b' }] }));
    expect(engineSpecs({ BUGBENCH_HOME: home })).toEqual([
      { name: 'e1', host: 'unix:///a.sock', slots: 2 },
      { name: 'b', host: 'tcp://b:2375', slots: undefined },
    ]);
    expect(engineSpecs({ BUGBENCH_HOME: home, DOCKER_HOST: 'unix:///c.sock' }).map((s) => s.host)).toEqual(['unix:///c.sock']);
    writeFileSync(join(home, 'bugbench.config.json'), JSON.stringify({ engines: [{ slots: 2 }] }));
    expect(() => engineSpecs({ BUGBENCH_HOME: home })).toThrow(/engines\[0\]\.host must be an address/);
  });

  it('tells the work of a rollout apart from another one with a longer number', () => {
    expect(labelBelongsTo('run-x-r1', ['run-x-r1'])).toBe(true);
    expect(labelBelongsTo('run-x-r1-check', ['run-x-r1'])).toBe(true);
    expect(labelBelongsTo('run-x-r10', ['run-x-r1'])).toBe(false);
  });

  it('blames the engine for 5xx answers and broken connections, not for 404s', () => {
    expect(isEngineFailure({ statusCode: 500, message: 'grpc: the client connection is closing' })).toBe(true);
    expect(isEngineFailure({ statusCode: 404 })).toBe(false);
    expect(isEngineFailure(Object.assign(new Error('connect ECONNREFUSED /x.sock'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isEngineFailure(new Error('patch does not apply'))).toBe(false);
  });
});

describe('cluster shares', () => {
  it('deals rollouts and checks round-robin into at most T tasks', () => {
    expect(dealShares({ indices: [0, 1, 2, 3], recheck: [] }, 2)).toEqual([
      { indices: [0, 2], recheck: [] },
      { indices: [1, 3], recheck: [] },
    ]);
    expect(dealShares({ indices: [4], recheck: ['bug-a'] }, 3)).toEqual([
      { indices: [], recheck: ['bug-a'] },
      { indices: [4], recheck: [] },
    ]);
    expect(dealShares({ indices: [0], recheck: [] }, 4)).toHaveLength(1);
  });
});
