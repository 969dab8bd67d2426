/**
 * SFT training from the offline policy's solves: the scripted solvers'
 * trajectories are left out unless asked for. The refusal names a flag that
 * works where training is submitted, `queue submit` takes it, and a refused
 * submission leaves no job folder behind.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { queueCommand } from '../../../src/commands/queue.js';
import { ExportError } from '../../../src/datasets/export-error.js';
import { submitTraining } from '../../../src/pipeline/training.js';
import type { Store } from '../../../src/store/store.js';
import { resolveTrainingSettings } from '../../../src/training/settings.js';
import { seedExportableBugs } from '../../helpers/exportable-bugs.js';

/** A workspace whose one accepted bug was solved only by offline/oracle. */
function scriptedOnly(): Store {
  const store = seedExportableBugs(mkdtempSync(join(tmpdir(), 'bugbench-sft-submit-')), [{ id: 'b1', fields: { status: 'accepted' } }]);
  const at = new Date().toISOString();
  store.transact((tx) =>
    tx.put('attempts', {
      id: 'solve-1-a1', bugId: 'b1', runId: 'solve-1', index: 0, solver: 'offline/oracle', policy: 'offline', baseUrl: null, statement: 'template',
      status: 'evaluated', solved: true, failing: [], reward: 1, patch: null, evalLog: null, evalRunMs: null, detail: null, createdAt: at,
    }),
  );
  mkdirSync(store.abs(join('runs', 'solve-1')), { recursive: true });
  const messages = [{ role: 'user', content: 'fix the bug' }, { role: 'assistant', content: [{ type: 'text', text: 'fixed' }] }];
  writeFileSync(store.abs(join('runs', 'solve-1', 'solve-1-a1.jsonl')), `${JSON.stringify({ type: 'messages', system: 'you fix bugs', tools: [], messages })}\n`);
  return store;
}

const jobFolders = (store: Store) => (existsSync(store.abs('jobs')) ? readdirSync(store.abs('jobs')) : []);

describe('SFT training from scripted solves', () => {
  it('refuses with a flag that queue submit and export take, and leaves no empty job folder', async () => {
    const store = scriptedOnly();
    for (let i = 0; i < 2; i++) {
      const refused = submitTraining(store, { engine: 'local', format: 'sft', settings: resolveTrainingSettings({ env: {}, localDir: join(store.root, 'local-jobs') }) });
      await expect(refused).rejects.toThrow(ExportError);
      await expect(refused).rejects.toThrow(/`--include-scripted` on `bugbench export` or `bugbench queue submit` takes them/);
    }
    expect(jobFolders(store)).toEqual([]);
  });

  it("takes the scripted trajectories with includeScripted, into the job's folder", async () => {
    const store = scriptedOnly();
    const settings = resolveTrainingSettings({ env: {}, localDir: join(store.root, 'local-jobs') });
    const { job, created } = await submitTraining(store, { engine: 'local', format: 'sft', includeScripted: true, settings, command: 'true' });
    expect(created).toBe(true);
    expect(job).toMatchObject({ format: 'sft', bugCount: 1, lines: 1 });
    const line = JSON.parse(readFileSync(store.abs(job.dataset), 'utf8').trim()) as { attempt_id: string; solver: string };
    expect(line).toMatchObject({ attempt_id: 'solve-1-a1', solver: 'offline/oracle' });
    expect(jobFolders(store)).toEqual([`sft-${job.key}`]);
  });

  it('knows --include-scripted on `queue submit`, for sft only', async () => {
    await expect(queueCommand(['submit', '--engine', 'local', '--format', 'rl', '--include-scripted'])).rejects.toThrow('queue submit: --include-scripted goes with --format sft');
  });
});
