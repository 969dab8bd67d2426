/**
 * The offline injector in Go (go test -v) and TypeScript or JavaScript run by
 * node's test runner (its TAP): the agent reads the files through bash, finds
 * functions, operators and tests in their tree-sitter syntax trees, and makes
 * every change with the editor, as a model would. Runs are read by the
 * parsers bugbench ships (data/parsers/), the same ones it submits.
 */
import { posix } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { isTestInfrastructure } from '../../bugs/test-infrastructure.js';
import { editCalls } from './editor-edits.js';
import { skippedByPath, skippedReason, skippedSentence } from './generated.js';
import { goMutations, goRemovals, goTests, goUnusedImports, goUses } from './go-source.js';
import { bash, CANDIDATES_PER_FILE, compareCommand, create, HELPER, PARSER, q, readResource, resultOf, WORK, type Candidate, type Compared, type Kit } from './kit.js';
import { compareRuns, readResults, showResults, type RunResults } from './run-reading.js';
import type { Rng } from './rng.js';
import { loadGrammars, type SourceChange, type Splice, type SyntaxLanguage } from './syntax.js';
import { planDeletion, type DeletionRules } from './test-deletion.js';
import { tsUnusedImports } from './ts-imports.js';
import { tsMutations, tsRemovals, tsTests } from './ts-source.js';

/** How one language is run, read and changed. */
interface LanguageRules {
  language: SyntaxLanguage;
  name: string;
  isSource(path: string): boolean;
  parser: string;
  /** The whole suite, its output to stdout and stderr. */
  suite: string;
  /** The lines of the suite's log that hold its results (grep -E), when the rest can be left unread; else the whole log is read. */
  frames?: string;
  removals(file: string, source: string): Promise<SourceChange[]>;
  mutations(file: string, source: string): Promise<SourceChange[]>;
  tests(file: string, source: string): { name: string; titles?: string[]; span: Splice }[];
  /** Where test names are used in a file (declarations included): a test other code calls cannot be deleted. */
  uses(file: string, source: string, names: Set<string>): { name: string; at: number; line: number }[];
  /** Splices that keep a test file compiling once tests are gone (the imports only they used; `before` is the file before). */
  tidy(file: string, source: string, before: string): Splice[];
  /** The test script for some test files. */
  script(testFiles: string[]): string;
}

const OUTSIDE = /(^|\/)(vendor|testdata|node_modules|dist|build|coverage|docs?|examples?|scripts?|benchmarks?)\//;

const GO: LanguageRules = {
  language: 'go',
  name: 'Go',
  isSource: (p) => p.endsWith('.go') && !OUTSIDE.test(p),
  parser: 'go_test_parser.py',
  suite: 'go test -count=1 -v ./...',
  // Each test's RUN and result lines and each package's closing line: what go test -v's reading needs.
  frames: '^=== (RUN|PAUSE|CONT|NAME) |^ *--- (PASS|FAIL|SKIP): |^(ok|FAIL|\\?)[[:space:]]',
  removals: goRemovals,
  mutations: goMutations,
  tests: goTests,
  uses: goUses,
  tidy: goUnusedImports,
  script: (testFiles) => {
    const packages = [...new Set(testFiles.map((f) => posix.dirname(f)))].sort().map((d) => (d === '.' ? '.' : `./${d}`));
    return `#!/bin/bash\n# Runs the tests of the packages that hold the selected test files, one result line per test.\ngo test -count=1 -v ${packages.join(' ')} 2>&1\n`;
  },
};

const TYPESCRIPT: LanguageRules = {
  language: 'typescript',
  name: 'TypeScript',
  isSource: (p) => /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/.test(p) && !p.endsWith('.d.ts') && !OUTSIDE.test(p) && !/(^|\/)[^/]*\.config\.[^/]+$/.test(p),
  parser: 'node_tap_parser.py',
  suite: 'npm test',
  removals: tsRemovals,
  mutations: tsMutations,
  tests: tsTests,
  // A test of node's runner is an anonymous callback given to test() or it(): nothing can call it by name.
  uses: () => [],
  tidy: tsUnusedImports,
  // The package's own test script compiles what it must and runs every test file with node's runner.
  script: () => '#!/bin/bash\n# The package\'s test script: node\'s test runner, TAP on a pipe.\nnpm test 2>&1\n',
};

