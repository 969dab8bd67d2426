import { describe, expect, it } from 'vitest';
import { isTestModulePath, mayHoldTestConfig, testConfigChange, testInfrastructureReason } from '../../../src/bugs/test-infrastructure.js';

describe('test infrastructure by name', () => {
  it.each([
    ['conftest.py', 'a pytest conftest'],
    ['src/pkg/conftest.py', 'a pytest conftest'],
    ['pytest.ini', 'pytest configuration'],
    ['tox.ini', 'tox configuration (it can hold pytest settings)'],
    ['tests/helpers.py', 'under a test folder (tests/)'],
    ['pkg/testing/asserts.py', 'under a test folder (testing/)'],
    ['test/data/input.json', 'under a test folder (test/)'],
    ['pkg/test_utils.py', 'a pytest test module'],
    ['pkg/core_test.py', 'a pytest test module'],
  ])('%s is %s', (path, reason) => {
    expect(testInfrastructureReason(path)).toBe(reason);
  });

  it.each(['pkg/core.py', 'pkg/testing_utils.py', 'setup.cfg', 'pyproject.toml', 'docs/tests.md', 'contest.py'])('%s is not', (path) => {
    expect(testInfrastructureReason(path)).toBeUndefined();
  });

  it('tells test modules from helpers', () => {
    expect(isTestModulePath('tests/test_x.py')).toBe(true);
    expect(isTestModulePath('pkg/core_test.py')).toBe(true);
    expect(isTestModulePath('tests/conftest.py')).toBe(false);
    expect(isTestModulePath('tests/helpers.py')).toBe(false);
  });
});

describe('test configuration inside shared files', () => {
  const setupCfg = '[metadata]\nname = x\n\n[tool:pytest]\naddopts = -q\n\n[flake8]\nmax-line-length = 100\n';
  const pyproject = '[project]\nname = "x"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n\n[tool.ruff]\nline-length = 100\n';

  it('knows which files to look into', () => {
    expect(mayHoldTestConfig('setup.cfg')).toBe(true);
    expect(mayHoldTestConfig('sub/pyproject.toml')).toBe(true);
    expect(mayHoldTestConfig('setup.py')).toBe(false);
    expect(mayHoldTestConfig('setup.cfg.orig')).toBe(false);
  });

  it('ignores changes outside the pytest section', async () => {
    expect(await testConfigChange('setup.cfg', setupCfg, setupCfg.replace('max-line-length = 100', 'max-line-length = 120'))).toBeUndefined();
    expect(await testConfigChange('pyproject.toml', pyproject, pyproject.replace('line-length = 100', 'line-length = 88'))).toBeUndefined();
    expect(await testConfigChange('pyproject.toml', pyproject, pyproject.replace('name = "x"', 'name = "y"'))).toBeUndefined();
  });

  it('sees a change to the pytest section, or one added or removed', async () => {
    expect(await testConfigChange('setup.cfg', setupCfg, setupCfg.replace('addopts = -q', 'addopts = -q -p no:x'))).toBe('pytest configuration ([tool:pytest])');
    expect(await testConfigChange('setup.cfg', '[metadata]\nname = x\n', setupCfg)).toBe('pytest configuration ([tool:pytest])');
    expect(await testConfigChange('pyproject.toml', pyproject, pyproject.replace('testpaths = ["tests"]', 'testpaths = ["tests"]\naddopts = "-k not slow"'))).toBe(
      'pytest configuration ([tool.pytest.ini_options])',
    );
    expect(await testConfigChange('pyproject.toml', '[project]\nname = "x"\n', `${'[project]\nname = "x"\n'}[tool.pytest]\nminversion = "9"\n`)).toMatch(/pytest configuration/);
    expect(await testConfigChange('pyproject.toml', undefined, pyproject)).toMatch(/pytest configuration/);
  });

  it('sees pytest settings given as dotted keys', async () => {
    const before = '[tool]\nblack.line-length = 88\n';
    expect(await testConfigChange('pyproject.toml', before, `${before}pytest.ini_options.addopts = "-x"\n`)).toMatch(/pytest configuration/);
    expect(await testConfigChange('pyproject.toml', 'name = 1\n', 'name = 1\ntool.pytest.ini_options.addopts = "-x"\n')).toMatch(/pytest configuration/);
  });
});

describe('one rule for every ecosystem', () => {
  it('gives the most specific reason when several conventions name a file', () => {
    expect(testInfrastructureReason('tests/test_x.py')).toBe('a pytest test module');
    expect(testInfrastructureReason('tests/x_test.go')).toBe('a Go test file (*_test.go)');
    expect(testInfrastructureReason('test/parse.test.js')).toBe('a JavaScript test file (*.test.js)');
    expect(testInfrastructureReason('src/test/java/a/BTest.java')).toBe('under src/test/ (test sources)');
    expect(testInfrastructureReason('tests/common/mod.rs')).toBe('under a test folder (tests/)');
  });

  it('leaves the files of other languages that merely look alike alone', () => {
    for (const path of ['pkg/core.test.py', 'src/examples/demo.py', 'pkg/spec/model.py', 'benchmarks/run.py', 'pkg/testdata.py']) {
      expect(testInfrastructureReason(path)).toBeUndefined();
    }
  });

  it('compares nothing for files no convention reads', async () => {
    expect(mayHoldTestConfig('README.md')).toBe(false);
    expect(await testConfigChange('README.md', 'a', 'b')).toBeUndefined();
  });

  it('names every changed part of a file', async () => {
    const before = JSON.stringify({ scripts: { test: 'jest' }, jest: { verbose: true } });
    const after = JSON.stringify({ scripts: { test: 'jest -t x' }, jest: { verbose: false } });
    expect(await testConfigChange('package.json', before, after)).toBe('package.json\'s test script; package.json\'s "jest" field');
  });
});
