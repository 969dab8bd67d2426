/**
 * The offline injector: a scripted agent that makes real bugs the way an agent
 * would, through bash and the editor. It finds the Python tests, writes a
 * parser and records the original results, then tries candidate changes one at
 * a time and keeps those that break a few tests without breaking the import:
 *   removal — empties function bodies;
 *   history — reverts the code side of past fix commits;
 *   direct  — flips comparisons, operators, constants and conditions.
 * It combines changes across files, picks the test files that see them, writes
 * the bug diff, deletes the tests that catch the bug, and submits.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isTestInfrastructure } from '../../bugs/test-infrastructure.js';
import { PACKAGE_ROOT } from '../../paths.js';
import type { Action, Observation, ScriptedAgent, ToolCall } from './offline-model.js';
import type { Rng } from './rng.js';

export type OfflineStrategy = 'removal' | 'history' | 'direct';
export const OFFLINE_STRATEGIES: OfflineStrategy[] = ['removal', 'history', 'direct'];

export interface InjectorOptions {
  strategy: OfflineStrategy;
  rng: Rng;
  minPassingTests: number;
  minChangedFiles: number;
  minFailingTests: number;
  testTimeoutSec: number;
  /** Candidate changes tried before giving up on finding more. */
  maxTrials?: number;
}

const WORK = '/tmp/bugbench_offline';
const OUT = '/tmp/artifact';
const HELPER = `${WORK}/helper.py`;
const PARSER = `${OUT}/test_parser.py`;
const PYTEST_ARGS = '-m pytest -rA -p no:cacheprovider';
/** How many candidates a listing returns at most. */
const LIST_LIMIT = 150;

/** What the helper's compare says: the count is exact, the list may be cut. */
interface Compared {
  broken_count: number;
  broken: string[];
  broken_files: Record<string, number>;
  missing: number;
}

/** One candidate change: how to make it in a bash command, and the code files it touches. */
interface Candidate {
  label: string;
  files: string[];
  apply: string;
}

interface Trial {
  candidate: Candidate;
  /** The broken tests (at most the first few dozen), for telling changes apart. */
  broken: string[];
  brokenCount: number;
}

const bash = (command: string, timeout?: number): ToolCall => ({ name: 'bash', input: timeout ? { command, timeout } : { command } });
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The JSON after "RESULT " in a helper's output, or undefined. */
export function resultOf<T>(output: string): T | undefined {
  const line = output.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) return undefined;
  try {
    return JSON.parse(line.slice('RESULT '.length)) as T;
  } catch {
    return undefined;
  }
}

/** Tests and test infrastructure, by the same rule as the test-files check, so no candidate bug touches them. */
export function isTestFile(path: string): boolean {
  return isTestInfrastructure(path);
}

function isCodeFile(path: string): boolean {
  return path.endsWith('.py') && !isTestFile(path) && !/(^|\/)(setup|noxfile|fabfile)\.py$/.test(path) && !/(^|\/)(docs?|examples?|scripts?|benchmarks?)\//.test(path);
}

function readResource(...parts: string[]): string {
  return readFileSync(join(PACKAGE_ROOT, 'data', ...parts), 'utf8');
}

/** True when every trial breaks at least one test that none of the others breaks. */
export function keepsEveryChangeNeeded(trials: { broken: string[] }[]): boolean {
  return trials.every((trial, i) => {
    const others = new Set(trials.flatMap((t, j) => (j === i ? [] : t.broken)));
    return trial.broken.some((id) => !others.has(id));
  });
}