/** Reads files with bash in one go: a line "FILE <path> <base64>" each; then says if there is no python3 to run the parser and helper. */
const readFilesCommand = (files: string[]) =>
  `for f in ${files.map(q).join(' ')}; do printf 'FILE %s ' "$f"; base64 -w0 "$f"; echo; done; command -v python3 > /dev/null || echo '${NO_PYTHON}'`;
const NO_PYTHON = 'python3: not installed';

function readFiles(output: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const line of output.split('\n')) {
    const m = /^FILE (\S+) ([A-Za-z0-9+/=]*)$/.exec(line);
    if (m) files.set(m[1]!, Buffer.from(m[2]!, 'base64').toString('utf8'));
  }
  return files;
}

/** How tests are found and deleted in Go and in TypeScript or JavaScript (FeatAdd's weakening deletes with them too). */
export const DELETION_RULES: Record<'go' | 'typescript', DeletionRules> = { go: GO, typescript: TYPESCRIPT };

/** The module path of a go.mod. */
export function goModule(text: string | undefined): string | undefined {
  return text && /^module\s+(\S+)/m.exec(text)?.[1];
}

/** The kit for a Go module or a node package, chosen by the files at the repository's root; undefined for neither. */
export function syntaxKit(files: string[]): Kit | string | undefined {
  const rules = files.includes('go.mod') ? GO : files.includes('package.json') ? TYPESCRIPT : undefined;
  if (!rules) return undefined;
  const sources = files.filter(rules.isSource);
  const testCandidates = sources.filter(isTestInfrastructure);
  /** Code files left out (vendored, generated), with the reason: by path now, by their first lines once read. */
  const skipped = new Map<string, string>();
  for (const file of sources.filter((f) => !isTestInfrastructure(f))) {
    const why = skippedByPath(file);
    if (why) skipped.set(file, why);
  }
  let codeFiles = sources.filter((f) => !isTestInfrastructure(f) && !skipped.has(f));
  if (testCandidates.length === 0 || codeFiles.length === 0) {
    const left = skipped.size > 0 ? ` (${skipped.size} more are vendored or generated)` : '';
    return `I found ${testCandidates.length} ${rules.name} test file(s) and ${codeFiles.length} code file(s)${left}; there is nothing I can work with here.`;
  }
  const text = new Map<string, string>();
  /** Test id → the file that declares it (Go: "<import path>/<TestName>", node: "suite > test"). */
  const declaredIn = new Map<string, string>();
  let testFiles: string[] = [];
  let original: Record<string, string> = {};
  /** The tests that passed on the original and not with the bug: read once, for the oracle files and the weakening. */
  let brokenByBug: string[] = [];
  let module: string | undefined;
  /** What a test's id starts with before its name: a Go test's import path ("<module>/<dir>/"); nothing in node. */
  const idPrefix = (file: string) => (rules === GO ? `${[module, posix.dirname(file)].filter((p) => p && p !== '.').join('/')}/` : '');

  const fileOf = (id: string): string | undefined => {
    if (declaredIn.has(id)) return declaredIn.get(id);
    // A name the reader gives the test besides its id (node's tests without the file the log names).
    for (const alias of runs.get('original')?.aliases[id] ?? []) if (declaredIn.has(alias)) return declaredIn.get(alias);
    // A Go subtest belongs to its top-level test.
    for (let at = id.lastIndexOf('/'); at > 0; at = id.lastIndexOf('/', at - 1)) {
      const found = declaredIn.get(id.slice(0, at));
      if (found) return found;
    }
    return undefined;
  };
  const results = (output: string) => resultOf<Record<string, string>>(output) ?? {};
  /** Whether python3 runs the parser and the helper in the container; without it the agent reads the runs itself (run-reading.ts). */
  let python = true;
  /** The runs read without python3, by name. */
  const runs = new Map<string, RunResults>();
  const readRun = (output: string, name: string) => {
    const run = readResults(output, name);
    if (run) runs.set(name, run);
    else runs.delete(name);
    return run;
  };
  const broken = (after: Record<string, string>) => Object.keys(original).filter((id) => original[id] === 'passed' && after[id] !== 'passed');

  /**
   * The candidates of every code file, at most CANDIDATES_PER_FILE a file (a
   * sample chosen by the seed where there are more), taking turns with the
   * rest of the process between files and between a file's edits.
   */
  const candidatesOf = async (strategy: 'removal' | 'direct', rng: Rng): Promise<{ candidates: Candidate[]; note?: string }> => {
    const found: Candidate[] = [];
    const sampled: string[] = [];
    for (const file of codeFiles) {
      await nextTurn();
      const source = text.get(file);
      if (source === undefined) continue;
      let changes = await (strategy === 'removal' ? rules.removals(file, source) : rules.mutations(file, source));
      if (changes.length > CANDIDATES_PER_FILE) {
        sampled.push(`${file} (${changes.length})`);
        changes = rng.shuffle(changes).slice(0, CANDIDATES_PER_FILE);
      }
      for (const [i, change] of changes.entries()) {
        if (i % 50 === 49) await nextTurn();
        const edits = editCalls(file, source, [change]);
        if (edits) found.push({ label: change.label, files: [file], edits, splice: { source, change } });
      }
    }
    const note = sampled.length > 0 ? `Some files hold more candidates than I would ever try; I take ${CANDIDATES_PER_FILE} of each at random: ${sampled.join(', ')}.` : undefined;
    return { candidates: found, note };
  };

  return {
    language: rules.name,
    get codeFiles() {
      return codeFiles;
    },
    get testFiles() {
      return testFiles;
    },
    async *prepare(ask) {
      const read = yield* ask(
        `This is a ${rules.name} repository. I will read its ${codeFiles.length} code file(s) and ${testCandidates.length} test file(s) to find functions, operators and tests.`,
        bash(readFilesCommand([...codeFiles, ...testCandidates, ...(rules === GO ? ['go.mod'] : ['package.json'])])),
      );
      for (const [path, content] of readFiles(read[0]!.output)) text.set(path, content);
      python = !read[0]!.output.split('\n').includes(NO_PYTHON);
      for (const file of codeFiles) {
        const why = skippedReason(file, text.get(file) ?? '');
        if (why) skipped.set(file, why);
      }
      codeFiles = codeFiles.filter((f) => !skipped.has(f));
      if (codeFiles.length === 0) return `${skippedSentence(skipped)} No code file is left, so I stop here.`;
      if (rules === TYPESCRIPT) {
        const script = (JSON.parse(text.get('package.json') ?? '{}') as { scripts?: { test?: string } }).scripts?.test ?? '';
        if (!/\bnode\b[^|&;]*--test\b/.test(script)) {
          return `package.json's test script is ${script ? `"${script}"` : 'missing'}; I can read only node's own test runner (node --test) offline, so I stop here.`;
        }
      }
      await loadGrammars();
      module = goModule(text.get('go.mod'));
      for (const file of testCandidates) {
        const source = text.get(file);
        const tests = source === undefined ? [] : rules.tests(file, source);
        if (tests.length === 0) continue;
        testFiles.push(file);
        const prefix = idPrefix(file);
        for (const t of tests) if (!declaredIn.has(prefix + t.name)) declaredIn.set(prefix + t.name, file);
      }
      testFiles = testFiles.sort();
      if (testFiles.length === 0) return `None of the ${testCandidates.length} test file(s) declares a test I can recognise, so I stop here.`;
      const found = [skippedSentence(skipped), `${testFiles.length} file(s) declare tests.`].filter(Boolean).join(' ');
      if (!python) {
        // The artifact needs its parser all the same: the checks run it where python3 is.
        yield* ask(`${found} There is no python3 here, so I will write the parser the artifact needs and read the runs' results myself.`, create(PARSER, readResource('parsers', rules.parser)));
        return undefined;
      }
      yield* ask(
        `${found} I will write a parser for the runner's output and a small helper that compares runs.`,
        create(PARSER, readResource('parsers', rules.parser)),
        create(HELPER, readResource('offline', 'agent_helper.py')),
      );
      return undefined;
    },
    runSuite: (name, limit) =>
      `${limit ? `timeout -s KILL ${limit} ` : ''}${rules.suite} > ${WORK}/${name}.log 2>&1${python ? `; python3 ${PARSER} < ${WORK}/${name}.log > ${WORK}/${name}.json` : ''}`,
    get showBaseline() {
      return `tail -n 3 ${WORK}/original.log; ${python ? `python3 ${HELPER} results ${WORK}/original.json` : showResults('original', rules.frames)}`;
    },
    baseline(output) {
      original = python ? results(output) : (readRun(output, 'original')?.results ?? {});
      const passingByFile: Record<string, number> = {};
      let passed = 0;
      for (const [id, status] of Object.entries(original)) {
        if (status !== 'passed') continue;
        passed++;
        const file = fileOf(id);
        if (file) passingByFile[file] = (passingByFile[file] ?? 0) + 1;
      }
      return { passed, passingByFile };
    },
    // The candidates come from the syntax trees of the files already read.
    async *candidates(strategy, _ask, rng) {
      return await candidatesOf(strategy, rng);
    },
    compare: (name) => (python ? compareCommand(name) : showResults(name, rules.frames)),
    compared(output) {
      if (python) return resultOf<Compared>(output);
      // The run's name is in the heading before its results.
      const name = /== the results in (\w+)\.log ==/.exec(output)?.[1];
      const run = name === undefined ? undefined : readRun(output, name);
      return run && compareRuns(original, run.results);
    },
    async *brokenFiles(ask) {
      if (python) {
        const seen = yield* ask('Which test files hold the broken tests?', bash(`python3 ${HELPER} results ${WORK}/buggy.json`));
        brokenByBug = broken(results(seen[0]!.output));
      } else {
        // The buggy run's results were read with its comparison.
        brokenByBug = broken(runs.get('buggy')?.results ?? {});
      }
      const counts: Record<string, number> = {};
      for (const id of brokenByBug) {
        const file = fileOf(id);
        if (file) counts[file] = (counts[file] ?? 0) + 1;
      }
      return counts;
    },
    script: (selected) => rules.script(selected),
    // The broken tests were read with the oracle files; they are deleted from those files, a file at a time.
    async *weaken(ask) {
      const byFile = new Map<string, Set<string>>();
      for (const id of brokenByBug) {
        const file = fileOf(id);
        if (!file) continue;
        const ids = byFile.get(file) ?? new Set<string>();
        byFile.set(file, ids.add(id));
      }
      const tests = new Map(testCandidates.flatMap((f) => (text.has(f) ? [[f, text.get(f)!] as const] : [])));
      const picks = new Map(
        [...byFile].map(([file, ids]) => {
          const prefix = idPrefix(file);
          return [file, (name: string) => [...ids].some((id) => id === prefix + name || id.startsWith(`${prefix}${name}/`))] as const;
        }),
      );
      const deletion = planDeletion(rules, tests, picks);
      if ('used' in deletion) {
        return `I cannot delete the tests that catch the bug: other code in the tests calls ${deletion.used.slice(0, 5).join('; ')}. Deleting them would break tests that do not see the bug, so I stop here.`;
      }
      const changed: string[] = [];
      for (const { file, source, doomed, spans, kept, tidy } of deletion.files) {
        const calls = editCalls(file, source, spans);
        const tidyCalls = editCalls(file, kept, tidy);
        if (!calls || !tidyCalls || spans.length === 0) continue;
        yield* ask(`Deleting ${doomed.join(', ')} from ${file}${tidy.length ? ', and the imports only they used' : ''}.`, ...calls, ...tidyCalls);
        changed.push(file);
      }
      return changed;
    },
  };
}
