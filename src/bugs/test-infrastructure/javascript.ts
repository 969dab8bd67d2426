/**
 * JavaScript and TypeScript: the files jest, vitest, mocha, ava, tap and
 * node's own runner pick as tests by default, their configuration and setup
 * files, jest's mocks and snapshots, and the test part of package.json.
 */
import { baseName, foldersOf, type TestConvention } from './convention.js';
import { packageJsonTestParts } from './package-json.js';

const EXTS = 'js|mjs|cjs|jsx|ts|mts|cts|tsx';
const EXT = `(?:${EXTS})`;
const TS = /\.(?:ts|mts|cts|tsx)$/;

/** Test files by name: jest's `*.test.*`/`*.spec.*` and node's `test.js`, `test-*.js`, `*-test.js`, `*_test.js`. */
const TEST_NAMES: [RegExp, string][] = [
  [new RegExp(`^.+\\.test\\.${EXT}$`), '*.test'],
  [new RegExp(`^.+\\.spec\\.${EXT}$`), '*.spec'],
  [new RegExp(`^test\\.${EXT}$`), 'test'],
  [new RegExp(`^test-.+\\.${EXT}$`), 'test-*'],
  [new RegExp(`^.+-test\\.${EXT}$`), '*-test'],
  [new RegExp(`^.+_test\\.${EXT}$`), '*_test'],
];

/** Runner configuration and setup files by name. */
const CONFIG_NAMES: [RegExp, string][] = [
  [new RegExp(`^jest\\.config\\.(?:${EXTS}|json)$`), 'jest configuration'],
  [new RegExp(`^jest\\..+\\.${EXT}$`), 'a jest setup file'],
  [new RegExp(`^vitest\\.(?:config|workspace|projects)(?:\\.[\\w-]+)?\\.(?:${EXTS}|json)$`), 'vitest configuration'],
  [new RegExp(`^vitest\\..+\\.${EXT}$`), 'a vitest setup file'],
  [/^\.mocharc(?:\.(?:js|cjs|mjs|json|jsonc|ya?ml))?$/, 'mocha configuration'],
  [/^mocha\.opts$/, 'mocha configuration'],
  [/^ava\.config\.(?:js|cjs|mjs)$/, 'ava configuration'],
  [/^\.taprc(?:\.\w+)?$/, 'tap configuration'],
  [new RegExp(`^karma\\.conf(?:ig)?\\.${EXT}$`), 'karma configuration'],
  [/^\.c8rc(?:\.json)?$/, 'c8 coverage configuration'],
  [/^(?:\.nycrc(?:\.(?:json|ya?ml))?|nyc\.config\.(?:js|cjs|mjs))$/, 'nyc coverage configuration'],
  [/^jasmine\.json$/, 'jasmine configuration'],
  [new RegExp(`^(?:playwright|cypress)\\.config\\.${EXT}$`), 'end-to-end test configuration'],
  [new RegExp(`^(?:setupTests|setup-?tests?|test-?setup|testSetup)\\.${EXT}$`), 'a test setup file'],
  [/^tsconfig\.(?:test|spec)\.json$/, 'TypeScript configuration of the tests'],
];

function testName(base: string): string | undefined {
  const match = TEST_NAMES.find(([pattern]) => pattern.test(base));
  if (!match) return undefined;
  const ext = base.slice(base.lastIndexOf('.'));
  return `a ${TS.test(ext) ? 'TypeScript' : 'JavaScript'} test file (${match[1]}${ext})`;
}

const isScript = (base: string) => new RegExp(`\\.${EXT}$`).test(base);

export const JAVASCRIPT_CONVENTION: TestConvention = {
  name: 'javascript',
  byPath(path) {
    const base = baseName(path);
    const folders = foldersOf(path);
    for (const folder of ['__tests__', '__mocks__', '__fixtures__', '__snapshots__']) {
      if (folders.includes(folder)) return `under ${folder}/`;
    }
    if (base.endsWith('.snap')) return 'a jest snapshot';
    const named = testName(base);
    if (named) return named;
    const config = CONFIG_NAMES.find(([pattern]) => pattern.test(base));
    if (config) return config[1];
    if (isScript(base) && folders.includes('spec')) return 'under spec/ (jasmine specs)';
    return undefined;
  },
  isTestModule(path) {
    const base = baseName(path);
    const folders = foldersOf(path);
    if (!isScript(base) || folders.some((f) => f === '__mocks__' || f === '__fixtures__')) return false;
    return testName(base) !== undefined || folders.includes('__tests__') || (folders.includes('spec') && /[Ss]pec\.\w+$/.test(base));
  },
  mayHoldTests: (path) => baseName(path) === 'package.json',
  testParts: (_path, text) => packageJsonTestParts(text),
};
