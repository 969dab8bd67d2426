/**
 * The offline injector in Python: pytest with its -rA summary, read by the
 * bundled parser; candidates found by a helper the agent writes into the
 * container, which reads the code with Python's own ast module.
 */
import { isTestInfrastructure } from '../../bugs/test-infrastructure.js';
import { skippedByPath, skippedSentence } from './generated.js';
import { bash, create, HELPER, LIST_LIMIT, PARSER, q, readResource, resultOf, WORK, type Candidate, type Compared, type Kit } from './kit.js';
import { HELPER_CLIENT, helperClientScript, RUNNER, runnerScript, SERVER, startServer } from './server.js';

/** The helper, through the server once it runs (server.ts). */
const helper = `bash ${HELPER_CLIENT}`;

// Python's own tracebacks (--tb=native) keep each failure's exception for the bug report at about half the processor
// time of pytest's own (0.60 -> 0.29 s for a knotcfg bug with 50 failing tests; SWE-bench's harness prints none, --tb=no: 0.25 s).
const PYTEST_FLAGS = '-rA --tb=native -p no:cacheprovider';
const PYTEST_ARGS = `-m pytest ${PYTEST_FLAGS}`;

/**
 * Bash that compiles the code files with checked hashes and says whether the
 * runs may then keep bytecode. Sandboxes set PYTHONDONTWRITEBYTECODE, so each
 * of a rollout's half-dozen runs compiled the repository again (a fifth of a
 * knotcfg run). Python trusts a cached compilation by its source's time in
 * whole seconds and size, and a trial rewrites a code file and puts it back
 * within a second, often at the same size (`<` made `>`); a checked hash is
 * compared with the source itself on every import, and a file compiled again
 * keeps that kind. Test files and the rest of the tree no run changes. A
 * Python older than 3.7 (no hashed bytecode) keeps writing none.
 */
function compileCode(codeArgs: string): string {
  return `if printf '%s\n' ${codeArgs} | python3 -m compileall -q --invalidation-mode checked-hash -i - > /dev/null 2>&1; then echo 'bytecode: kept'; else echo 'bytecode: off'; fi`;
}

/**
 * The test file whose broken tests the weakening leaves failing: of two or more
 * files with broken tests, the one with the fewest (the first by name on a tie).
 * A weakening need not hide every failure (Self-play SWE-RL's history prompt
 * says so); the checks' weakened run then sees those tests fail as the buggy
 * state has them, one of the five looks at the bug its determinism evidence
 * needs, so one rerun fewer. Undefined when one file holds them all.
 */
export function sparedFile(brokenFiles: Record<string, number>): string | undefined {
  const files = Object.entries(brokenFiles).sort(([a, m], [b, n]) => m - n || a.localeCompare(b));
  return files.length >= 2 ? files[0]![0] : undefined;
}

function isCodeFile(path: string): boolean {
  return path.endsWith('.py') && !isTestInfrastructure(path) && !/(^|\/)(setup|noxfile|fabfile)\.py$/.test(path) && !/(^|\/)(docs?|examples?|scripts?|benchmarks?)\//.test(path);
}

