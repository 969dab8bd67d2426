/**
 * The parser bugbench ships for pytest (data/parsers/pytest_parser.py, which
 * the offline injector submits) must read every log exactly as bugbench's own
 * reader does, or the checks would reject the offline injector's bugs. It runs
 * in a container, like any parser.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLog } from '../../src/bugs/log-readers/index.js';
import { auditParser } from '../../src/bugs/parser-audit.js';
import { parseTestMap } from '../../src/bugs/test-results.js';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { BASE_IMAGE } from '../../src/sandbox/docker-api/base-image.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { openSandbox } from '../../src/sandbox/engine-table.js';

const LOGS = join(PACKAGE_ROOT, 'test', 'fixtures', 'logs');
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await openSandbox({ image: BASE_IMAGE, runId: 'test-bundled-parser' });
  await sandbox.writeFile('/tmp/parser.py', readFileSync(join(PACKAGE_ROOT, 'data', 'parsers', 'pytest_parser.py')));
});
afterAll(async () => {
  await sandbox?.remove();
});

describe('the bundled pytest parser', () => {
  // The folders beside these logs hold other runners' logs (fixture-parsers.test.ts reads them).
  const logs = readdirSync(LOGS).filter((name) => statSync(join(LOGS, name)).isFile());
  // The bundled parser goes with the `-rA` test command the offline injector writes; verbose-only logs are other parsers' (fixture-parsers.test.ts).
  const readable = logs.filter((name) => readLog(readFileSync(join(LOGS, name), 'utf8'))?.reader === 'pytest -rA');

  it.each(readable)('agrees with bugbench on %s', async (name) => {
    const log = readFileSync(join(LOGS, name), 'utf8');
    await sandbox.writeFile('/tmp/test.log', log);
    const result = await sandbox.run('python3 /tmp/parser.py < /tmp/test.log');
    const reading = readLog(log)!;
    const parsed = Object.keys(reading.results!).length === 0 ? {} : parseTestMap(result.stdout);
    expect(auditParser(parsed, reading)).toEqual({ status: 'agrees', reader: 'pytest -rA' });
  });

  it('has logs to agree on', () => {
    expect(readable.length).toBeGreaterThanOrEqual(5);
  });
});
