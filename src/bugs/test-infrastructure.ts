/**
 * Which files of a repository belong to its tests even when test_files.txt
 * does not list them: the files a test runner reads to decide what runs and
 * how (pytest's conftest.py and configuration), and everything under a test
 * folder. A bug that edits one can fail tests without touching the library,
 * and its "fix" is to undo a test change, so bug_inject.diff must leave them
 * alone. Each convention is one entry of CONVENTIONS; pytest's come first, and
 * other languages' go beside them.
 */
import { posix } from 'node:path';

export interface TestConvention {
  name: string;
  /** Why `path` belongs to the tests by its name alone, or undefined. */
  byPath(path: string): string | undefined;
  /** Whether `path` is named as a module of tests (rather than a helper, fixture or configuration). */
  isTestModule(path: string): boolean;
  /** Names of files only part of which configures the tests (setup.cfg, pyproject.toml). */
  configFiles?: string[];
  /**
   * That part of such a file's `text`, or undefined when it has none. A
   * change that leaves the part equal does not touch the tests.
   */
  configPart?(path: string, text: string): { part: string; where: string } | undefined;
}

/** Folder names whose contents are tests or test helpers. */
const TEST_FOLDERS = new Set(['test', 'tests', 'testing']);

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
  configFiles: ['setup.cfg', 'pyproject.toml'],
  byPath(path) {
    const parts = path.split('/');
    const base = parts.at(-1) ?? '';
    if (base === 'conftest.py') return 'a pytest conftest';
    if (base === 'pytest.ini' || base === '.pytest.ini') return 'pytest configuration';
    if (base === 'tox.ini') return 'tox configuration (it can hold pytest settings)';
    const folder = parts.slice(0, -1).find((p) => TEST_FOLDERS.has(p));
    if (folder) return `under a test folder (${folder}/)`;
    if (this.isTestModule(path)) return 'a pytest test module';
    return undefined;
  },
  isTestModule(path) {
    const base = posix.basename(path);
    return /^test_.*\.py$/.test(base) || /.+_test\.py$/.test(base);
  },
  configPart(path, text) {
    const base = posix.basename(path);
    if (base === 'setup.cfg') {
      const part = sections(text, (name) => name === 'tool:pytest');
      return part === '' ? undefined : { part, where: '[tool:pytest]' };
    }
    if (base === 'pyproject.toml') {
      const part = pyprojectPytest(text);
      return part === '' ? undefined : { part, where: '[tool.pytest.ini_options]' };
    }
    return undefined;
  },
};

export const CONVENTIONS: TestConvention[] = [PYTEST_CONVENTION];

/** Why `path` is part of the tests by its name, or undefined when its name does not say. */
export function testInfrastructureReason(path: string): string | undefined {
  for (const convention of CONVENTIONS) {
    const reason = convention.byPath(path);
    if (reason) return reason;
  }
  return undefined;
}

export function isTestInfrastructure(path: string): boolean {
  return testInfrastructureReason(path) !== undefined;
}

/** Whether `path` is named as a module of tests by some convention. */
export function isTestModulePath(path: string): boolean {
  return CONVENTIONS.some((c) => c.isTestModule(path));
}

/** Whether only the content can tell (the file mixes test configuration with other settings). */
export function mayHoldTestConfig(path: string): boolean {
  return CONVENTIONS.some((c) => c.configFiles?.includes(posix.basename(path)));
}

/**
 * Why changing `path` from `before` to `after` (undefined: the file does not
 * exist on that side) changes test configuration, or undefined.
 */
export function testConfigChange(path: string, before: string | undefined, after: string | undefined): string | undefined {
  for (const convention of CONVENTIONS) {
    if (!convention.configPart) continue;
    const old = before === undefined ? undefined : convention.configPart(path, before);
    const now = after === undefined ? undefined : convention.configPart(path, after);
    if ((old?.part ?? '') !== (now?.part ?? '')) return `${convention.name} configuration (${(old ?? now)!.where})`;
  }
  return undefined;
}
