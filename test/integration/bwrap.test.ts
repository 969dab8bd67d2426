/**
 * The bwrap engine kind, as an ordinary user with no engine: a packed
 * repo-knotcfg runs its tests in a sandbox, two sandboxes of it never see
 * each other's writes, limits hold, and a bugbench killed with -9 leaves
 * nothing that the next start does not remove.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processStartTime } from '../../src/process-identity.js';
import { BIN, bugbench, DIST } from '../helpers/cli.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/artifacts');

const IMAGE = 'bugbench/repo-knotcfg:latest';
/** The Slurm job user (scripts/slurm-up): not root, not needing the docker group here. */
const USER = 'bugbench';
const dir = mkdtempSync(join(tmpdir(), 'bb-bwrap-'));
const images = join(dir, 'images');
const state = join(dir, 'state');

/** Runs a module as USER (as this process when it is not root), with the bwrap kind's state in `state`. */
function asUser(script: string) {
  const file = join(dir, `script-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(file, `const { engineAt } = await import(${JSON.stringify(`${DIST}/sandbox/engine-table.js`)});\nconst engine = engineAt('bwrap://${images}');\n${script}`);
  chmodSync(file, 0o644);
  const argv = process.getuid?.() === 0 ? ['runuser', '-u', USER, '--', 'node', file] : ['node', file];
  return execa(argv[0]!, argv.slice(1), { reject: false, env: { BUGBENCH_BWRAP_STATE: state, PATH: process.env.PATH }, extendEnv: false });
}

beforeAll(async () => {
  const packed = await bugbench(['images', 'pack', IMAGE, '--out', `${images}/`, '--json']);
  expect(packed.exitCode, packed.stderr).toBe(0);
  expect(JSON.parse(packed.stdout).file).toBe(join(images, 'bugbench+repo-knotcfg@latest.sqsh'));
  for (const path of [dir, images]) chmodSync(path, 0o755);
  mkdirSync(state);
  if (process.getuid?.() === 0) await execa('chown', [USER, state]);
}, 300_000);

afterAll(() => {
  if (process.getuid?.() === 0) rmSync(dir, { recursive: true, force: true });
});

describe('the bwrap engine kind', () => {
  it('runs the image tests as an ordinary user, keeps two sandboxes apart, enforces limits, and cleans up', async () => {
    const run = await asUser(`
      const first = performance.now();
      const a = await engine.createSandbox({ image: ${JSON.stringify(IMAGE)}, runId: 'bwrap-test' });
      const unpackMs = performance.now() - first;
      const created = performance.now();
      const b = await engine.createSandbox({ image: ${JSON.stringify(IMAGE)}, runId: 'bwrap-test' });
      const createMs = performance.now() - created;
      const execStarted = performance.now();
      await a.exec('true');
      const execMs = performance.now() - execStarted;
      const tests = await a.exec('python3 -m pytest -q 2>&1 | tail -1', { timeoutMs: 120000 });
      await a.writeFile('only-in-a.txt', 'a\\n');
      await a.exec('echo changed >> README.md 2>/dev/null || echo changed > README.md');
      const seenByB = await b.exec('test ! -e only-in-a.txt && git status --porcelain');
      const net = await a.exec('cat /proc/net/dev');
      const timed = await a.exec('sleep 60 & sleep 60', { timeoutMs: 1000 });
      const left = await a.exec('for p in /proc/[0-9]*; do tr "\\\\0" " " < $p/cmdline; echo; done');
      const capped = await a.exec('head -c 2000000 /dev/zero | tr "\\\\0" x', { maxOutputBytes: 1000 });
      const diff = await a.diff();
      await a.reset();
      const afterReset = await a.diff();
      const whoami = (await a.exec('id -u')).stdout.trim();
      await Promise.all([a.remove(), b.remove()]);
      console.log(JSON.stringify({ unpackMs, createMs, execMs, tests: tests.stdout, bExit: seenByB.exitCode, bOut: seenByB.stdout, net: net.stdout, timed, left: left.stdout, capped: { truncated: capped.truncated, length: capped.stdout.length }, diff, afterReset, whoami, uid: process.getuid() }));
    `);
    expect(run.exitCode, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout.trim().split('\n').pop()!);
    console.log(`bwrap sandbox: first create (unpacks the image) ${Math.round(result.unpackMs)} ms, create ${Math.round(result.createMs)} ms, exec ${Math.round(result.execMs)} ms`);
    expect(result.uid).not.toBe(0);
    expect(result.whoami).toBe('0'); // the built image's world: root inside, this user outside
    expect(result.tests).toMatch(/^\d+ passed/);
    // b sees neither a's new file nor its change.
    expect(result.bExit).toBe(0);
    expect(result.bOut).toBe('');
    expect(result.net.match(/^\s*\w+:/gm)!.map((line: string) => line.trim())).toEqual(['lo:']);
    expect(result.timed).toMatchObject({ timedOut: true });
    expect(result.timed.durationMs).toBeLessThan(10_000);
    expect(result.left).not.toContain('sleep 60');
    expect(result.capped).toMatchObject({ truncated: true });
    expect(result.capped.length).toBeLessThan(1200);
    expect(result.diff).toContain('+++ b/only-in-a.txt');
    expect(result.diff).toContain('+++ b/README.md');
    expect(result.afterReset).toBe('');
    expect(readdirSync(join(state, 'sandboxes'))).toEqual([]);
  });

  it('makes the work folder an image lacks, and a bugbench that removed its sandbox ends on its own', async () => {
    const run = await asUser(`
      const sandbox = await engine.createSandbox({ image: ${JSON.stringify(IMAGE)}, runId: 'bwrap-alone', world: { root: '/work/new', user: '', uid: 0, gid: 0, env: {} } });
      const pwd = (await sandbox.exec('pwd')).stdout.trim();
      await sandbox.remove();
      // Timers that would keep this process alive now that its work is done (an exec's guard held it 2 s), and
      // the sandbox's first process, gone, not even a zombie: bwrap reaped it (killing bwrap first handed it to init).
      const { existsSync } = await import('node:fs');
      console.log(JSON.stringify({ pwd, timers: process.getActiveResourcesInfo().filter((r) => r === 'Timeout'), firstLeft: existsSync('/proc/' + sandbox.nsPid) }));
    `);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout.trim())).toEqual({ pwd: '/work/new', timers: [], firstLeft: false });
    // Removed at once, with no exec's timers about: remove() must itself keep the process until the sandbox ended (exit 13 otherwise).
    const alone = await asUser(`
      await (await engine.createSandbox({ image: ${JSON.stringify(IMAGE)}, runId: 'bwrap-alone' })).remove();
      console.log('removed');
    `);
    expect(alone.exitCode, alone.stderr).toBe(0);
    expect(alone.stdout.trim()).toBe('removed');
  });

  it('leaves no process after a kill -9 of bugbench, and the next start removes its folder', async () => {
    const child = asUser(`
      const { LABEL_RUN, ownerLabels } = await import(${JSON.stringify(`${DIST}/sandbox/owner.js`)});
      await engine.createVolume('bwrap-orphan-volume', { [LABEL_RUN]: 'bwrap-orphan', ...ownerLabels() });
      const sandbox = await engine.createSandbox({ image: ${JSON.stringify(IMAGE)}, runId: 'bwrap-orphan', volumes: { 'bwrap-orphan-volume': '/shared' } });
      await sandbox.exec('echo kept > /shared/x');
      console.log(process.pid + ' ' + sandbox.id);
      setInterval(() => {}, 1000);
    `);
    const [pid, id] = await new Promise<string[]>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => resolve(chunk.toString().trim().split(' ')));
      void child.then((ended) => reject(new Error(`the sandbox's maker ended first: ${ended.stderr}`)));
    });
    const record = JSON.parse(readFileSync(join(state, 'sandboxes', id!, 'sandbox.json'), 'utf8')) as { pid: number; pidStart: string };
    expect(processStartTime(record.pid)).toBe(record.pidStart);
    process.kill(Number(pid), 'SIGKILL');
    await child;
    // The sandbox's processes end with the bugbench that made them (its lifeline closed).
    await expect.poll(() => processStartTime(record.pid), { timeout: 10_000 }).toBeUndefined();
    expect(existsSync(join(state, 'sandboxes', id!))).toBe(true);
    const reaped = await asUser('console.log(JSON.stringify(await engine.reapOrphans()));');
    expect(reaped.exitCode, reaped.stderr).toBe(0);
    expect(JSON.parse(reaped.stdout.trim())).toEqual({ removed: [id], volumes: ['bwrap-orphan-volume'] });
    expect(readdirSync(join(state, 'sandboxes'))).toEqual([]);
    expect(readdirSync(join(state, 'volumes'))).toEqual([]);
  });

  it('leaves no process when bugbench is killed while bwrap is still starting', async () => {
    // A bwrap that notes when it is asked for, waits, and notes when it goes on.
    const bin = join(dir, 'slow-bwrap');
    mkdirSync(bin, { mode: 0o755 });
    const marks = join(dir, 'slow-bwrap-marks');
    mkdirSync(marks);
    chmodSync(marks, 0o777);
    writeFileSync(join(bin, 'bwrap'), `#!/bin/sh\ntouch ${marks}/asked\nsleep 2\ntouch ${marks}/going-on\nexec /usr/bin/bwrap "$@"\n`, { mode: 0o755 });
    const script = `
      engine.createSandbox({ image: ${JSON.stringify(IMAGE)}, runId: 'bwrap-early-kill' }).catch(() => undefined);
      setInterval(() => {}, 1000);
    `;
    const file = join(dir, 'early-kill.mjs');
    writeFileSync(file, `const { engineAt } = await import(${JSON.stringify(`${DIST}/sandbox/engine-table.js`)});\nconst engine = engineAt('bwrap://${images}');\n${script}`, { mode: 0o644 });
    const argv = process.getuid?.() === 0 ? ['runuser', '-u', USER, '--', 'node', file] : ['node', file];
    const child = execa(argv[0]!, argv.slice(1), { reject: false, env: { BUGBENCH_BWRAP_STATE: state, PATH: `${bin}:${process.env.PATH}` }, extendEnv: false });
    await expect.poll(() => existsSync(join(marks, 'asked')), { timeout: 60_000, interval: 100 }).toBe(true);
    const makers = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).split('\n').filter((line) => line.includes(file) && !line.includes('runuser'));
    for (const line of makers) process.kill(Number(line.trim().split(/\s+/)[0]), 'SIGKILL');
    await child;
    await expect.poll(() => existsSync(join(marks, 'going-on')), { timeout: 10_000, interval: 100 }).toBe(true);
    // Its parent gone before it began, the sandbox ends when its first process reads the end of its lifeline.
    const sandboxProcesses = () => execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8' }).split('\n').filter((line) => line.includes(join(state, 'sandboxes')));
    await expect.poll(sandboxProcesses, { timeout: 15_000, interval: 250 }).toEqual([]);
    const reaped = await asUser('console.log(JSON.stringify(await engine.reapOrphans()));');
    expect(reaped.exitCode, reaped.stderr).toBe(0);
    expect(readdirSync(join(state, 'sandboxes'))).toEqual([]);
  });

  it('checks a bug of the packed image through DOCKER_HOST=bwrap:///DIR, as an ordinary user: valid, as on Docker', async () => {
    const artifact = join(dir, 'valid-two-files');
    cpSync(join(FIXTURES, 'valid-two-files'), artifact, { recursive: true });
    const argv = ['node', BIN, 'check', artifact, '--json'];
    if (process.getuid?.() === 0) {
      await execa('chown', ['-R', USER, artifact]);
      argv.unshift('runuser', '-u', USER, '--');
    }
    const home = join(state, 'home');
    const checked = await execa(argv[0]!, argv.slice(1), { reject: false, extendEnv: false, env: { PATH: process.env.PATH, BUGBENCH_HOME: home, BUGBENCH_BWRAP_STATE: state, DOCKER_HOST: `bwrap://${images}` } });
    const report = JSON.parse(checked.stdout) as { valid: boolean; checks: { name: string; verdict: string; runs: { label: string; cpu?: { ms: number } }[] }[]; FAIL_TO_PASS: string[]; PASS_TO_PASS: string[] };
    expect(report.checks.filter((c) => c.verdict !== 'pass')).toEqual([]);
    expect(report.valid).toBe(true);
    // The same tests as checks.test.ts finds on Docker.
    expect(report.FAIL_TO_PASS).toHaveLength(6);
    expect(report.PASS_TO_PASS).toHaveLength(77);
    // The sandbox's /proc tells each script's processor time, as a container's does.
    expect(report.checks.flatMap((c) => c.runs).filter((r) => !(r.cpu && r.cpu.ms > 0)).map((r) => r.label)).toEqual([]);
    expect(checked.exitCode).toBe(0);
    expect(readdirSync(join(state, 'sandboxes'))).toEqual([]);
  }, 180_000);
});
