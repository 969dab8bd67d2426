/**
 * The offline injector: a scripted agent that makes real bugs the way an agent
 * would, through bash and the editor, in Python, Go and TypeScript (or
 * JavaScript run by node's test runner). It finds the tests, writes a parser
 * and records the original results, then tries candidate changes one at a
 * time and keeps those that break a few tests without breaking the build:
 *   removal — empties function bodies (returning the zero value where the
 *             language needs one);
 *   history — reverts the code side of past fix commits;
 *   direct  — flips comparisons, operators, constants and conditions.
 * It combines changes across files, picks the test files that see them, writes
 * the bug diff, deletes the tests that catch the bug, and submits. What
 * differs between languages is in a kit (python-kit.ts, syntax-kit.ts).
 */
import { isTestInfrastructure } from '../../bugs/test-infrastructure.js';
import { editCalls } from './editor-edits.js';
import { bash, create, OUT, q, WORK, type Ask, type Candidate, type CandidateList, type Compared, type OfflineStrategy } from './kit.js';
import type { Action, Observation, ScriptedAgent, ToolCall } from './offline-model.js';
import { pythonKit } from './python-kit.js';
import type { Rng } from './rng.js';
import { syntaxKit } from './syntax-kit.js';

export { OFFLINE_STRATEGIES, resultOf, type OfflineStrategy } from './kit.js';

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

interface Trial {
  candidate: Candidate;
  /** The broken tests (at most the first few dozen), for telling changes apart. */
  broken: string[];
  brokenCount: number;
}

/** Tests and test infrastructure, by the same rule as the test-files check, so no candidate bug touches them. */
export function isTestFile(path: string): boolean {
  return isTestInfrastructure(path);
}

/** True when every trial breaks at least one test that none of the others breaks. */
export function keepsEveryChangeNeeded(trials: { broken: string[] }[]): boolean {
  return trials.every((trial, i) => {
    const others = new Set(trials.flatMap((t, j) => (j === i ? [] : t.broken)));
    return trial.broken.some((id) => !others.has(id));
  });
}

/** Lines of the original run's log shown when too few tests pass. */
const LOG_TAIL_LINES = 15;

/** The end of a log, as a tool showed it, indented for a closing remark (lines cut at 300 characters). */
function logTail(output: string): string {
  const lines = output.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('[exit code'));
  if (lines.length === 0) return '    (the log is empty)';
  return lines.map((l) => `    ${l.length > 300 ? `${l.slice(0, 299)}…` : l}`).join('\n');
}

/** Why no weakening could be written: none of the broken tests was found in a test file. */
function noWeakening(buggy: Compared): string {
  const shown = buggy.broken.slice(0, 3).map((id) => JSON.stringify(id));
  const more = buggy.broken_count > shown.length ? ` and ${buggy.broken_count - shown.length} more` : '';
  return (
    `I found none of the ${buggy.broken_count} broken test(s) (${shown.join(', ')}${more}) among the tests the test files declare (their names may be built when the tests run, ` +
    "as in a loop), so I could delete nothing; a weakening of no file would be the bug's own change, so I stop here."
  );
}

/** The calls that make a candidate change and then run `then` (after its bash part, if any, succeeded). */
function making(candidate: Candidate, then: string, timeout?: number): ToolCall[] {
  return [...(candidate.edits ?? []), bash(candidate.apply ? `(${candidate.apply}) && ${then}` : then, timeout)];
}

/**
 * A suite whose original run took at most this long is the oracle whole: a
 * check then runs it about eight times, and the checks run the original code
 * once for every bug of the image (their cache is keyed by the test script and
 * files, which no longer differ from bug to bug). A knotcfg run of all nine test
 * files costs 1.17 times one of the five a bug picked, and two of its ten runs
 * are then shared.
 */
const WHOLE_SUITE_MS = 10_000;

/** Lines of context `git diff` shows around a change: changes further apart than twice this are separate hunks. */
const CONTEXT_LINES = 3;

/** Whether two changes of one file are far enough apart to be made together and show as two hunks. */
function apart(a: Candidate, b: Candidate): boolean {
  if (!a.splice || !b.splice || a.splice.source !== b.splice.source) return false;
  const source = a.splice.source;
  const [first, second] = a.splice.change.start < b.splice.change.start ? [a.splice.change, b.splice.change] : [b.splice.change, a.splice.change];
  // The lines between them, counted in the gap only (not from the top of the file, which is long in a large file).
  let between = 0;
  for (let at = source.indexOf('\n', first.end); at >= 0 && at < second.start; at = source.indexOf('\n', at + 1)) between++;
  return between > 2 * CONTEXT_LINES;
}

