import { describe, expect, it } from 'vitest';
import { detectTestCommand, repoNameFrom } from '../../../src/sandbox/docker-api/repo-image.js';
import { rejectedFiles } from '../../../src/sandbox/sandbox.js';

const none = () => undefined;

describe('detectTestCommand', () => {
  it('picks pytest for a tests/ folder of test_*.py files', () => {
    expect(detectTestCommand(['setup.py', 'tests/test_core.py'], none)).toBe('python3 -m pytest -rA');
  });
  it('picks pytest from pyproject configuration', () => {
    const read = (p: string) => (p === 'pyproject.toml' ? '[tool.pytest.ini_options]\n' : undefined);
    expect(detectTestCommand(['pyproject.toml'], read)).toBe('python3 -m pytest -rA');
  });
  it('picks npm test when package.json has a test script', () => {
    const read = () => JSON.stringify({ scripts: { test: 'vitest' } });
    expect(detectTestCommand(['package.json'], read)).toBe('npm test');
  });
  it('says nothing when nothing says how tests run', () => {
    expect(detectTestCommand(['README.md', 'main.c'], none)).toBe('');
  });
});

describe('repoNameFrom', () => {
  it('makes a docker-safe name from a folder', () => {
    expect(repoNameFrom('/x/My Project!')).toBe('my-project');
    expect(repoNameFrom('/x/___')).toBe('repo');
  });
});

describe('rejectedFiles', () => {
  it('names the files git apply complained about', () => {
    const stderr = 'error: patch failed: pkg/a.py:12\nerror: pkg/a.py: patch does not apply\nerror: b.py: does not exist in index\n';
    expect(rejectedFiles(stderr)).toEqual(['pkg/a.py', 'b.py']);
  });
});
