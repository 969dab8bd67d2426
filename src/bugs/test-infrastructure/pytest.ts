/**
 * pytest: conftest.py, its configuration files, test modules by name, and the
 * pytest sections of setup.cfg and pyproject.toml.
 */
import { addPart, baseName, type TestConvention, type TestParts } from './convention.js';

/** Lines of `text` from each header `isHeader` accepts up to the next header (any `[...]` line). */
function sections(text: string, isHeader: (name: string) => boolean): string {
  const kept: string[] = [];
  let inside = false;
  for (const line of text.split('\n')) {
    const header = /^\s*\[\s*([^\]]*?)\s*\]\s*(?:[#;].*)?$/.exec(line);
    if (header) inside = isHeader(header[1]!);
    if (inside) kept.push(line.trimEnd());
  }
  return kept.join('\n');
}

/** pyproject.toml's pytest tables, and dotted `tool.pytest…` / `pytest.…` keys outside them (whole table kept). */
function pyprojectPytest(text: string): string {
  const kept: string[] = [];
  let table = '';
  let block: string[] = [];
  const flush = () => {
    const pytestTable = table === 'tool.pytest' || table.startsWith('tool.pytest.');
    const dotted =
      (table === '' && block.some((l) => /^\s*tool\s*\.\s*pytest\b/.test(l))) ||
      (table === 'tool' && block.some((l) => /^\s*pytest\s*[.=]/.test(l)));
    if (pytestTable || dotted) kept.push(`[${table}]`, ...block.map((l) => l.trimEnd()));
    block = [];
  };
  for (const line of text.split('\n')) {
    const header = /^\s*\[\s*([^\]\[]*?)\s*\]\s*(?:#.*)?$/.exec(line);
    if (header && !line.trimStart().startsWith('[[')) {
      flush();
      table = header[1]!.replace(/\s*\.\s*/g, '.').replace(/"/g, '');
      continue;
    }
    block.push(line);
  }
  flush();
  return kept.join('\n');
}

export const PYTEST_CONVENTION: TestConvention = {
  name: 'pytest',
  byPath(path) {
    const base = baseName(path);
    if (base === 'conftest.py') return 'a pytest conftest';
    if (base === 'pytest.ini' || base === '.pytest.ini') return 'pytest configuration';
    if (base === 'tox.ini') return 'tox configuration (it can hold pytest settings)';
    if (this.isTestModule(path)) return 'a pytest test module';
    return undefined;
  },
  isTestModule(path) {
    const base = baseName(path);
    return /^test_.*\.py$/.test(base) || /.+_test\.py$/.test(base);
  },
  mayHoldTests: (path) => ['setup.cfg', 'pyproject.toml'].includes(baseName(path)),
  testParts(path, text) {
    const parts: TestParts = new Map();
    const base = baseName(path);
    const part = base === 'setup.cfg' ? sections(text, (name) => name === 'tool:pytest') : base === 'pyproject.toml' ? pyprojectPytest(text) : '';
    if (part !== '') addPart(parts, `pytest configuration (${base === 'setup.cfg' ? '[tool:pytest]' : '[tool.pytest.ini_options]'})`, part);
    return parts;
  },
};
