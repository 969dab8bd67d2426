/**
 * PHP: PHPUnit's configuration (phpunit.xml, phpunit.xml.dist,
 * phpunit.dist.xml), its bootstrap.php, test classes by name (*Test.php; the
 * tests/ folder is the shared rule's), and in composer.json what only the
 * tests use: autoload-dev, require-dev and the test script.
 */
import { addPart, baseName, foldersOf, type TestConvention, type TestParts } from './convention.js';

const CONFIG = new Set(['phpunit.xml', 'phpunit.xml.dist', 'phpunit.dist.xml', '.phpunit.xml']);
const TEST_CLASS = /^.+Test\.php$/;
const TEST_FOLDERS = new Set(['test', 'tests', 'Tests']);

function composerTestParts(text: string): TestParts {
  const parts: TestParts = new Map();
  let manifest: { 'autoload-dev'?: unknown; 'require-dev'?: unknown; scripts?: Record<string, unknown> };
  try {
    manifest = JSON.parse(text) as typeof manifest;
  } catch {
    return parts;
  }
  if (typeof manifest !== 'object' || manifest === null) return parts;
  for (const key of ['autoload-dev', 'require-dev'] as const) {
    if (manifest[key] !== undefined) addPart(parts, `composer.json's ${key}`, JSON.stringify(manifest[key]));
  }
  const test = manifest.scripts?.test;
  if (test !== undefined) addPart(parts, "composer.json's test script", JSON.stringify(test));
  return parts;
}

export const PHP_CONVENTION: TestConvention = {
  name: 'php',
  byPath(path) {
    const base = baseName(path);
    if (CONFIG.has(base)) return `PHPUnit configuration (${base})`;
    if (base === 'bootstrap.php' && foldersOf(path).some((f) => TEST_FOLDERS.has(f))) return 'a PHPUnit bootstrap (bootstrap.php)';
    if (TEST_CLASS.test(base)) return 'a PHPUnit test class (*Test.php)';
    return undefined;
  },
  isTestModule: (path) => TEST_CLASS.test(baseName(path)),
  mayHoldTests: (path) => baseName(path) === 'composer.json',
  testParts: (_path, text) => composerTestParts(text),
};
