/**
 * One run of an artifact's tests in a container: test_script.sh with its output
 * teed to a log, then test_parser.py over that log. The log is kept as a file on
 * the host (capped); the parsed map and the parser's verdict go in the record.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CancelledError, SandboxError } from '../errors.js';
import type { FileToWrite, OutputStream, Sandbox } from '../sandbox/sandbox.js';
import { ARTIFACT_MOUNT, DIFFS_IN_CONTAINER, LOG_IN_CONTAINER, RUN_DIR, TEST_FILES_IN_CONTAINER, WEAKENING_SCRIPT } from './container-paths.js';
import { sharedGoCache } from './go-cache.js';
import { WRITE_BYTECODE } from './bytecode.js';
import type { ParserHost } from './parser-host.js';
import { STATE_APPLY_FAILED, stateFailure, type StateScript } from './repo-state.js';

export { ARTIFACT_MOUNT } from './container-paths.js';
import type { BugArtifact } from './artifact.js';
import { LogReaders } from './log-readers/index.js';
import { auditParser, type ParserAudit } from './parser-audit.js';
import { weakeningScript } from './weakening-probe.js';
import { parseTestMap, ParserOutputError, type TestMap } from './test-results.js';

const PARSER_TIMEOUT_MS = 60_000;
/** The most a parser may print; its output comes back to bugbench whole. */
export const MAX_PARSER_OUTPUT_BYTES = 16 * 1024 * 1024;

export interface RunRecord {
  /** What this run was for, e.g. "original", "buggy", "revert bugbench/core.py". */
  label: string;
  /** The state it ran in, for messages: "original", "buggy", "weakened", … */
  state: string;
  command: string;
  exitCode: number;
  durationMs: number;
  timedOut: boolean;
  /** The time limit the script ran under, in seconds. */
  limitSec: number;
  logPath: string;
  results: TestMap;
  parser: { command: string; exitCode: number; durationMs: number; error?: string; output?: string; /** Where it ran, when not in the bug's container. */ where?: string };
  /** The parser's map held to bugbench's own reading of the log. */
  audit: ParserAudit;
  /** Not made for this bug: the original run another bug of the same image, script and test files made (original-cache.ts). */
  reused?: boolean;
  /** The processor time used while the test script ran (the container's cgroup, else the script's processes; ms) and the processors the container saw; absent where neither could tell. */
  cpu?: { ms: number; cores: number };
  /** With containers that take turns on the script: false when it held the lock, true when it ran beside another script (its suite leaves them a core each). */
  sideBySide?: boolean;
}

export interface RunOptions {
  label: string;
  /** The state's name for messages (default: the label). */
  state?: string;
  timeoutMs: number;
  logDir: string;
  /** Builds the state to run in, in the same exec. */
  prepare?: StateScript;
  /** A folder shared with the bug's other containers (a volume): Go's build cache goes there. */
  sharedDir?: string;
  /** A lock file shared with the bug's other containers: hold it while the test script runs. */
  lock?: string;
  /** How many other containers may hold the lock before this run gets it (their turns extend the wait). */
  lockQueue?: number;
  onOutput?: (stream: OutputStream, text: string) => void;
  /** Where the parser runs when the image has no python3 (without one, such a run says it could not parse). */
  parserHost?: ParserHost;
  /** The work's cancellation: a run whose container was killed once it aborted was cancelled, not broken. */
  signal?: AbortSignal;
}

/** The parser's exit in the run script when the container has no python3 to run it. */
const NO_INTERPRETER = 200;

/** Copies the artifact's scripts and diffs (and bugbench's helper scripts) into the container, where every run of the bug reads them. */
export async function installArtifact(sandbox: Sandbox, artifact: BugArtifact): Promise<void> {
  await sandbox.writeFiles(artifactFiles(artifact));
}

/** The artifact's files as its runs read them in a container (written when the container is made: `files` of openSandbox). */
export function artifactFiles(artifact: BugArtifact): FileToWrite[] {
  const withNewline = (text: string) => (text === '' || text.endsWith('\n') ? text : `${text}\n`);
  return [
    { path: `${ARTIFACT_MOUNT}/test_script.sh`, content: artifact.testScript, mode: 0o755 },
    { path: TEST_FILES_IN_CONTAINER, content: `${artifact.testFiles.join('\n')}\n` },
    { path: `${ARTIFACT_MOUNT}/test_parser.py`, content: artifact.testParser, mode: 0o644 },
    { path: `${ARTIFACT_MOUNT}/bug_inject.diff`, content: withNewline(artifact.bugInject) },
    { path: `${ARTIFACT_MOUNT}/test_weaken.diff`, content: withNewline(artifact.testWeaken) },
    { path: `${ARTIFACT_MOUNT}/pred_patch.diff`, content: withNewline(artifact.predPatch ?? '') },
    { path: WEAKENING_SCRIPT, content: weakeningScript(), mode: 0o644 },
  ];
}