export async function* offlineInjector(options: InjectorOptions): ScriptedAgent {
  const { rng } = options;
  const maxTrials = options.maxTrials ?? 16;
  const ask = async function* (thought: string, ...calls: ToolCall[]): AsyncGenerator<Action, Observation[], Observation[]> {
    return yield { thought, calls };
  };

  yield* ask('I will start with the layout of the repository and its recent history.', bash('ls && git log --oneline | head -n 15'));
  const listing = (yield* ask('Next, which Python files are tests and which are code.', bash("git ls-files '*.py'")))[0]!.output;
  const files = listing.split('\n').filter((l) => l.endsWith('.py'));
  const testFiles = files.filter(isTestFile).filter((f) => !f.endsWith('conftest.py') && !f.endsWith('__init__.py'));
  // Code is the modules of packages (folders with an __init__.py); loose scripts are not what tests cover.
  const packages = new Set(files.filter((f) => f.endsWith('__init__.py')).map((f) => f.replace(/\/?__init__\.py$/, '')));
  const inPackage = (f: string) => packages.has(f.includes('/') ? f.slice(0, f.lastIndexOf('/')) : '');
  const candidatesCode = files.filter(isCodeFile);
  const codeFiles = candidatesCode.some(inPackage) ? candidatesCode.filter(inPackage) : candidatesCode;
  if (testFiles.length === 0 || codeFiles.length === 0) {
    return `I found ${testFiles.length} test file(s) and ${codeFiles.length} code file(s); there is nothing I can work with here.`;
  }

  yield* ask(
    `There are ${testFiles.length} test files and ${codeFiles.length} code files. I will write a parser for pytest's -rA summary and a small helper for the edits I plan.`,
    { name: 'editor', input: { command: 'create', path: PARSER, file_text: readResource('parsers', 'pytest_parser.py') } },
    { name: 'editor', input: { command: 'create', path: HELPER, file_text: readResource('offline', 'agent_helper.py') } },
  );

  // A src/ layout is importable only with src on the path, as its tests would be run after an install.
  const srcLayout = codeFiles.some((f) => f.startsWith('src/'));
  const env = srcLayout ? 'PYTHONPATH=src${PYTHONPATH:+:$PYTHONPATH} ' : '';
  const PYTEST = `${env}python3 ${PYTEST_ARGS}`;
  const allTests = testFiles.map(q).join(' ');
  const runTests = (files: string, name: string, limit?: number) =>
    `${env}${limit ? `timeout -s KILL ${limit} ` : ''}python3 ${PYTEST_ARGS} ${files} > ${WORK}/${name}.log 2>&1; python3 ${PARSER} < ${WORK}/${name}.log > ${WORK}/${name}.json`;
  const baseline = yield* ask(
    'Now the whole suite on the untouched code, to know what passes.',
    bash(`mkdir -p ${WORK} && s=$(date +%s%N); ${runTests(allTests, 'original')}; echo "elapsed_ms $(( ($(date +%s%N) - s) / 1000000 ))"; tail -n 2 ${WORK}/original.log; python3 ${HELPER} summary ${WORK}/original.json`, options.testTimeoutSec * 2),
  );
  // A change can make the suite hang (an emptied loop step); trials get a few times the baseline's time.
  const elapsedMs = Number(/elapsed_ms (\d+)/.exec(baseline[0]!.output)?.[1] ?? 10_000);
  const trialLimit = Math.min(options.testTimeoutSec, Math.ceil((elapsedMs * 4) / 1000) + 10);
  const summary = resultOf<{ passed: number; passed_by_file: Record<string, number> }>(baseline[0]!.output);
  if (!summary || summary.passed < options.minPassingTests) {
    return `Only ${summary?.passed ?? 0} tests pass on the original code; at least ${options.minPassingTests} are needed, so I stop here.`;
  }
  const passingByFile = summary.passed_by_file;
  const maxBroken = Math.max(3, Math.floor(summary.passed * 0.35));
  // Long lists come back sampled, so a large repository still answers in one tool output.
  const sampling = `--limit ${LIST_LIMIT} --seed ${rng.int(1_000_000)}`;

  // Candidates, in an order chosen by the seed.
  let candidates: Candidate[] = [];
  if (options.strategy === 'removal') {
    const found = yield* ask('I will list the functions whose bodies could go.', bash(`python3 ${HELPER} functions ${sampling} ${codeFiles.map(q).join(' ')}`));
    const functions = resultOf<{ file: string; name: string; lines: number }[]>(found[0]!.output) ?? [];
    candidates = functions
      .filter((f) => f.lines >= 2)
      .map((f) => ({ label: `the body of ${f.name} in ${f.file}`, files: [f.file], apply: `python3 ${HELPER} blank ${q(f.file)} ${q(f.name)} > /dev/null` }));
  } else if (options.strategy === 'direct') {
    const found = yield* ask('I will list small behaviour changes: comparisons, operators, constants, conditions.', bash(`python3 ${HELPER} mutations ${sampling} ${codeFiles.map(q).join(' ')}`));
    const sites = resultOf<{ file: string; line: number; col: number; old: string; new: string; kind: string }[]>(found[0]!.output) ?? [];
    candidates = sites.map((m) => ({
      label: `${m.kind} ${JSON.stringify(m.old.trim())} → ${JSON.stringify(m.new.trim())} at ${m.file}:${m.line}`,
      files: [m.file],
      apply: `python3 ${HELPER} mutate ${q(m.file)} ${m.line} ${m.col} ${q(m.old)} ${q(m.new)} > /dev/null`,
    }));
  } else {
    const log = yield* ask(
      'The history may hold fixes worth undoing. I will list commits that mention fixes, with the files each touched.',
      bash(`for c in $(git log --no-merges --format=%H -n 80); do echo "commit $c $(git log -1 --format=%s $c)"; git show --name-only --format= $c; done`),
    );
    let current: { sha: string; subject: string; files: string[] } | undefined;
    const commits: { sha: string; subject: string; files: string[] }[] = [];
    for (const line of log[0]!.output.split('\n')) {
      const m = /^commit ([0-9a-f]{40}) (.*)$/.exec(line);
      if (m) commits.push((current = { sha: m[1]!, subject: m[2]!, files: [] }));
      else if (current && line.trim() && !line.startsWith('[exit code')) current.files.push(line.trim());
    }
    // Fixes first (their reversal is a known bug), then other changes to the code.
    const isFix = (subject: string) => /\b(fix|fixe[sd]|bug|crash|regress|wrong|incorrect|broken)/i.test(subject);
    const touching = commits.map((c) => ({ ...c, code: c.files.filter((f) => codeFiles.includes(f)) })).filter((c) => c.code.length > 0);
    candidates = [...rng.shuffle(touching.filter((c) => isFix(c.subject))), ...rng.shuffle(touching.filter((c) => !isFix(c.subject)))]
      .map((c) => ({
        label: `undoing ${c.sha.slice(0, 10)} "${c.subject}" in ${c.code.join(', ')}`,
        files: c.code,
        apply: `git show ${c.sha} -- ${c.code.map(q).join(' ')} | git apply -R`,
      }));
  }
  if (candidates.length === 0) return `I found no ${options.strategy} candidates in the code files, so I stop here.`;

  // Try candidates one at a time, round-robin over files so the bug spreads out.
  const byFile = new Map<string, Candidate[]>();
  for (const c of options.strategy === 'history' ? candidates : rng.shuffle(candidates)) {
    const key = c.files.join(',');
    byFile.set(key, [...(byFile.get(key) ?? []), c]);
  }
  const order: Candidate[] = [];
  for (let round = 0; order.length < candidates.length; round++) {
    for (const list of byFile.values()) if (list[round]) order.push(list[round]!);
  }
  const distinctFiles = new Set(candidates.flatMap((c) => c.files)).size;
  const target = Math.min(distinctFiles, Math.max(options.minChangedFiles, 2 + rng.int(2)));
  const chosen: Trial[] = [];
  const tooBroad: Trial[] = [];
  const usedFiles = new Set<string>();
  let trials = 0;
  for (const candidate of order) {
    if (usedFiles.size >= target || trials >= maxTrials) break;
    if (candidate.files.some((f) => usedFiles.has(f))) continue;
    trials++;
    const files = candidate.files.map(q).join(' ');
    const outcome = yield* ask(
      `Trying ${candidate.label}.`,
      bash(`(${candidate.apply}) && ${runTests(allTests, 'trial', trialLimit)}; python3 ${HELPER} compare ${WORK}/original.json ${WORK}/trial.json; git checkout -q -- ${files}`, trialLimit + 30),
    );
    const compared = resultOf<Compared>(outcome[0]!.output);
    if (!compared || compared.missing > 0 || compared.broken_count === 0) continue;
    if (compared.broken_count > maxBroken) {
      tooBroad.push({ candidate, broken: compared.broken, brokenCount: compared.broken_count });
      continue;
    }
    // Each kept change must break something no other kept change breaks, or undoing it alone would fix nothing.
    const trial = { candidate, broken: compared.broken, brokenCount: compared.broken_count };
    if (!keepsEveryChangeNeeded([...chosen, trial])) continue;
    chosen.push(trial);
    for (const f of candidate.files) usedFiles.add(f);
  }
  // With a coarse test suite every change breaks much of it; then take the narrowest one found.
  if (chosen.length === 0 && tooBroad.length > 0) {
    const narrowest = tooBroad.sort((a, b) => a.brokenCount - b.brokenCount)[0]!;
    chosen.push(narrowest);
    for (const f of narrowest.candidate.files) usedFiles.add(f);
  }
  if (usedFiles.size < options.minChangedFiles || chosen.length === 0) {
    return `After ${trials} ${trials === 1 ? 'try' : 'tries'} I have changes in ${usedFiles.size} file(s), fewer than the ${options.minChangedFiles} needed, so I stop here.`;
  }

  // Put the chosen changes together and see what breaks.
  const changed = [...usedFiles];
  const combined = yield* ask(
    `Keeping ${chosen.length} change(s) in ${changed.join(', ')}. Applying them together.`,
    bash(`${chosen.map((t) => `(${t.candidate.apply})`).join(' && ')} && ${runTests(allTests, 'buggy', trialLimit)}; tail -n 2 ${WORK}/buggy.log; python3 ${HELPER} compare ${WORK}/original.json ${WORK}/buggy.json`, trialLimit + 30),
  );
  const buggy = resultOf<Compared>(combined[0]!.output);
  if (!buggy || buggy.broken_count < options.minFailingTests) {
    return `Together the changes break ${buggy?.broken_count ?? 0} test(s); ${options.minFailingTests} are needed, so I stop here.`;
  }

  // The oracle tests: files with a broken test, then more until enough pass.
  const selected = Object.keys(buggy.broken_files);
  const passingIn = (set: string[]) => set.reduce((sum, file) => sum + (passingByFile[file] ?? 0), 0);
  for (const file of rng.shuffle(testFiles.filter((f) => !selected.includes(f)))) {
    if (passingIn(selected) >= options.minPassingTests) break;
    selected.push(file);
  }
  const script = `#!/bin/bash\n# Runs the selected tests with one result line per test.\n${PYTEST} ${selected.join(' ')}\n`;
  yield* ask(
    `${buggy.broken_count} test(s) break. The oracle tests are ${selected.join(', ')}; writing the test script and the list.`,
    { name: 'editor', input: { command: 'create', path: `${OUT}/test_script.sh`, file_text: script } },
    { name: 'editor', input: { command: 'create', path: `${OUT}/test_files.txt`, file_text: `${selected.join('\n')}\n` } },
  );
  yield* ask(
    'Saving the code change as the bug patch, before touching any test.',
    bash(`git add -A -- ${changed.map(q).join(' ')} && git diff --cached -- ${changed.map(q).join(' ')} > ${OUT}/bug_inject.diff; git reset -q; git diff --stat -- ${changed.map(q).join(' ')}`),
  );

  // Hide the bug: delete the tests that catch it.
  const dropped = yield* ask(
    `Now the tests: deleting the ${buggy.broken_count} test(s) that would give the bug away.`,
    bash(`python3 ${HELPER} drop-broken ${WORK}/original.json ${WORK}/buggy.json`),
  );
  const weakenedFiles = Object.keys(resultOf<{ files: Record<string, number> }>(dropped[0]!.output)?.files ?? buggy.broken_files);
  yield* ask(
    'Checking the weakened suite with the bug in place.',
    bash(`timeout -s KILL ${trialLimit} bash ${OUT}/test_script.sh > ${WORK}/weakened.log 2>&1; tail -n 2 ${WORK}/weakened.log; git diff -- ${weakenedFiles.map(q).join(' ')} > ${OUT}/test_weaken.diff; git diff --stat -- ${weakenedFiles.map(q).join(' ')}`, trialLimit + 30),
  );
  const submitted = yield* ask('Everything is in place; submitting the artifact.', {
    name: 'submit',
    input: {
      test_files: `${OUT}/test_files.txt`,
      test_script: `${OUT}/test_script.sh`,
      test_parser: PARSER,
      bug_inject: `${OUT}/bug_inject.diff`,
      test_weaken: `${OUT}/test_weaken.diff`,
    },
  });
  return submitted[0]?.isError ? `The submission was refused: ${submitted[0].output}` : 'Submitted.';
}
