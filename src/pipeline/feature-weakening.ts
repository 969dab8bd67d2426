/**
 * FeatAdd's weakening: the tests the feature broke, deleted from the test
 * files in a container of the image at the base commit. Python's tests are
 * deleted by the helper the offline injector uses (Python's own ast, in the
 * image). Go's and TypeScript's or JavaScript's are deleted here, in their
 * syntax trees (test-deletion.ts), whether or not the image has python3,
 * each broken name matched to the declared test it spells
 * (broken-test-names.ts). When a broken test cannot be found or deleted, no
 * weakening is written and the reason says which.
 */
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { DELETION_RULES, goModule } from '../agent/offline/syntax-kit.js';
import { loadGrammars, withTree } from '../agent/offline/syntax.js';
import { afterDeletion, planDeletion } from '../agent/offline/test-deletion.js';
import type { TestMap } from '../bugs/test-results.js';
import { PACKAGE_ROOT } from '../paths.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { shellQuote } from '../sandbox/shell-text.js';
import { importPath, nameBrokenTests, testLanguage, type DeclaredTest, type TestLanguage } from './broken-test-names.js';

const HELPER = '/tmp/bugbench-helper.py';

export type Weakening = { diff: string } | { reason: string };

/** "a, b, c and 4 more" */
function some(names: string[], shown = 3): string {
  return names.slice(0, shown).join(', ') + (names.length > shown ? ` and ${names.length - shown} more` : '');
}

/** Tracked paths under `pathspecs`, or why they cannot all be listed. */
async function tracked(sandbox: Sandbox, pathspecs: string[]): Promise<string[] | { reason: string }> {
  const listed = await sandbox.run(`git ls-files -z -- ${pathspecs.map(shellQuote).join(' ')}`);
  if (listed.truncated) return { reason: `the list of the repository's files under ${some(pathspecs)} is too long to read` };
  return listed.stdout.split('\0').filter(Boolean);
}

/** The files' texts at the base commit; a file the agent added (not there yet) is left out. */
async function texts(sandbox: Sandbox, files: string[]): Promise<Map<string, string>> {
  const read = await Promise.all(files.map(async (f) => [f, await sandbox.readText(f).catch(() => undefined)] as const));
  return new Map(read.filter((entry): entry is readonly [string, string] => entry[1] !== undefined));
}

/** Deletes the broken tests in the syntax trees of the test files (the sandbox's work tree at the base commit). */
async function deleteInSyntax(sandbox: Sandbox, language: TestLanguage, testFiles: string[], broken: string[]): Promise<Weakening> {
  const rules = DELETION_RULES[language];
  // A Go test may be called by any test file of its package, those that declare no test (helpers) too.
  const dirs = [...new Set(testFiles.map((f) => posix.dirname(f)))];
  const listed = language === 'go' ? await tracked(sandbox, [...dirs.map((d) => `:(glob)${d === '.' ? '' : `${d}/`}*_test.go`), ':(glob)**/go.mod']) : [];
  if (!Array.isArray(listed)) return listed;
  const neighbours = listed.filter((f) => f.endsWith('_test.go') && dirs.includes(posix.dirname(f)));
  const sources = await texts(sandbox, [...new Set([...testFiles, ...neighbours])]);
  const modFiles = await texts(sandbox, listed.filter((f) => posix.basename(f) === 'go.mod'));
  const modules = new Map([...modFiles].flatMap(([f, text]) => {
    const module = goModule(text);
    return module ? [[posix.dirname(f), module] as const] : [];
  }));
  await loadGrammars();
  const unparsed = [...sources].filter(([f, text]) => withTree(language, f, text, () => true) === undefined).map(([f]) => f);
  // A Go test runs only from a _test.go file (a testdata fixture may declare look-alikes).
  const declared = [...sources].filter(([file]) => language !== 'go' || file.endsWith('_test.go')).flatMap(([file, text]) =>
    rules.tests(file, text).map((t): DeclaredTest => (language === 'go' ? { file, name: t.name, scope: importPath(file, modules) } : { file, name: t.name, titles: t.titles ?? [t.name] })),
  );
  const named = nameBrokenTests(language, declared, broken);
  const unparsedNote = unparsed.length > 0 ? ` (${some(unparsed)} do${unparsed.length === 1 ? 'es' : ''} not parse as ${language === 'go' ? 'Go' : 'TypeScript'})` : '';
  if (named.unmatched.length > 0) return { reason: `the parser's names ${some(named.unmatched)} stand for no test declared in the test files${unparsedNote}, so they could not be deleted` };
  if (named.ambiguous.length > 0) {
    const [first] = named.ambiguous;
    return { reason: `the parser's name ${first!.name} could stand for several tests (${some(first!.tests)}), so which to delete is not known` };
  }
  const deletion = planDeletion(rules, sources, new Map([...named.doomed].map(([file, names]) => [file, (name: string) => names.has(name)])));
  if ('used' in deletion) return { reason: `the tests the feature broke cannot be deleted: other test code calls ${some(deletion.used, 5)}${unparsedNote}` };
  await sandbox.writeFiles(deletion.files.map((d) => ({ path: d.file, content: afterDeletion(d) })));
  return { diff: await sandbox.diff() };
}

/** Deletes the broken tests with the helper's Python ast. */
async function deleteWithPython(sandbox: Sandbox, before: TestMap, after: TestMap): Promise<Weakening> {
  await sandbox.writeFiles([
    { path: HELPER, content: readFileSync(join(PACKAGE_ROOT, 'data', 'offline', 'agent_helper.py')) },
    { path: '/tmp/before.json', content: JSON.stringify(before) },
    { path: '/tmp/after.json', content: JSON.stringify(after) },
  ]);
  const helped = await sandbox.run(`python3 ${HELPER} drop-broken /tmp/before.json /tmp/after.json`, { timeoutMs: 60_000 });
  const diff = await sandbox.diff();
  if (diff.trim() !== '') return { diff };
  const said = helped.stdout.trim().split('\n').at(-1) ?? '';
  return { reason: `Python's ast found none of them to delete in the test files${said ? ` (the helper said: ${said.slice(0, 300)})` : ''}` };
}

/**
 * The weakening of a feature that broke the tests `broken` (`before` and
 * `after` are the original's and the feature's results): a diff over the
 * test files, or why none can be written. The sandbox's repository is reset
 * to `baseCommit` first.
 */
export async function featureWeakening(sandbox: Sandbox, baseCommit: string, testFiles: string[], broken: string[], before: TestMap, after: TestMap): Promise<Weakening> {
  await sandbox.reset(baseCommit);
  const language = testLanguage(testFiles);
  return language ? deleteInSyntax(sandbox, language, testFiles, broken) : deleteWithPython(sandbox, before, after);
}