/**
 * The candidates in the order they are tried: round-robin over the files they
 * touch (the first of each file, then the second of each...), so the bug
 * spreads out. Linear in the number of candidates.
 */
export function roundRobin(candidates: Candidate[]): Candidate[] {
  const byFile = new Map<string, Candidate[]>();
  for (const c of candidates) {
    const key = c.files.join(',');
    const list = byFile.get(key);
    if (list) list.push(c);
    else byFile.set(key, [c]);
  }
  const lists = [...byFile.values()];
  const order: Candidate[] = [];
  for (let round = 0; order.length < candidates.length; round++) {
    for (const list of lists) if (round < list.length) order.push(list[round]!);
  }
  return order;
}

/** The calls that make several chosen changes: two changes of one file become one sequence of edits of that file. */
function makingAll(candidates: Candidate[]): ToolCall[] {
  const calls: ToolCall[] = [];
  const done = new Set<Candidate>();
  for (const candidate of candidates) {
    if (done.has(candidate)) continue;
    const sameFile = candidate.splice ? candidates.filter((c) => c.splice && c.splice.source === candidate.splice!.source && c.files[0] === candidate.files[0]) : [candidate];
    sameFile.forEach((c) => done.add(c));
    const together = sameFile.length > 1 ? editCalls(candidate.files[0]!, candidate.splice!.source, sameFile.map((c) => c.splice!.change)) : undefined;
    calls.push(...(together ?? sameFile.flatMap((c) => c.edits ?? [])));
  }
  return calls;
}

/** History candidates: the code side of past commits, fixes first (their reversal is a known bug). */
async function* historyCandidates(ask: Ask, codeFiles: string[], rng: Rng): AsyncGenerator<Action, CandidateList, Observation[]> {
  const log = yield* ask(
    'The history may hold fixes worth undoing. I will list commits that mention fixes, with the files each touched.',
    bash(`git log --no-merges --name-only --format='commit %H %s' -n 80; echo "shallow: $(git rev-parse --is-shallow-repository)"`),
  );
  // A shallow clone (R2E-Gym's and SWE-Gym's images often are) has few past commits to undo.
  const shallow = /^shallow: true$/m.test(log[0]!.output);
  let current: { sha: string; subject: string; files: string[] } | undefined;
  const commits: { sha: string; subject: string; files: string[] }[] = [];
  for (const line of log[0]!.output.split('\n')) {
    const m = /^commit ([0-9a-f]{40}) (.*)$/.exec(line);
    if (m) commits.push((current = { sha: m[1]!, subject: m[2]!, files: [] }));
    else if (current && line.trim() && !line.startsWith('[exit code') && !line.startsWith('shallow: ')) current.files.push(line.trim());
  }
  const isFix = (subject: string) => /\b(fix|fixe[sd]|bug|crash|regress|wrong|incorrect|broken)/i.test(subject);
  const code = new Set(codeFiles);
  const touching = commits.map((c) => ({ ...c, code: c.files.filter((f) => code.has(f)) })).filter((c) => c.code.length > 0);
  const candidates = [...rng.shuffle(touching.filter((c) => isFix(c.subject))), ...rng.shuffle(touching.filter((c) => !isFix(c.subject)))].map((c) => ({
    label: `undoing ${c.sha.slice(0, 10)} "${c.subject}" in ${c.code.join(', ')}`,
    files: c.code,
    apply: `git show ${c.sha} -- ${c.code.map(q).join(' ')} | git apply -R`,
  }));
  const note = shallow ? `The repository is a shallow clone: its history holds ${commits.length} commit(s), so there are few fixes to undo.` : undefined;
  return { candidates, ...(note ? { note } : {}) };
}