/** A file name for a run's log; a label with characters a file name cannot keep gets a short hash, so "a/b.py" and "a_b.py" stay apart. */
export function logFileName(label: string): string {
  const safe = label.replace(/[^a-zA-Z0-9._-]+/g, '_').replace(/^_+|_+$/g, '');
  const plain = label.replace(/ /g, '_') === safe;
  return plain ? `${safe}.log` : `${safe}-${createHash('sha1').update(label).digest('hex').slice(0, 6)}.log`;
}

/** The command that runs the artifact's tests in /repo, output teed to the log the parser reads. */
export const TEST_COMMAND = `bash ${ARTIFACT_MOUNT}/test_script.sh 2>&1 | tee ${LOG_IN_CONTAINER}`;

/**
 * go test replays a passing package's cached result unless a -count is given,
 * and each run here must be a fresh look: -count=1 joins the flags go would
 * use (the environment's GOFLAGS, or when it is empty those `go env -w`
 * wrote, which a variable set here would hide), unless they hold a -count
 * already.
 */
export const FRESH_GO_TESTS = [
  'if [ -n "${GOFLAGS-}" ]; then goflags=$GOFLAGS; elif command -v go >/dev/null 2>&1; then goflags=$(go env GOFLAGS 2>/dev/null); else goflags=; fi',
  'case " $goflags " in *" -count="*) ;; *) export GOFLAGS="${goflags:+$goflags }-count=1" ;; esac',
].join('\n');

/**
 * One exec per run: build the state (if given), run the script under the time
 * limit (coreutils timeout kills its whole process group), then the parser over
 * the log. The script's output (stdout and stderr together) is this exec's
 * stdout; the exec's stderr carries a summary line and the parser's output and
 * errors, base64-encoded, so a run costs one round trip. Clocks are read from
 * bash itself, and the lock is let go by closing its file: every process
 * started in a container costs, and the checks make a dozen runs a bug.
 */
function runScript(timeoutSec: number, prepare?: StateScript, shared: { dir?: string; lock?: string } = {}): string {
  const { dir, lock } = shared;
  // Microseconds since the epoch: bash 5's clock, or date's on an older bash.
  const now = (name: string) => [`${name}=\${EPOCHREALTIME:-$(date +%s.%6N)}`, `${name}=\${${name}/[.,]/}`];
  const ticks = (name: string) => `cpu_now; ${name}=$cpu_us`;
  return [
    ...(prepare ? ['set -e', ...prepare.lines, 'set +e'] : []),
    ...PROCESSOR_TIME,
    `[ -d ${RUN_DIR} ] || mkdir -p ${RUN_DIR}`,
    'set -o pipefail',
    FRESH_GO_TESTS,
    // Go's build cache is shared by the bug's containers; with a lock, one test script runs at a time while the others prepare.
    ...(dir ? [sharedGoCache(dir)] : []),
    ...(lock ? [`exec 9> ${lock}`, 'flock 9'] : []),
    ...(prepare ? [WRITE_BYTECODE] : []),
    ticks('cpu0'),
    ...now('start'),
    `timeout -s KILL ${timeoutSec} bash ${ARTIFACT_MOUNT}/test_script.sh 2>&1 9>&- | tee ${LOG_IN_CONTAINER}`,
    'rc=$?',
    ...now('end'),
    ticks('cpu1'),
    ...(lock ? ['exec 9>&-'] : []),
    // An image without python3 (Go's official ones) leaves the parser to bugbench's own container (parser-host.ts).
    `if command -v python3 >/dev/null 2>&1; then timeout -s KILL ${PARSER_TIMEOUT_MS / 1000} python3 ${ARTIFACT_MOUNT}/test_parser.py < ${LOG_IN_CONTAINER} > ${RUN_DIR}/parsed 2> ${RUN_DIR}/parser-stderr; pexit=$?`,
    `else : > ${RUN_DIR}/parsed; : > ${RUN_DIR}/parser-stderr; pexit=${NO_INTERPRETER}; fi`,
    ...now('pend'),
    // One byte past the limit comes back, so an over-long output is seen as such.
    'cpums=-1; [ "$cpu0" -ge 0 ] && [ "$cpu1" -ge 0 ] && cpums=$(( (cpu1 - cpu0) / 1000 ))',
    `{ printf '${SUMMARY_TAG} %s %s %s %s %s\\n' "$(( (end - start) / 1000 ))" "$pexit" "$(( (pend - end) / 1000 ))" "$cpums" "$(nproc 2>/dev/null || echo 0)"; head -c ${MAX_PARSER_OUTPUT_BYTES + 1} ${RUN_DIR}/parsed | base64 -w0; echo; tail -c 4000 ${RUN_DIR}/parser-stderr | base64 -w0; echo; } >&2`,
    'exit $rc',
  ].join('\n');
}

