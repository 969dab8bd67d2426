import { describe, expect, it } from 'vitest';
import { isTestModulePath, mayHoldTestConfig, testConfigChange, testInfrastructureReason } from '../../../src/bugs/test-infrastructure.js';

describe('JavaScript and TypeScript test infrastructure by name', () => {
  it.each([
    ['src/__tests__/parse.js', 'under __tests__/'],
    ['src/__tests__/fixtures/data.json', 'under __tests__/'],
    ['src/__mocks__/fs.js', 'under __mocks__/'],
    ['src/__snapshots__/parse.test.js.snap', 'under __snapshots__/'],
    ['src/parse.snap', 'a jest snapshot'],
    ['src/parse.test.js', 'a JavaScript test file (*.test.js)'],
    ['src/parse.spec.tsx', 'a TypeScript test file (*.spec.tsx)'],
    ['src/parse.test.mjs', 'a JavaScript test file (*.test.mjs)'],
    ['lib/parse.spec.cts', 'a TypeScript test file (*.spec.cts)'],
    ['test.js', 'a JavaScript test file (test.js)'],
    ['lib/test-parse.mjs', 'a JavaScript test file (test-*.mjs)'],
    ['lib/parse-test.js', 'a JavaScript test file (*-test.js)'],
    ['lib/parse_test.ts', 'a TypeScript test file (*_test.ts)'],
    ['jest.config.js', 'jest configuration'],
    ['packages/a/jest.config.json', 'jest configuration'],
    ['jest.setup.ts', 'a jest setup file'],
    ['vitest.config.mts', 'vitest configuration'],
    ['vitest.workspace.ts', 'vitest configuration'],
    ['vitest.config.unit.ts', 'vitest configuration'],
    ['vitest.setup.ts', 'a vitest setup file'],
    ['.mocharc.yml', 'mocha configuration'],
    ['.mocharc.json', 'mocha configuration'],
    ['.mocharc', 'mocha configuration'],
    ['ava.config.mjs', 'ava configuration'],
    ['.taprc', 'tap configuration'],
    ['karma.conf.js', 'karma configuration'],
    ['.c8rc.json', 'c8 coverage configuration'],
    ['.nycrc', 'nyc coverage configuration'],
    ['src/setupTests.ts', 'a test setup file'],
    ['playwright.config.ts', 'end-to-end test configuration'],
    ['tsconfig.spec.json', 'TypeScript configuration of the tests'],
    ['spec/parser.js', 'under spec/ (jasmine specs)'],
    ['spec/support/jasmine.json', 'jasmine configuration'],
    ['test/helpers.js', 'under a test folder (test/)'],
    ['tests/mocha.opts', 'mocha configuration'],
  ])('%s is %s', (path, reason) => {
    expect(testInfrastructureReason(path)).toBe(reason);
  });

  it.each([
    'src/parse.js',
    'src/latest.js',
    'src/contest.ts',
    'src/attest.ts',
    'src/tests.json',
    'src/test.json',
    'src/testUtils.js',
    'src/protest-test.md',
    'src/spec.ts',
    'src/parse.testing.js',
    'vite.config.ts',
    'package.json',
    'src/spec/model.py',
  ])('%s is not', (path) => {
    expect(testInfrastructureReason(path)).toBeUndefined();
  });

  it('names test files and __tests__ contents as test modules, not mocks, setup or configuration', () => {
    expect(isTestModulePath('src/parse.test.ts')).toBe(true);
    expect(isTestModulePath('src/__tests__/parse.js')).toBe(true);
    expect(isTestModulePath('test-parse.js')).toBe(true);
    expect(isTestModulePath('spec/parserSpec.js')).toBe(true);
    expect(isTestModulePath('src/__tests__/__fixtures__/a.js')).toBe(false);
    expect(isTestModulePath('src/__mocks__/fs.test.js')).toBe(false);
    expect(isTestModulePath('src/__tests__/data.json')).toBe(false);
    expect(isTestModulePath('jest.config.js')).toBe(false);
    expect(isTestModulePath('test/helpers.js')).toBe(false);
  });
});

describe("package.json's test part", () => {
  const pkg = (over: Record<string, unknown> = {}) =>
    JSON.stringify(
      { name: 'lib', version: '1.0.0', scripts: { build: 'tsc', test: 'npm run build && node --test', lint: 'eslint .' }, dependencies: { a: '^1' }, ...over },
      null,
      2,
    );

  it('is read from every package.json', () => {
    expect(mayHoldTestConfig('package.json')).toBe(true);
    expect(mayHoldTestConfig('packages/core/package.json')).toBe(true);
    expect(mayHoldTestConfig('package-lock.json')).toBe(false);
  });

  it('ignores changes outside it', async () => {
    expect(await testConfigChange('package.json', pkg(), pkg({ version: '1.0.1' }))).toBeUndefined();
    expect(await testConfigChange('package.json', pkg(), pkg({ dependencies: { a: '^2' } }))).toBeUndefined();
    expect(await testConfigChange('package.json', pkg(), pkg({ scripts: { build: 'tsc', test: 'npm run build && node --test', lint: 'eslint src' } }))).toBeUndefined();
    // Key order and layout are not part of the setup.
    const compact = JSON.stringify({ dependencies: { a: '^1' }, scripts: { lint: 'eslint .', test: 'npm run build && node --test', build: 'tsc' }, version: '1.0.0', name: 'lib' });
    expect(await testConfigChange('package.json', pkg(), compact)).toBeUndefined();
  });

  it('sees the test script, its pre/post scripts, test:* scripts and the scripts they run', async () => {
    const reason = "package.json's test script";
    expect(await testConfigChange('package.json', pkg(), pkg({ scripts: { build: 'tsc', test: 'node --test --test-skip-pattern=parse' } }))).toBe(reason);
    expect(await testConfigChange('package.json', pkg(), pkg({ scripts: { build: 'tsc', test: 'npm run build && node --test', pretest: 'rm -rf test/x' } }))).toBe(reason);
    expect(await testConfigChange('package.json', pkg(), pkg({ scripts: { build: 'tsc', test: 'npm run build && node --test', 'test:unit': 'x' } }))).toBe(reason);
    // `test` runs `build`, so build is part of how the tests run.
    expect(await testConfigChange('package.json', pkg(), pkg({ scripts: { build: 'tsc --noCheck', test: 'npm run build && node --test' } }))).toBe(reason);
    expect(await testConfigChange('package.json', pkg({ scripts: { build: 'tsc' } }), pkg())).toBe(reason);
  });

  it("sees the runners' own fields", async () => {
    expect(await testConfigChange('package.json', pkg({ jest: { testPathIgnorePatterns: [] } }), pkg({ jest: { testPathIgnorePatterns: ['parse'] } }))).toBe(
      'package.json\'s "jest" field',
    );
    expect(await testConfigChange('package.json', pkg(), pkg({ mocha: { spec: 'test/a.js' } }))).toBe('package.json\'s "mocha" field');
    expect(await testConfigChange('package.json', pkg({ c8: { 100: true } }), pkg())).toBe('package.json\'s "c8" field');
  });

  it('counts any change to a package.json npm cannot read', async () => {
    expect(await testConfigChange('package.json', pkg(), `${pkg()},`)).toMatch(/does not parse as a JSON object/);
    expect(await testConfigChange('package.json', '{', '{ ')).toMatch(/does not parse/);
  });
});
