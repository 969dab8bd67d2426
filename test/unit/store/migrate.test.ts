import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Store } from '../../../src/store/store.js';
import { artifactPath } from '../../helpers/artifacts.js';

const OLD_ROOT = '/home/someone/project/.bugbench';

/** A workspace as bugbench wrote it before the store: plain folders with absolute paths. */
function oldWorkspace(): string {
  const root = mkdtempSync(join(tmpdir(), 'bugbench-old-'));
  const run = 'run-20261101-120000-abcd';
  const bug = (id: string, verdicts: string[], rollout: string, createdAt: string) => {
    const dir = join(root, 'bugs', id);
    cpSync(artifactPath('valid-two-files'), dir, { recursive: true });
    const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8'));
    writeFileSync(join(dir, 'meta.json'), JSON.stringify({ ...meta, strategy: 'removal', policy: 'offline', model: 'offline/removal', createdAt, runId: run, rollout, trajectory: `${OLD_ROOT}/runs/${run}/${rollout}.jsonl` }));
    const valid = verdicts.every((v) => v === 'pass') && verdicts.length === 9;
    writeFileSync(
      join(dir, 'checks.json'),
      JSON.stringify({
        valid,
        checks: verdicts.map((verdict, i) => ({ name: `check-${i}`, verdict, reason: `why ${i}`, durationMs: 1, runs: [{ label: 'original', logPath: `${OLD_ROOT}/bugs/${id}/checks/original.log`, results: {} }] })),
        FAIL_TO_PASS: valid ? ['t1'] : [],
        PASS_TO_PASS: valid ? ['t2', 't3'] : [],
      }),
    );
  };
  bug('knotcfg-removal-00000001', Array(9).fill('pass'), `${run}-r1`, '2026-11-01T12:00:01Z');
  bug('knotcfg-removal-00000002', ['pass', 'fail', 'skipped', 'skipped', 'skipped', 'skipped', 'skipped', 'skipped', 'skipped'], `${run}-r2`, '2026-11-01T12:00:02Z');
  bug('knotcfg-removal-00000003', Array(9).fill('pass'), `${run}-r3`, '2026-11-01T12:00:03Z');
  mkdirSync(join(root, 'runs', run), { recursive: true });
  writeFileSync(
    join(root, 'runs', run, 'run.json'),
    JSON.stringify({
      runId: run,
      status: 'running',
      startedAt: '2026-11-01T12:00:00Z',
      options: { image: 'bugbench/repo-knotcfg:latest', strategy: 'removal', policy: 'offline', model: 'offline/removal', n: 4, concurrency: 2, seed: 1 },
      rollouts: [1, 2, 3].map((i) => ({ rollout: `${run}-r${i}`, reason: 'submitted', steps: 12, costUsd: 0, durationMs: 1000, trajectory: `${OLD_ROOT}/runs/${run}/${run}-r${i}.jsonl`, bugId: `knotcfg-removal-0000000${i}` })),
      bugs: [],
    }),
  );
  return root;
}

describe('opening a workspace of plain folders', () => {
  it('records every bug and run, with statuses, duplicates and paths relative to the workspace', () => {
    const root = oldWorkspace();
    const store = Store.open({ root });
    const bugs = store.all('bugs');
    expect(bugs.map((b) => [b.id, b.status])).toEqual([
      ['knotcfg-removal-00000001', 'valid'],
      ['knotcfg-removal-00000002', 'invalid'],
      ['knotcfg-removal-00000003', 'duplicate'],
    ]);
    expect(bugs[1]!.check).toMatchObject({ failedCheck: 'check-1', reason: 'why 1' });
    expect(bugs[2]!.duplicateOf).toBe('knotcfg-removal-00000001');
    expect(bugs[0]).toMatchObject({ repo: 'knotcfg', baseCommit: '87f9c6f24e98c627173a51741674a9f14bbf2be4', runId: 'run-20261101-120000-abcd', rollout: 'run-20261101-120000-abcd-r1' });
    const meta = JSON.parse(readFileSync(join(root, 'bugs', bugs[0]!.id, 'meta.json'), 'utf8'));
    expect(meta.trajectory).toBe('runs/run-20261101-120000-abcd/run-20261101-120000-abcd-r1.jsonl');
    // checks.json moved into a check folder, its log paths relative; FAIL_TO_PASS / PASS_TO_PASS beside it.
    expect(bugs[0]!.check!.dir).toBe('checks/migrated');
    expect(existsSync(join(root, 'bugs', bugs[0]!.id, 'checks.json'))).toBe(false);
    const report = JSON.parse(readFileSync(join(root, 'bugs', bugs[0]!.id, 'checks', 'migrated', 'report.json'), 'utf8'));
    expect(report.checks[0].runs[0].logPath).toBe(`bugs/${bugs[0]!.id}/checks/original.log`);
    expect(JSON.parse(readFileSync(join(root, 'bugs', bugs[0]!.id, 'checks', 'migrated', 'tests.json'), 'utf8'))).toEqual({ FAIL_TO_PASS: ['t1'], PASS_TO_PASS: ['t2', 't3'] });
    const [run] = store.all('runs');
    // A run that was still "running" when the old bugbench stopped cannot be: it is interrupted.
    expect(run).toMatchObject({ status: 'interrupted', n: 4, image: 'bugbench/repo-knotcfg:latest' });
    expect(store.all('rollouts').map((r) => r.status)).toEqual(['submitted', 'submitted', 'submitted', 'interrupted']);
    // Opening it again reads the store, not the folders.
    expect(Store.open({ root }).all('bugs')).toHaveLength(3);
  });
});
