/**
 * What the command line says of runs and policies (issue 34, item 19): `runs`
 * counts a solve run's attempts (not its bugs, it makes none) and calls
 * finished only the rollouts that ended on their own; every command that takes
 * --policy lists all the policies.
 */
import { describe, expect, it } from 'vitest';
import { POLICIES } from '../../src/agent/policy-names.js';
import { bugbench } from '../helpers/cli.js';
import { at, putBug, putRun, workspace } from '../helpers/workspace.js';

describe('bugbench runs', () => {
  it("shows a solve run's attempts solved, and a cancelled run where nothing ended as 0 finished", async () => {
    const store = workspace();
    putRun(store, { id: 'run-made', kind: 'inject', n: 3 }, 1, (i) => (i < 2 ? { bugId: `ratekit-removal-${i}` } : { status: 'no-bug' }));
    putBug(store, 'ratekit-removal-0', {});
    putBug(store, 'ratekit-removal-1', { status: 'invalid' });
    putRun(store, { id: 'run-stopped', kind: 'inject', n: 4, status: 'cancelled' }, 3, (i) => ({ status: i < 2 ? 'cancelled' : 'pending' }));
    putRun(store, { id: 'solve-1', kind: 'solve', n: 4, strategy: 'mix' }, 5);
    store.transact((tx) => {
      for (let i = 0; i < 4; i++) {
        const status = i === 3 ? 'cancelled' : 'evaluated';
        tx.put('attempts', { id: `solve-1-a${i + 1}`, bugId: 'ratekit-removal-0', runId: 'solve-1', index: i, solver: 'offline/mix', statement: 'template', status, solved: status === 'evaluated' ? i === 0 : null, failing: [], reward: null, patch: null, evalLog: null, evalRunMs: null, detail: null, createdAt: at(5) });
      }
    });
    const env = { BUGBENCH_HOME: store.root };
    const table = await bugbench(['runs'], { env });
    expect(table.exitCode, table.stderr).toBe(0);
    const row = (id: string) => table.stdout.split('\n').find((l) => l.startsWith(id))!.split(/\s{2,}/);
    const header = table.stdout.split('\n')[0]!.split(/\s{2,}/);
    const cell = (id: string, column: string) => row(id)[header.indexOf(column)];
    expect(cell('run-made', 'ROLLOUTS')).toBe('3/3');
    expect(cell('run-made', 'RESULT')).toBe('1/2 valid');
    expect(cell('run-stopped', 'ROLLOUTS')).toBe('0/4');
    expect(cell('run-stopped', 'RESULT')).toBe('0/0 valid');
    expect(cell('solve-1', 'RESULT')).toBe('1/3 solved');
    const json = JSON.parse((await bugbench(['runs', '--json'], { env })).stdout) as { id: string; rollouts: object; attempts: object }[];
    expect(json.find((r) => r.id === 'solve-1')).toMatchObject({ attempts: { judged: 3, solved: 1 } });
    expect(json.find((r) => r.id === 'run-stopped')).toMatchObject({ rollouts: { total: 4, finished: 0 }, resumable: true });
    expect(json.find((r) => r.id === 'run-made')).toMatchObject({ resumable: false });
    expect(table.stdout).toContain('finish an interrupted or cancelled run with `bugbench inject --resume run-stopped`');
    // With several, every one is named.
    putRun(store, { id: 'run-cut', kind: 'inject', n: 2, status: 'interrupted' }, 7, () => ({ status: 'interrupted' }));
    const both = await bugbench(['runs'], { env });
    expect(both.stdout).toContain('2 interrupted or cancelled runs can be finished with `bugbench inject --resume RUN`: run-cut, run-stopped');
  });
});

describe('the help of commands that take --policy', () => {
  it('lists every policy', async () => {
    expect(POLICIES).toEqual(['anthropic', 'openai', 'offline']);
    for (const command of ['inject', 'solve', 'analyse']) {
      const help = await bugbench([command, '--help']);
      expect(help.exitCode).toBe(0);
      expect(help.stdout).toContain('[--policy anthropic|openai|offline]');
    }
  });
});
