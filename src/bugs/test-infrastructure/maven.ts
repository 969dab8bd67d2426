/**
 * The parts of a Maven pom.xml that decide how its tests run: the Surefire
 * and Failsafe plugins, the build's test source and resource folders,
 * test-scoped dependencies, and the properties that switch tests off or that
 * those parts refer to (`${junit.version}`). Comments, layout and the rest
 * of the build leave them equal: the parts are compared as parsed XML.
 */
import { lazyRequire } from '../../lazy-require.js';
import { addPart, type TestParts } from './convention.js';

/** fast-xml-parser, loaded once a report or build file is read. */
const fastXml = lazyRequire<typeof import('fast-xml-parser')>('fast-xml-parser');

const TEST_PLUGINS = new Map([
  ['maven-surefire-plugin', 'the Surefire plugin'],
  ['maven-failsafe-plugin', 'the Failsafe plugin'],
]);
const TEST_FOLDERS = new Set(['testSourceDirectory', 'testResources', 'testOutputDirectory']);
/** Properties that Surefire and Failsafe read themselves. */
const TEST_PROPERTY = /^(?:skipTests|skipITs|maven\.test\..+|surefire\..+|failsafe\..+|test|it\.test)$/;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const textOf = (value: unknown) => String(isRecord(value) ? (value['#text'] ?? '') : (value ?? '')).trim();

interface Found {
  reason: string;
  value: unknown;
}

function visit(value: unknown, key: string, found: Found[], properties: Record<string, unknown>[]): void {
  if (Array.isArray(value)) {
    for (const item of value) visit(item, key, found, properties);
    return;
  }
  if (key === 'plugin' && isRecord(value) && TEST_PLUGINS.has(textOf(value.artifactId))) {
    found.push({ reason: TEST_PLUGINS.get(textOf(value.artifactId))!, value });
    return;
  }
  if (key === 'dependency' && isRecord(value) && textOf(value.scope) === 'test') {
    found.push({ reason: 'test-scoped dependencies', value });
    return;
  }
  if (TEST_FOLDERS.has(key)) {
    found.push({ reason: `<${key}>`, value });
    return;
  }
  if (key === 'properties' && isRecord(value)) {
    properties.push(value);
    for (const [name, setting] of Object.entries(value)) {
      if (TEST_PROPERTY.test(name)) found.push({ reason: 'test properties', value: { [name]: setting } });
    }
    return;
  }
  if (isRecord(value)) for (const [k, v] of Object.entries(value)) visit(v, k, found, properties);
}

export function pomTestParts(text: string): TestParts {
  const parts: TestParts = new Map();
  if (fastXml().XMLValidator.validate(text) !== true) {
    addPart(parts, 'pom.xml, which does not parse as XML', text);
    return parts;
  }
  const xml: unknown = new (fastXml().XMLParser)({ ignoreAttributes: false, parseTagValue: false, trimValues: true }).parse(text);
  const found: Found[] = [];
  const properties: Record<string, unknown>[] = [];
  visit(xml, '', found, properties);
  // The properties the test parts name, e.g. the version of a test-scoped JUnit.
  const named = new Set([...JSON.stringify(found.map((f) => f.value)).matchAll(/\$\{([^}]+)\}/g)].map((m) => m[1]!));
  for (const block of properties) {
    for (const [name, setting] of Object.entries(block)) {
      if (named.has(name) && !TEST_PROPERTY.test(name)) found.push({ reason: 'test properties', value: { [name]: setting } });
    }
  }
  for (const { reason, value } of found) addPart(parts, reason, JSON.stringify(value));
  return parts;
}
