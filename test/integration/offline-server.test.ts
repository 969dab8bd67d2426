import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELPER, PARSER, WORK, type Kit } from '../../src/agent/offline/kit.js';
import { HELPER_CLIENT } from '../../src/agent/offline/server.js';
import type { Sandbox } from '../../src/sandbox/sandbox.js';
import { preparedPythonKit } from '../helpers/offline-kit.js';

/**
 * The offline Python kit's server: its runs and helper calls are forks of one
 * process that imported pytest and the helper, and must give what a plain run
 * and a plain call give; a run past its limit is killed with what it started;
 * without the server the scripts do the work themselves.
 */
let sandbox: Sandbox;
let kit: Kit;
let said: string[] = [];

/** Each run of this test writes its parent's process id, so a run can be told to be the server's child. */
const TESTS = [
  'import os, subprocess, time',
  'from pkg.calc import add',
  '',
  '',
  'def test_add():',
  '    assert add(2, 1) == 3',
  '',
  '',
  'def test_parent():',
  "    with open('/tmp/parent', 'w') as out:",
  '        out.write(str(os.getppid()))',
  '',
  '',
  'def test_slow():',
  "    if os.path.exists('/tmp/slow'):",
  "        subprocess.Popen(['sleep', '300'])",
  '        time.sleep(300)',
  '',
].join('\n');

const serverPid = async () => (await sandbox.run(`cat ${WORK}/server.pid`)).stdout.trim();
const parent = async () => (await sandbox.run('cat /tmp/parent')).stdout.trim();
const results = async (name: string) => JSON.parse((await sandbox.run(`cat ${WORK}/${name}.json`)).stdout) as Record<string, string>;

beforeAll(async () => {
  ({ sandbox, kit, said } = await preparedPythonKit('test-offline-server', [
    { path: 'pkg/__init__.py', content: '' },
    { path: 'pkg/calc.py', content: 'def add(a, b):\n    return a + b\n' },
    { path: 'tests/test_calc.py', content: TESTS },
  ]));
});
afterAll(async () => {
  await sandbox?.remove();
});

describe("the offline Python kit's server", () => {
  it('runs the suite in a child of the server, with the results a plain pytest run gives', async () => {
    expect(said.join('\n')).toContain('server: up');
    const pid = await serverPid();
    expect(pid).toMatch(/^\d+$/);
    await sandbox.run(`${kit.runSuite('served', 60)}; sed -i 's/a + b/a - b/' pkg/calc.py; ${kit.runSuite('broken', 60)}; git checkout -q -- pkg/calc.py`);
    expect(await parent()).toBe(pid);
    await sandbox.run(`python3 -m pytest -rA --tb=native -p no:cacheprovider tests/test_calc.py > /tmp/plain.log 2>&1; python3 ${PARSER} < /tmp/plain.log > ${WORK}/plain.json`);
    expect(await results('served')).toEqual(await results('plain'));
    expect(await results('served')).toEqual({ 'tests/test_calc.py::test_add': 'passed', 'tests/test_calc.py::test_parent': 'passed', 'tests/test_calc.py::test_slow': 'passed' });
    // The child imported the code as the trial left it.
    expect((await results('broken'))['tests/test_calc.py::test_add']).toBe('failed');
  }, 120_000);

  it('answers a helper call as the helper run on its own does, arguments with spaces and quotes included', async () => {
    await sandbox.run(`cp ${WORK}/served.json "/tmp/it's a map.json"`);
    const served = await sandbox.run(`bash ${HELPER_CLIENT} summary "/tmp/it's a map.json"`);
    const plain = await sandbox.run(`python3 ${HELPER} summary "/tmp/it's a map.json"`);
    expect(served.exitCode).toBe(0);
    expect(served.stdout).toContain('RESULT {"failed": 0, "passed": 3');
    expect(served.stdout).toBe(plain.stdout);
    // A call the helper refuses exits as the helper does, with its message.
    const refused = await sandbox.exec(`bash ${HELPER_CLIENT} no-such-command`, { timeoutMs: 30_000 });
    expect(refused.exitCode).toBe(1);
    expect(`${refused.stdout}${refused.stderr}`).toContain('unknown command no-such-command');
  }, 60_000);

  it('kills a run that passes its limit, with the processes it started, and answers 137', async () => {
    const started = Date.now();
    const slow = await sandbox.run(`touch /tmp/slow; bash ${WORK}/run_tests.sh slow 2; echo "exit $?"; rm -f /tmp/slow`);
    expect(slow.stdout).toContain('exit 137');
    expect(Date.now() - started).toBeLessThan(30_000);
    const left = await sandbox.run("for p in /proc/[0-9]*; do tr '\\0' ' ' < $p/cmdline 2>/dev/null; echo; done | grep -c '^sleep 300' || true");
    expect(left.stdout.trim()).toBe('0');
    // The server still answers.
    await sandbox.run(kit.runSuite('after', 60));
    expect((await results('after'))['tests/test_calc.py::test_add']).toBe('passed');
  }, 60_000);

  it('leaves runs and calls to the scripts themselves once the server is gone', async () => {
    const pid = await serverPid();
    await sandbox.run(`kill ${pid}; while kill -0 ${pid} 2>/dev/null; do sleep 0.05; done`);
    await sandbox.run(kit.runSuite('alone', 60));
    expect(await parent()).not.toBe(pid);
    expect(await results('alone')).toEqual(await results('plain'));
    const call = await sandbox.run(`bash ${HELPER_CLIENT} summary ${WORK}/alone.json`);
    expect(call.stdout).toContain('RESULT {"failed": 0, "passed": 3');
  }, 60_000);
});
