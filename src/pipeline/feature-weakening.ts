/**
 * FeatAdd's weakening: the tests the feature broke, deleted from the test
 * files in a container of the image at the base commit. Python's tests are
 * deleted by the helper the offline injector uses (Python's own ast, in the
 * image). Go's and TypeScript's or JavaScript's are deleted here, in their
 * syntax trees (test-deletion.ts), whether or not the image has python3.
 * The agent's parser names tests as it likes: each broken name is matched to
 * the declared test it spells, by the test's parts (name-match.ts), as the
 * parser audit matches names.
 */
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { DELETION_RULES, goModule, readFiles, readFilesCommand } from '../agent/offline/syntax-kit.js';
import { loadGrammars } from '../agent/offline/syntax.js';
import { afterDeletion, planDeletion } from '../agent/offline/test-deletion.js';
import { NameIndex } from '../bugs/log-readers/name-match.js';
import type { NamePart } from '../bugs/log-readers/types.js';
import { brokenTests, type TestMap } from '../bugs/test-results.js';
import { PACKAGE_ROOT } from '../paths.js';
import type { Sandbox } from '../sandbox/sandbox.js';

const HELPER = '/tmp/bugbench-helper.py';
const SCRIPTED = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

/** The language whose syntax trees the test files are deleted from, or undefined for Python's helper. */
export function syntaxLanguage(testFiles: string[]): 'go' | 'typescript' | undefined {
  if (testFiles.length > 0 && testFiles.every((f) => f.endsWith('_test.go'))) return 'go';
  if (testFiles.length > 0 && testFiles.every((f) => SCRIPTED.test(f))) return 'typescript';
  return undefined;
}

/** A declared test's parts, as a reader would give them: its scope (Go's import path, a script's path) and groups may be left out. */
function declaredParts(language: 'go' | 'typescript', file: string, name: string, module: string | undefined): NamePart[] {
  if (language === 'go') {
    const dir = posix.dirname(file);
    const path = [module, dir === '.' ? '' : dir].filter(Boolean).join('/');
    return [...path.split('/').filter(Boolean).map((p): NamePart => ({ forms: [p], drop: 'scope' })), { forms: [name] }];
  }
  const names = name.split(' > ');
  return [
    ...file.split('/').map((p, i, all): NamePart => ({ forms: i === all.length - 1 ? [p, p.replace(SCRIPTED, '')] : [p], drop: 'scope' })),
    ...names.slice(0, -1).map((g): NamePart => ({ forms: [g], drop: 'group' })),
    { forms: [names.at(-1)!] },
  ];
}

/**
 * The declared tests `broken` names: each name as it stands, else without its
 * trailing subtests (a Go subtest fails with its test). Keys are "file\0name".
 */
function namedTests(index: NameIndex, broken: string[]): Set<string> {
  const found = new Set<string>();
  for (const id of broken) {
    let name = id;
    for (;;) {
      const tests = index.resolve(name);
      if (tests.length > 0) {
        for (const t of tests) found.add(t);
        break;
      }
      const cut = name.lastIndexOf('/');
      if (cut <= 0) break;
      name = name.slice(0, cut);
    }
  }
  return found;
}

/** Deletes the broken tests in the syntax trees of the test files (the sandbox's work tree at the base commit): the diff, or why it cannot. */
async function deleteInSyntax(sandbox: Sandbox, language: 'go' | 'typescript', testFiles: string[], broken: string[]): Promise<{ diff: string } | { reason: string }> {
  const rules = DELETION_RULES[language];
  // A Go test may be called by any test file of its package, those that declare no test (helpers) too.
  const dirs = new Set(testFiles.map((f) => posix.dirname(f)));
  const tracked = (await sandbox.run('git ls-files -z')).stdout.split('\0');
  const neighbours = language === 'go' ? tracked.filter((f) => f.endsWith('_test.go') && dirs.has(posix.dirname(f))) : [];
  const read = await sandbox.run(readFilesCommand([...new Set([...testFiles, ...neighbours, ...(language === 'go' && tracked.includes('go.mod') ? ['go.mod'] : [])])]));
  const texts = readFiles(read.stdout);
  const module = goModule(texts.get('go.mod'));
  texts.delete('go.mod');
  await loadGrammars();
  const index = new NameIndex();
  for (const file of testFiles) {
    for (const test of rules.tests(file, texts.get(file) ?? '')) index.add(`${file}\0${test.name}`, declaredParts(language, file, test.name, module));
  }
  const doomed = new Map<string, Set<string>>();
  for (const key of namedTests(index, broken)) {
    const [file, name] = key.split('\0') as [string, string];
    doomed.set(file, (doomed.get(file) ?? new Set()).add(name));
  }
  const shown = broken.slice(0, 3).join(', ') + (broken.length > 3 ? ` and ${broken.length - 3} more` : '');
  if (doomed.size === 0) return { reason: `none of the tests the feature broke (${shown}) is declared in the test files as the parser names it, so none could be deleted` };
  const deletion = planDeletion(rules, texts, new Map([...doomed].map(([file, names]) => [file, (name: string) => names.has(name)])));
  if ('used' in deletion) return { reason: `the tests the feature broke cannot be deleted: other test code calls ${deletion.used.slice(0, 5).join('; ')}` };
  await sandbox.writeFiles(deletion.files.map((d) => ({ path: d.file, content: afterDeletion(d) })));
  return { diff: await sandbox.diff() };
}

/**
 * The weakening of a feature that broke tests: a diff over the test files
 * deleting what broke (`before` and `after` are the original's and the
 * feature's results), or why no such diff can be written. The sandbox's
 * repository is reset to `baseCommit` first.
 */
export async function featureWeakening(sandbox: Sandbox, baseCommit: string, testFiles: string[], before: TestMap, after: TestMap): Promise<{ diff: string } | { reason: string }> {
  await sandbox.reset(baseCommit);
  const language = syntaxLanguage(testFiles);
  if (language) return deleteInSyntax(sandbox, language, testFiles, brokenTests(before, after));
  await sandbox.writeFiles([
    { path: HELPER, content: readFileSync(join(PACKAGE_ROOT, 'data', 'offline', 'agent_helper.py')) },
    { path: '/tmp/before.json', content: JSON.stringify(before) },
    { path: '/tmp/after.json', content: JSON.stringify(after) },
  ]);
  await sandbox.run(`python3 ${HELPER} drop-broken /tmp/before.json /tmp/after.json`, { timeoutMs: 60_000 });
  return { diff: await sandbox.diff() };
}
