/**
 * The small things a well-kept command line gets right: a reader that stops
 * reading, --version, bugbench's own words for bad flags, an unknown image,
 * an empty answer told apart from an empty library (issue 18, items 13–17).
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { acceptBug } from '../../src/pipeline/review.js';
import { Store } from '../../src/store/store.js';
import { BIN, bugbench } from '../helpers/cli.js';
import { bugRecord, VALID_CHECK } from '../helpers/records.js';

const home = () => mkdtempSync(join(tmpdir(), 'bugbench-cli-manners-'));

function seed(root: string): Store {
  const store = Store.open({ root });
  store.transact((tx) => {
    for (let i = 0; i < 1500; i++) {
      tx.put('runs', { id: `run-${i}`, kind: 'inject', status: 'finished', image: 'img:1', strategy: 'removal', policy: 'offline', model: 'offline/removal', n: 1, options: {}, owner: { host: 'h', pid: 1, start: '1' }, startedAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(), finishedAt: null, error: null });
    }
    tx.put('bugs', bugRecord('img-removal-12345678', { check: { ...VALID_CHECK, failToPass: 1, passToPass: 9 } }));
  });
  return store;
}

describe('the command line', () => {
  it('ends quietly when the reader of its output goes away', async () => {
    const root = home();
    seed(root);
    for (const command of ['runs', 'runs --json']) {
      const piped = await execa('bash', ['-c', `node ${BIN} ${command} 2>err.txt | head -1; cat err.txt`], { cwd: root, env: { BUGBENCH_HOME: root }, reject: false });
      expect(piped.stdout.split('\n')[0]).not.toBe('');
      expect(piped.stdout).not.toMatch(/EPIPE|Error|at /);
    }
  });

  it('prints its version, and says in its own words what is wrong with a flag', async () => {
    const version = await bugbench(['--version']);
    expect(version.stdout.trim()).toMatch(/^bugbench \d+\.\d+\.\d+$/);
    // `help COMMAND` is that command's help, as git and npm read it; a misspelt one is named.
    const help = await bugbench(['help', 'inject']);
    expect(help.stdout).toBe((await bugbench(['inject', '--help'])).stdout);
    expect(help.stdout).toContain('bugbench inject --image T');
    expect((await bugbench(['help', 'injekt'])).stderr).toContain('unknown command "injekt"; did you mean `bugbench inject`?');
    const missing = await bugbench(['inject', '--image']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr.trim()).toBe('bugbench: inject: --image needs a value');
    const dashed = await bugbench(['bugs', '--image', '-x']);
    expect(dashed.stderr.trim()).toBe('bugbench: bugs: --image needs a value (write --image=-VALUE for one that starts with a dash)');
    const unknown = await bugbench(['runs', '--fr"ob']);
    expect(unknown.stderr.trim()).toBe("bugbench: runs: Unknown option '--frob'; `bugbench runs --help` lists the options");
    const value = await bugbench(['runs', '--json=yes']);
    expect(value.stderr.trim()).toBe('bugbench: runs: --json takes no value');
    // A negative number is a value, written either way, and its check names the flag as it was written (issue 34, item 10).
    for (const n of [['-n', '-2'], ['-n=-2']]) {
      const negative = await bugbench(['inject', '--image', 'img:1', '--strategy', 'removal', '--policy', 'offline', ...n], { env: { BUGBENCH_HOME: home() } });
      expect(negative.exitCode).toBe(2);
      expect(negative.stderr.trim()).toBe('bugbench: -n must be ≥ 1, got -2');
    }
    const seed = await bugbench(['solve', 'some-bug', '--seed', '-1'], { env: { BUGBENCH_HOME: home() } });
    expect(seed.stderr.trim()).toBe('bugbench: --seed must be ≥ 0, got -1');
  });

  it('with --json, gives a failure as JSON on stdout as well as its line on stderr', async () => {
    const env = { env: { BUGBENCH_HOME: home() } };
    const missing = await bugbench(['show', 'nope', '--json'], env);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr.trim()).toMatch(/^bugbench: no bug "nope" in the workspace store/);
    expect(JSON.parse(missing.stdout)).toEqual({ error: { code: 'BB_NOT_FOUND', message: expect.stringMatching(/^no bug "nope"/), exitCode: 1 } });
    const usage = await bugbench(['bugs', '--json', '--status', 'nonsense'], env);
    expect(usage.exitCode).toBe(2);
    expect(JSON.parse(usage.stdout).error).toMatchObject({ exitCode: 2 });
    // Without --json, stdout stays empty.
    expect((await bugbench(['show', 'nope'], env)).stdout).toBe('');
  });

  it('refuses an image the workspace never saw, and tells an empty answer from an empty library', async () => {
    const root = home();
    const empty = await bugbench(['bugs'], { env: { BUGBENCH_HOME: root } });
    expect(empty.stdout).toMatch(/^no bugs yet; make some with `bugbench inject`/);
    seed(root);
    const none = await bugbench(['bugs', '--image', 'nosuch:latest'], { env: { BUGBENCH_HOME: root } });
    expect(none.exitCode).toBe(1);
    expect(none.stderr.trim()).toBe('bugbench: no image nosuch:latest in the workspace; its bugs are on img:1');
    const filtered = await bugbench(['bugs', '--status', 'rejected'], { env: { BUGBENCH_HOME: root } });
    expect(filtered.exitCode).toBe(0);
    expect(filtered.stdout.trim()).toBe('no bug matches these filters (the workspace has 1)');
    // A typo in a strategy is refused like one in a status; the tag a bug's image was named without is the same image.
    const typo = await bugbench(['bugs', '--strategy', 'histroy'], { env: { BUGBENCH_HOME: root } });
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr.trim()).toBe('bugbench: --strategy must be one of removal, history, removal+history, direct, featadd, buginstruct, got "histroy"');
    const history = await bugbench(['bugs', '--strategy', 'history'], { env: { BUGBENCH_HOME: root } });
    expect(history.stdout.trim()).toBe('no bug matches these filters (the workspace has 1)');
  });

  it('builds from ~/… as the shell would read it, and says when the folder does not exist (issue 34, item 11)', async () => {
    const root = home();
    mkdirSync(join(root, 'plain'));
    const env = { BUGBENCH_HOME: root, HOME: root };
    const missing = await bugbench(['images', 'build', '~/nosuch'], { env });
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr.trim()).toBe(`bugbench: ${root}/nosuch does not exist; give the folder of a git repository`);
    const plain = await bugbench(['images', 'build', '~/plain'], { env });
    expect(plain.stderr.trim()).toBe(`bugbench: ${root}/plain is not a git repository with at least one commit`);
  });

  it('keeps the reason of an acceptance when the bug is accepted again without one', async () => {
    const root = home();
    const store = seed(root);
    acceptBug(store, 'img-removal-12345678', 'clean two-file bug');
    const again = await bugbench(['accept', 'img-removal-12345678'], { env: { BUGBENCH_HOME: root } });
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toMatch(/accepted by .*: clean two-file bug/);
    const fresh = Store.open({ root });
    expect(fresh.all('reviews')).toHaveLength(1);
    expect(fresh.get('bugs', 'img-removal-12345678')!.review?.reason).toBe('clean two-file bug');
  });
});
