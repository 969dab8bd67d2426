import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORK, type Kit } from '../../src/agent/offline/kit.js';
import type { Sandbox } from '../../src/sandbox/sandbox.js';
import { preparedPythonKit } from '../helpers/offline-kit.js';

/**
 * The offline injector's runs keep bytecode between its trials, which rewrite
 * a code file and put it back within a second, often at the same size: every
 * run must still see the code as it is.
 */
let sandbox: Sandbox;
let kit: Kit;
/** What the kit's calls answered, by call. */
let said: string[] = [];

beforeAll(async () => {
  ({ sandbox, kit, said } = await preparedPythonKit('test-offline-bytecode', [
    { path: 'pkg/__init__.py', content: '' },
    { path: 'pkg/calc.py', content: 'def add(a, b):\n    return a + b\n' },
    { path: 'tests/test_calc.py', content: 'from pkg.calc import add\n\n\ndef test_add():\n    assert add(2, 1) == 3\n' },
  ]));
});
afterAll(async () => {
  await sandbox?.remove();
});

describe('the offline Python injector', () => {
  it('keeps bytecode between its runs, and each run sees the code as it is', async () => {
    expect(said.join('\n')).toContain('bytecode: kept');
    // A trial: `+` made `-` (the same size) and put back, both at one second, as two writes within a second would be.
    const result = await sandbox.run(
      [
        `mkdir -p ${WORK}`,
        kit.runSuite('original'),
        "sed -i 's/a + b/a - b/' pkg/calc.py && touch -d @1800000000 pkg/calc.py",
        kit.runSuite('trial'),
        'git checkout -q -- pkg/calc.py && touch -d @1800000000 pkg/calc.py',
        kit.runSuite('back'),
        `for run in original trial back; do python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)))' < ${WORK}/$run.json; done; ls pkg/__pycache__`,
      ].join('\n'),
    );
    const [original, trial, back, ...cached] = result.stdout.trim().split('\n');
    expect(JSON.parse(original!)).toEqual({ 'tests/test_calc.py::test_add': 'passed' });
    expect(JSON.parse(trial!)).toEqual({ 'tests/test_calc.py::test_add': 'failed' });
    expect(JSON.parse(back!)).toEqual({ 'tests/test_calc.py::test_add': 'passed' });
    // The runs wrote bytecode: the sandbox's PYTHONDONTWRITEBYTECODE did not hold for them.
    expect(cached.join(' ')).toMatch(/calc\.cpython-\d+\.pyc/);
  }, 120_000);
});