export async function* offlineInjector(options: InjectorOptions): ScriptedAgent {
  const { rng } = options;
  const maxTrials = options.maxTrials ?? 16;
  const ask: Ask = async function* (thought, ...calls) {
    return yield { thought, calls };
  };

  yield* ask('I will start with the layout of the repository and its recent history.', bash('ls && git log --oneline | head -n 15'));
  const listing = (yield* ask('Next, which files are tests and which are code.', bash('git ls-files')))[0]!.output;
  const files = listing.split('\n').filter((l) => l !== '' && !l.startsWith('[exit code'));
  // A Go module or a node package first; a repository that also holds Python tests falls back to them.
  const kits = [syntaxKit(files), pythonKit(files)].filter((k) => k !== undefined);
  const kit = kits.find((k) => typeof k !== 'string') ?? kits.join(' ');
  if (typeof kit === 'string') return kit;
  const stop = yield* kit.prepare(ask);
  if (stop) return stop;

  const baseline = yield* ask(
    'Now the whole suite on the untouched code, to know what passes.',
    bash(`mkdir -p ${WORK} && s=$(date +%s%N); ${kit.runSuite('original')}; echo "elapsed_ms $(( ($(date +%s%N) - s) / 1000000 ))"; ${kit.showBaseline}`, options.testTimeoutSec * 2),
  );
  // A change can make the suite hang (an emptied loop step); trials get a few times the baseline's time.
  const elapsed = /elapsed_ms (\d+)/.exec(baseline[0]!.output)?.[1];
  const elapsedMs = Number(elapsed ?? 10_000);
  const trialLimit = Math.min(options.testTimeoutSec, Math.ceil((elapsedMs * 4) / 1000) + 10);
  const summary = kit.baseline(baseline[0]!.output);
  if (!summary || summary.passed < options.minPassingTests) {
    // Most often the test files crash on load (a Node older than package.json's engines field asks for): show it.
    const passed = summary?.passed ?? 0;
    const log = yield* ask(`Only ${passed} test(s) pass on the original code. The end of its log says why.`, bash(`tail -n ${LOG_TAIL_LINES} ${WORK}/original.log`));
    return `Only ${passed} test(s) pass on the original code; at least ${options.minPassingTests} are needed, so I stop here. The original run ended with:\n${logTail(log[0]!.output)}`;
  }
  const maxBroken = Math.max(3, Math.floor(summary.passed * 0.35));

  // Candidates, in an order chosen by the seed.
  const { candidates, note } = options.strategy === 'history' ? yield* historyCandidates(ask, kit.codeFiles, rng) : yield* kit.candidates(options.strategy, ask, rng);
  if (candidates.length === 0) return `${note ? `${note} ` : ''}I found no ${options.strategy} candidates in the code files, so I stop here.`;
  // A bug takes its files from the candidates: with fewer files than needed, no number of tries would do.
  const distinctFiles = new Set(candidates.flatMap((c) => c.files)).size;
  if (distinctFiles < options.minChangedFiles) {
    return `${note ? `${note} ` : ''}My ${options.strategy} candidates are in ${distinctFiles} code file(s), fewer than the ${options.minChangedFiles} needed, so I stop here without trying them.`;
  }

  // Try candidates one at a time, round-robin over files so the bug spreads out.
  const order = roundRobin(options.strategy === 'history' ? candidates : rng.shuffle(candidates));
  const target = Math.min(distinctFiles, Math.max(options.minChangedFiles, 2 + rng.int(2)));
  const chosen: Trial[] = [];
  const tooBroad: Trial[] = [];
  const usedFiles = new Set<string>();
  let trials = 0;
  const tried = new Set<Candidate>();
  /** Tries one change on the untouched code: the trial if it is worth keeping beside those chosen, else undefined. */
  const attempt = async function* (candidate: Candidate, thought: string): AsyncGenerator<Action, Trial | undefined, Observation[]> {
    trials++;
    tried.add(candidate);
    const files = candidate.files.map(q).join(' ');
    const outcome = yield* ask(thought, ...making(candidate, `${kit.runSuite('trial', trialLimit)}; ${kit.compare('trial')}; git checkout -q -- ${files}`, trialLimit + 30));
    const compared = kit.compared(outcome.at(-1)!.output);
    if (!compared || compared.missing > 0 || compared.broken_count === 0) return undefined;
    const trial = { candidate, broken: compared.broken, brokenCount: compared.broken_count };
    if (compared.broken_count > maxBroken) {
      tooBroad.push(trial);
      return undefined;
    }
    // Each kept change must break something no other kept change breaks, or undoing it alone would fix nothing.
    return keepsEveryChangeNeeded([...chosen, trial]) ? trial : undefined;
  };
  let said = note === undefined;
  for (const candidate of order) {
    if (usedFiles.size >= target || trials >= maxTrials) break;
    if (candidate.files.some((f) => usedFiles.has(f))) continue;
    const trial = yield* attempt(candidate, `${said ? '' : `${note} `}Trying ${candidate.label}.`);
    said = true;
    if (!trial) continue;
    chosen.push(trial);
    for (const f of candidate.files) usedFiles.add(f);
  }
  // Where changes are made in syntax trees, one file may take a second change far from the first: a bug in two places of it.
  const seconds = order.filter((c) => !tried.has(c) && c.splice && chosen.some((t) => t.candidate.files[0] === c.files[0]) && chosen.every((t) => t.candidate.files[0] !== c.files[0] || apart(t.candidate, c)));
  for (const [i, candidate] of seconds.entries()) {
    if (i >= 4 || chosen.length === 0) break;
    const trial = yield* attempt(candidate, `A second change in ${candidate.files[0]} would make the bug harder to pin down. Trying ${candidate.label}.`);
    if (!trial) continue;
    chosen.push(trial);
    break;
  }
  // With a coarse test suite every change breaks much of it; then take the narrowest one found.
  if (chosen.length === 0 && tooBroad.length > 0) {
    const narrowest = tooBroad.sort((a, b) => a.brokenCount - b.brokenCount)[0]!;
    chosen.push(narrowest);
    for (const f of narrowest.candidate.files) usedFiles.add(f);
  }
  if (usedFiles.size < options.minChangedFiles || chosen.length === 0) {
    return `After ${trials} ${trials === 1 ? 'try' : 'tries'} I have changes in ${usedFiles.size} file(s), fewer than the ${options.minChangedFiles} needed, so I stop here.${note ? ` ${note}` : ''}`;
  }

  // Put the chosen changes together and see what breaks.
  const changed = [...usedFiles];
  const applies = chosen.flatMap((t) => (t.candidate.apply ? [`(${t.candidate.apply})`] : []));
  const combined = yield* ask(
    `Keeping ${chosen.length} change(s) in ${changed.join(', ')}. Applying them together.`,
    ...makingAll(chosen.map((t) => t.candidate)),
    bash(`${[...applies, ''].join(' && ')}${kit.runSuite('buggy', trialLimit)}; tail -n 2 ${WORK}/buggy.log; ${kit.compare('buggy')}`, trialLimit + 30),
  );
  const buggy = kit.compared(combined.at(-1)!.output);
  if (!buggy || buggy.broken_count < options.minFailingTests) {
    return `Together the changes break ${buggy?.broken_count ?? 0} test(s); ${options.minFailingTests} are needed, so I stop here.`;
  }

  // The oracle tests: files with a broken test, then more until enough pass; a suite that runs in seconds is taken whole.
  const broken = Object.keys(yield* kit.brokenFiles(ask, buggy));
  const whole = elapsed !== undefined && elapsedMs <= WHOLE_SUITE_MS;
  const selected = whole ? [...kit.testFiles] : broken;
  const passingIn = (set: string[]) => set.reduce((sum, file) => sum + (summary.passingByFile[file] ?? 0), 0);
  for (const file of whole ? [] : rng.shuffle(kit.testFiles.filter((f) => !selected.includes(f)))) {
    if (passingIn(selected) >= options.minPassingTests) break;
    selected.push(file);
  }
  const oracle = whole
    ? `The whole suite ran in ${(elapsedMs / 1000).toFixed(1)} s, so the oracle tests are all ${selected.length} test files: every other test then guards against a fix that breaks something else, and every bug of this image has the same test script`
    : `The oracle tests are ${selected.join(', ')}`;
  yield* ask(
    `${buggy.broken_count} test(s) break. ${oracle}; writing the test script and the list.`,
    create(`${OUT}/test_script.sh`, kit.script(selected)),
    create(`${OUT}/test_files.txt`, `${selected.join('\n')}\n`),
  );
  yield* ask(
    'Saving the code change as the bug patch, before touching any test.',
    bash(`git add -A -- ${changed.map(q).join(' ')} && git diff --cached -- ${changed.map(q).join(' ')} > ${OUT}/bug_inject.diff; git reset -q; git diff --stat -- ${changed.map(q).join(' ')}`),
  );

  // Hide the bug: delete the tests that catch it.
  const weakenedFiles = yield* kit.weaken(ask, buggy);
  if (typeof weakenedFiles === 'string') return weakenedFiles;
  // `git diff --` of no files is the whole change, the bug's own: never a weakening.
  if (weakenedFiles.length === 0) return noWeakening(buggy);
  // The checks run the weakened suite with the bug in place first thing; running it here too would only double that run.
  yield* ask(
    'Saving the test change as the weakening.',
    bash(`git diff -- ${weakenedFiles.map(q).join(' ')} > ${OUT}/test_weaken.diff; git diff --stat -- ${weakenedFiles.map(q).join(' ')}`),
  );
  const submitted = yield* ask('Everything is in place; submitting the artifact.', {
    name: 'submit',
    input: {
      test_files: `${OUT}/test_files.txt`,
      test_script: `${OUT}/test_script.sh`,
      test_parser: `${OUT}/test_parser.py`,
      bug_inject: `${OUT}/bug_inject.diff`,
      test_weaken: `${OUT}/test_weaken.diff`,
    },
  });
  return submitted[0]?.isError ? `The submission was refused: ${submitted[0].output}` : 'Submitted.';
}
