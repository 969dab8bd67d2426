/**
 * The parsers the language checks' artifacts use (test/fixtures/parsers/, and
 * the two bugbench ships in data/parsers/ for the offline injector),
 * written as an agent would write them, must read the captured logs of their
 * runner exactly as bugbench's own reader does, failures, subtests and
 * look-alike lines included; else the checks would refuse those artifacts
 * for a parser that disagrees. Each runs in a container, like any parser.
 * Logs the reader leaves unread (it cannot trust them) are not compared.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLog } from '../../src/bugs/log-readers/index.js';
import { auditParser } from '../../src/bugs/parser-audit.js';
import { parseTestMap } from '../../src/bugs/test-results.js';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { BASE_IMAGE } from '../../src/sandbox/docker-api/base-image.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { openSandbox } from '../../src/sandbox/engine-table.js';
import { parserFile } from '../helpers/language-artifacts.js';

const LOGS = join(PACKAGE_ROOT, 'test', 'fixtures', 'logs');

/** Each parser, the folder of logs of its runner, which logs of it to read, and the reader that must agree. */
const CASES = [
  { parser: 'go_test_parser.py', folder: 'go', logs: /^v-/, reader: 'go test -v' },
  { parser: 'node_tap_parser.py', folder: 'tap', logs: /^node/, reader: 'TAP (node --test)' },
  { parser: 'cargo_test.py', folder: 'cargo', logs: /\.log$/, reader: 'cargo test' },
  { parser: 'junit_xml.py', folder: 'junit', logs: /\.log$/, reader: 'JUnit XML' },
  { parser: 'ctest.py', folder: 'cpp', logs: /^ctest-(plain|pass)\.log$/, reader: 'ctest' },
  // With --output-on-failure the failing tests' GoogleTest and Catch2 runs are read too, under the same names.
  { parser: 'ctest.py', folder: 'cpp', logs: /^ctest-(output-on-failure|j2)\.log$/, reader: 'GoogleTest + Catch2 console + ctest' },
  { parser: 'rspec_documentation.py', folder: 'ruby', logs: /^rspec-doc/, reader: 'RSpec' },
  { parser: 'phpunit_testdox.py', folder: 'php', logs: /^phpunit-testdox/, reader: 'PHPUnit' },
  { parser: 'pytest_verbose.py', folder: 'python', logs: /^(pytest|swebench-pytest)/, reader: 'pytest -v' },
  { parser: 'unittest_verbose.py', folder: 'python', logs: /^(unittest|django|swebench-django)/, reader: 'unittest -v' },
];

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await openSandbox({ image: BASE_IMAGE, runId: 'test-fixture-parsers' });
  await sandbox.writeFiles(CASES.map((c) => ({ path: `/tmp/parsers/${c.parser}`, content: readFileSync(parserFile(c.parser), 'utf8') })));
});

afterAll(async () => {
  await sandbox?.remove();
});

describe.each(CASES)('$parser', ({ parser, folder, logs, reader }) => {
  const names = readdirSync(join(LOGS, folder)).filter((name) => logs.test(name));
  const readable = names.filter((name) => readLog(readFileSync(join(LOGS, folder, name), 'utf8'))?.results !== undefined);

  it('has failing logs to agree on', () => {
    const failing = readable.filter((name) => Object.values(readLog(readFileSync(join(LOGS, folder, name), 'utf8'))!.results!).includes('failed'));
    expect(failing.length).toBeGreaterThanOrEqual(1);
  });

  it.each(readable)(`agrees with bugbench's reader on ${folder}/%s`, async (name) => {
    const log = readFileSync(join(LOGS, folder, name), 'utf8');
    await sandbox.writeFile('/tmp/test.log', log);
    const result = await sandbox.run(`python3 /tmp/parsers/${parser} < /tmp/test.log`);
    expect(result.exitCode, result.stderr).toBe(0);
    const reading = readLog(log)!;
    const parsed = Object.keys(reading.results!).length === 0 ? {} : parseTestMap(result.stdout);
    expect(auditParser(parsed, reading)).toEqual({ status: 'agrees', reader });
  });
});
