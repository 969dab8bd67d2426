/**
 * The offline injector in Python: pytest with its -rA summary, read by the
 * bundled parser; candidates found by a helper the agent writes into the
 * container, which reads the code with Python's own ast module.
 */
import { isTestInfrastructure } from '../../bugs/test-infrastructure.js';
import { skippedByPath, skippedSentence } from './generated.js';
import { bash, compareCommand, create, HELPER, LIST_LIMIT, PARSER, q, readResource, resultOf, WORK, type Candidate, type Compared, type Kit } from './kit.js';

// Python's own tracebacks (--tb=native) keep each failure's exception for the bug report at about half the processor
// time of pytest's own (0.60 -> 0.29 s for a knotcfg bug with 50 failing tests; SWE-bench's harness prints none, --tb=no: 0.25 s).
const PYTEST_ARGS = '-m pytest -rA --tb=native -p no:cacheprovider';

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
      return undefined;
    },
    runSuite: (name, limit) =>
      `${bytecode}${env}${limit ? `timeout -s KILL ${limit} ` : ''}python3 ${PYTEST_ARGS} ${allTests} > ${WORK}/${name}.log 2>&1; python3 ${PARSER} < ${WORK}/${name}.log > ${WORK}/${name}.json`,
    showBaseline: `tail -n 2 ${WORK}/original.log; python3 ${HELPER} summary ${WORK}/original.json`,
    baseline(output) {
      const summary = resultOf<{ passed: number; passed_by_file: Record<string, number> }>(output);
      return summary && { passed: summary.passed, passingByFile: summary.passed_by_file };
    },
    compare: (name) => compareCommand(name),
    compared: (output) => resultOf<Compared>(output),
    async *candidates(strategy, ask, rng) {
      // Long lists come back sampled, so a large repository still answers in one tool output.
      const sampling = `--limit ${LIST_LIMIT} --seed ${rng.int(1_000_000)}`;
      if (strategy === 'removal') {
        const found = yield* ask('I will list the functions whose bodies could go.', bash(`python3 ${HELPER} functions ${sampling} ${codeArgs}`));
        const functions = resultOf<{ file: string; name: string; lines: number }[]>(found[0]!.output) ?? [];
        return {
          candidates: functions
            .filter((f) => f.lines >= 2)
            .map((f): Candidate => ({ label: `the body of ${f.name} in ${f.file}`, files: [f.file], apply: `python3 ${HELPER} blank ${q(f.file)} ${q(f.name)} > /dev/null` })),
        };
      }
      const found = yield* ask('I will list small behaviour changes: comparisons, operators, constants, conditions.', bash(`python3 ${HELPER} mutations ${sampling} ${codeArgs}`));
      const sites = resultOf<{ file: string; line: number; col: number; old: string; new: string; kind: string }[]>(found[0]!.output) ?? [];
      return {
        candidates: sites.map((m): Candidate => ({
          label: `${m.kind} ${JSON.stringify(m.old.trim())} → ${JSON.stringify(m.new.trim())} at ${m.file}:${m.line}`,
          files: [m.file],
          apply: `python3 ${HELPER} mutate ${q(m.file)} ${m.line} ${m.col} ${q(m.old)} ${q(m.new)} > /dev/null`,
        })),
      };
    },
    // The helper reads pytest's ids, which name their file.
    async *brokenFiles(_ask, compared: Compared) {
      return compared.broken_files;
    },
    script: (selected) => `#!/bin/bash\n# Runs the selected tests with one result line per test.\n${env}python3 ${PYTEST_ARGS} ${selected.join(' ')}\n`,
    async *weaken(ask, compared) {
      const dropped = yield* ask(
        `Now the tests: deleting the ${compared.broken_count} test(s) that would give the bug away, unless other tests use one of them.`,
        bash(`python3 ${HELPER} drop-broken ${WORK}/original.json ${WORK}/buggy.json ${allTests}`),
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
