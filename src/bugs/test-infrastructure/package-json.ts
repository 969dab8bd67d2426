/**
 * The parts of a package.json that decide how its tests run: the test
 * scripts (test, pretest, posttest, test:*, and the scripts they call) and
 * the runners' own fields. A change to its version, dependencies or other
 * scripts leaves them equal.
 */
import { addPart, type TestParts } from './convention.js';

/** Fields that configure a test runner or its coverage. */
const RUNNER_FIELDS = ['jest', 'mocha', 'ava', 'tap', 'c8', 'nyc', 'jasmine'];

const isTestScriptName = (name: string) => /^(?:pre|post)?test(?:$|[:\-_.])/.test(name);

/** The test scripts and every script they name, by name. */
function testScripts(scripts: Record<string, unknown>): Record<string, unknown> {
  const chosen = new Set(Object.keys(scripts).filter(isTestScriptName));
  const queue = [...chosen];
  while (queue.length > 0) {
    const command = scripts[queue.pop()!];
    if (typeof command !== 'string') continue;
    // `npm run lint`, `yarn build`, `run-s unit e2e`: a word that names a script runs it.
    for (const word of command.split(/[\s;&|()'"`=]+/)) {
      if (word !== '' && Object.hasOwn(scripts, word) && !chosen.has(word)) {
        chosen.add(word);
        queue.push(word);
      }
    }
  }
  return Object.fromEntries([...chosen].sort().map((name) => [name, scripts[name]]));
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function packageJsonTestParts(text: string): TestParts {
  const parts: TestParts = new Map();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (!isRecord(json)) {
    // npm cannot run any script of it; which part holds the tests cannot be told.
    addPart(parts, 'package.json, which does not parse as a JSON object', text);
    return parts;
  }
  if (isRecord(json.scripts)) {
    const scripts = testScripts(json.scripts);
    if (Object.keys(scripts).length > 0) addPart(parts, "package.json's test script", JSON.stringify(scripts));
  }
  for (const field of RUNNER_FIELDS) {
    if (json[field] !== undefined) addPart(parts, `package.json's "${field}" field`, JSON.stringify(json[field]));
  }
  return parts;
}