const SUMMARY_TAG = 'bugbench-run';

/**
 * Bash defining `cpu_now`, which sets cpu_us to the processor time used so
 * far, in microseconds (-1 where nothing tells), read by builtins alone. The
 * container's own cgroup counts every process in it, a server the script
 * left running or one killed at the time limit included; it is the cgroup
 * (v2, or v1's cpuacct) whose member list holds this shell, so a sandbox
 * that sees the machine's cgroups (bwrap) does not count the machine. Without
 * one, this shell's waited-for children (utime and stime in /proc, in 1/100 s)
 * are what is left.
 */
export const PROCESSOR_TIME = [
  'cg=; for d in /sys/fs/cgroup /sys/fs/cgroup/cpuacct /sys/fs/cgroup/cpu,cpuacct; do',
  '  { [ -r "$d/cpu.stat" ] || [ -r "$d/cpuacct.usage" ]; } || continue',
  '  while read -r p; do [ "$p" = "$$" ] && cg=$d && break; done 2>/dev/null < "$d/cgroup.procs"',
  '  [ -n "$cg" ] && break',
  'done',
  'cpu_now() {',
  '  cpu_us=-1',
  '  if [ -n "$cg" ] && [ -r "$cg/cpu.stat" ]; then while read -r k v; do [ "$k" = usage_usec ] && cpu_us=$v; done < "$cg/cpu.stat"',
  '  elif [ -n "$cg" ]; then read -r ns < "$cg/cpuacct.usage" && cpu_us=$(( ns / 1000 ))',
  '  elif read -r -a st 2>/dev/null < /proc/$$/stat && [ "${#st[@]}" -gt 16 ]; then cpu_us=$(( (st[15] + st[16]) * 10000 )); fi',
  '}',
];

/** The last two non-empty lines of a log, quoted, each cut at 200 characters. */
export function logEnd(log: string): string {
  const lines = log.split('\n').map((l) => l.trimEnd()).filter((l) => l.trim() !== '').slice(-2);
  return lines.map((l) => JSON.stringify(l.length > 200 ? `${l.slice(0, 199)}…` : l)).join(' / ');
}

interface RunSummary {
  durationMs: number;
  parserExit: number;
  parserDurationMs: number;
  /** How many bytes of the parser's output came back (past MAX_PARSER_OUTPUT_BYTES: it printed too much). */
  parsedBytes: number;
  parsed: string;
  parserStderr: string;
  /** The script's processor time and the processors it could use; undefined where the container could not say. */
  cpu?: { ms: number; cores: number };
}

/** Reads the summary the run script writes to stderr; undefined if the script never got that far. */
export function readSummary(stderr: string): RunSummary | undefined {
  const lines = stderr.split('\n');
  const at = lines.findIndex((l) => l.startsWith(`${SUMMARY_TAG} `));
  if (at < 0) return undefined;
  const [, duration, exit, parserDuration, cpuMs, cores] = lines[at]!.split(' ');
  const parsed = Buffer.from(lines[at + 1] ?? '', 'base64');
  const cpu = { ms: Number(cpuMs), cores: Number(cores) };
  return {
    ...(Number.isInteger(cpu.ms) && cpu.ms >= 0 && Number.isInteger(cpu.cores) && cpu.cores > 0 ? { cpu } : {}),
    durationMs: Number(duration),
    parserExit: Number(exit),
    parserDurationMs: Number(parserDuration),
    parsedBytes: parsed.length,
    parsed: parsed.toString('utf8'),
    parserStderr: Buffer.from(lines[at + 2] ?? '', 'base64').toString('utf8'),
  };
}