/** The Python kit for a repository whose tracked files are `files`, or why there is nothing to work with. */
export function pythonKit(files: string[]): Kit | string {
  const python = files.filter((f) => f.endsWith('.py'));
  const testFiles = python.filter(isTestInfrastructure).filter((f) => !f.endsWith('conftest.py') && !f.endsWith('__init__.py'));
  // Code is the modules of packages (folders with an __init__.py); loose scripts are not what tests cover.
  const packages = new Set(python.filter((f) => f.endsWith('__init__.py')).map((f) => f.replace(/\/?__init__\.py$/, '')));
  const inPackage = (f: string) => packages.has(f.includes('/') ? f.slice(0, f.lastIndexOf('/')) : '');
  const skipped = new Map<string, string>();
  for (const file of python.filter(isCodeFile)) {
    const why = skippedByPath(file);
    if (why) skipped.set(file, why);
  }
  const candidatesCode = python.filter((f) => isCodeFile(f) && !skipped.has(f));
  const codeFiles = candidatesCode.some(inPackage) ? candidatesCode.filter(inPackage) : candidatesCode;
  if (testFiles.length === 0 || codeFiles.length === 0) {
    return `I found ${testFiles.length} Python test file(s) and ${codeFiles.length} code file(s); there is nothing I can work with here.`;
  }
  // A src/ layout is importable only with src on the path, as its tests would be run after an install.
  const env = codeFiles.some((f) => f.startsWith('src/')) ? 'PYTHONPATH=src${PYTHONPATH:+:$PYTHONPATH} ' : '';
  const allTests = testFiles.map(q).join(' ');
  const codeArgs = codeFiles.map(q).join(' ');
  let bytecode = '';

  return {
    language: 'Python',
    testFiles,
    codeFiles,
    async *prepare(ask) {
      yield* ask(
        `There are ${testFiles.length} test files and ${codeFiles.length} code files.${skipped.size > 0 ? ` ${skippedSentence(skipped)}` : ''} I will write a parser for pytest's -rA summary and a small helper for the edits I plan.`,
        create(PARSER, readResource('parsers', 'pytest_parser.py')),
        create(HELPER, readResource('offline', 'agent_helper.py')),
      );
      const compiled = yield* ask('My runs will change code files and put them back within a second: I compile the code with checked hashes, so each run may keep what it compiles.', bash(compileCode(codeArgs), 300));
      if (compiled[0]!.output.includes('bytecode: kept')) bytecode = 'PYTHONDONTWRITEBYTECODE= ';
      const run = { env: `${bytecode}${env}`, args: `${PYTEST_FLAGS} ${allTests}` };
      yield* ask(
        'Importing pytest is half of each run of a suite this size, and starting Python most of a helper call, so a small server of mine imports both once and forks a fresh process for each; the two scripts that ask it do the work themselves when it is not up.',
        create(SERVER, readResource('offline', 'server.py')),
        create(RUNNER, runnerScript(run)),
        create(HELPER_CLIENT, helperClientScript()),
        bash(startServer(run)),
      );
      return undefined;
    },
    runSuite: (name, limit) => `bash ${RUNNER} ${name} ${limit ?? 0}`,
    showBaseline: `tail -n 2 ${WORK}/original.log; ${helper} summary ${WORK}/original.json`,
    baseline(output) {
      const summary = resultOf<{ passed: number; passed_by_file: Record<string, number> }>(output);
      return summary && { passed: summary.passed, passingByFile: summary.passed_by_file };
    },
    compare: (name) => `${helper} compare ${WORK}/original.json ${WORK}/${name}.json`,
    compared: (output) => resultOf<Compared>(output),
    async *candidates(strategy, ask, rng) {
      // Long lists come back sampled, so a large repository still answers in one tool output.
      const sampling = `--limit ${LIST_LIMIT} --seed ${rng.int(1_000_000)}`;
      if (strategy === 'removal') {
        const found = yield* ask('I will list the functions whose bodies could go.', bash(`${helper} functions ${sampling} ${codeArgs}`));
        const functions = resultOf<{ file: string; name: string; lines: number }[]>(found[0]!.output) ?? [];
        return {
          candidates: functions
            .filter((f) => f.lines >= 2)
            .map((f): Candidate => ({ label: `the body of ${f.name} in ${f.file}`, files: [f.file], apply: `${helper} blank ${q(f.file)} ${q(f.name)} > /dev/null` })),
        };
      }
      const found = yield* ask('I will list small behaviour changes: comparisons, operators, constants, conditions.', bash(`${helper} mutations ${sampling} ${codeArgs}`));
      const sites = resultOf<{ file: string; line: number; col: number; old: string; new: string; kind: string }[]>(found[0]!.output) ?? [];
      return {
        candidates: sites.map((m): Candidate => ({
          label: `${m.kind} ${JSON.stringify(m.old.trim())} → ${JSON.stringify(m.new.trim())} at ${m.file}:${m.line}`,
          files: [m.file],
          apply: `${helper} mutate ${q(m.file)} ${m.line} ${m.col} ${q(m.old)} ${q(m.new)} > /dev/null`,
        })),
      };
    },
    // The helper reads pytest's ids, which name their file.
    async *brokenFiles(_ask, compared: Compared) {
      return compared.broken_files;
    },
    script: (selected) => `#!/bin/bash\n# Runs the selected tests with one result line per test.\n${env}python3 ${PYTEST_ARGS} ${selected.join(' ')}\n`,
    async *weaken(ask, compared) {
      const spare = sparedFile(compared.broken_files);
      const hidden = compared.broken_count - (spare ? compared.broken_files[spare]! : 0);
      const leaving = spare
        ? ` and leaving the ${compared.broken_files[spare]} in ${spare} to fail, so the suite still shows part of the bug (its failures there also show the checks that the bug repeats),`
        : ',';
      const dropped = yield* ask(
        `Now the tests: deleting the ${hidden} test(s) that would give the bug away${leaving} unless other tests use one of them.`,
        bash(`${helper} drop-broken ${WORK}/original.json ${WORK}/buggy.json ${spare ? `--spare ${q(spare)} ` : ''}${allTests}`),
      );
      const outcome = resultOf<{ files: Record<string, number>; used?: Record<string, string[]> }>(dropped[0]!.output);
      const used = Object.entries(outcome?.used ?? {});
      if (used.length > 0) {
        const uses = used.map(([name, places]) => `${name} (used at ${places.join(', ')})`).join('; ');
        return `I cannot delete the tests that catch the bug: other code in the tests calls ${uses}. Deleting them would break tests that do not see the bug, so I stop here.`;
      }
      return Object.keys(outcome?.files ?? compared.broken_files);
    },
  };
}