export async function runTests(sandbox: Sandbox, options: RunOptions): Promise<RunRecord> {
  const command = TEST_COMMAND;
  const limitSec = Math.max(1, Math.round(options.timeoutMs / 1000));
  if (options.prepare?.candidate) await sandbox.writeFile(DIFFS_IN_CONTAINER.candidate, options.prepare.candidate);
  // The in-container limits come first; this one only guards against a wedged exec.
  // Waiting for the lock is not test time: the script's own limit starts once it holds the lock.
  const waitMs = options.lock ? (options.lockQueue ?? 1) * (options.timeoutMs + PARSER_TIMEOUT_MS) : 0;
  const guardMs = waitMs + options.timeoutMs + PARSER_TIMEOUT_MS + 30_000;
  // bugbench reads the log itself as it streams past: the whole of it, in bounded memory.
  const readers = new LogReaders();
  const exec = await sandbox.exec(runScript(limitSec, options.prepare, { dir: options.sharedDir, lock: options.lock }), {
    timeoutMs: guardMs,
    onOutput: (stream, text) => {
      if (stream !== 'stdout') return;
      readers.push(text);
      options.onOutput?.(stream, text);
    },
    maxStderrBytes: Math.ceil((MAX_PARSER_OUTPUT_BYTES * 4) / 3) + 64 * 1024,
  });
  if (exec.exitCode === STATE_APPLY_FAILED && exec.stderr.includes('bugbench-state-failed')) throw stateFailure(exec.stderr);
  const summary = readSummary(exec.stderr);
  if (!summary && !exec.timedOut) {
    // Cancelling removes the containers: the exec ends killed (137) or cut off, which says nothing of the run.
    if (options.signal?.aborted) throw new CancelledError(`the run "${options.label}"`);
    throw new SandboxError(`preparing the run "${options.label}" failed (exit ${exec.exitCode}): ${exec.stderr.trim().slice(-400)}`);
  }
  mkdirSync(options.logDir, { recursive: true });
  const logPath = join(options.logDir, logFileName(options.label));
  writeFileSync(logPath, exec.stdout);

  const durationMs = summary?.durationMs ?? exec.durationMs;
  const exitCode = exec.timedOut ? 137 : exec.exitCode;
  const timedOut = exec.timedOut || ((exitCode === 137 || exitCode === 124) && durationMs >= limitSec * 1000 - 50);
  const elsewhere = summary?.parserExit === NO_INTERPRETER ? await parseElsewhere(sandbox, options) : undefined;
  const parserExit = elsewhere?.exitCode ?? summary?.parserExit ?? -1;
  const parserStderr = elsewhere?.stderr ?? summary?.parserStderr ?? '';
  const parsedText = elsewhere?.stdout ?? summary?.parsed ?? '';
  let results: TestMap = {};
  let error: string | undefined;
  if (!summary) error = 'the parser did not run';
  else if (summary.parserExit === NO_INTERPRETER && !options.parserHost) error = 'the image has no python3 to run the parser';
  else if (parserExit === 137) error = `the parser did not finish within ${PARSER_TIMEOUT_MS / 1000} s`;
  else if ((elsewhere ? Buffer.byteLength(elsewhere.stdout) : summary.parsedBytes) > MAX_PARSER_OUTPUT_BYTES || elsewhere?.truncated) error = `the parser printed more than ${MAX_PARSER_OUTPUT_BYTES} bytes, the limit`;
  else if (parserExit !== 0) {
    error = `the parser exited with ${parserExit}: ${parserStderr.trim().split('\n').slice(-1)[0] ?? ''}`.trim();
  } else {
    try {
      results = parseTestMap(parsedText);
    } catch (e) {
      if (!(e instanceof ParserOutputError)) throw e;
      // Most often the tests did not run at all (no runner in the image, a collection error): the log's end says so.
      error = exec.stdout.trim() !== '' ? `${e.message}; the test log ends: ${logEnd(exec.stdout)}` : e.message;
    }
  }
  const reading = readers.finish();
  return {
    label: options.label,
    state: options.state ?? options.label,
    command,
    exitCode,
    durationMs,
    timedOut,
    limitSec,
    logPath,
    results,
    ...(summary?.cpu ? { cpu: summary.cpu } : {}),
    ...(options.sharedDir ? { sideBySide: options.lock === undefined } : {}),
    parser: {
      command: `python3 ${ARTIFACT_MOUNT}/test_parser.py < ${LOG_IN_CONTAINER}`,
      ...(elsewhere ? { where: options.parserHost!.where } : {}),
      exitCode: parserExit,
      durationMs: elsewhere?.durationMs ?? summary?.parserDurationMs ?? 0,
      error,
      output: error ? (parsedText.slice(0, 2000) + parserStderr).slice(0, 2000) : undefined,
    },
    audit: timedOut
      ? { status: 'unverified', reader: reading?.reader, why: 'the run timed out' }
      : error
        ? { status: 'unverified', reader: reading?.reader, why: 'the parser gave no map' }
        : auditParser(results, reading),
  };
}

/** The run's log, read out of the bug's container, parsed where python3 is (undefined when there is no such place). */
async function parseElsewhere(sandbox: Sandbox, options: RunOptions) {
  if (!options.parserHost) return undefined;
  const log = await sandbox.readFile(LOG_IN_CONTAINER, { maxBytes: 256 * 1024 * 1024 });
  return options.parserHost.parse(log, PARSER_TIMEOUT_MS / 1000, MAX_PARSER_OUTPUT_BYTES + 1);
}
