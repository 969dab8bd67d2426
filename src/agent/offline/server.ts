/**
 * How the Python kit runs its suite half a dozen times a rollout, and its
 * helper a dozen, without starting Python for each: a small server
 * (data/offline/server.py) imports pytest and the helper once and forks a
 * child for each run or call, and two scripts ask it, or do the work
 * themselves when it is not up. Importing pytest is about half of a small
 * suite's run (0.13 of 0.25 processor seconds on knotcfg), starting Python
 * for a helper call most of that call; the repository's modules are imported
 * in the children only, so every run sees the code as that trial left it.
 */
import { HELPER, PARSER, WORK } from './kit.js';

export const SERVER = `${WORK}/server.py`;
/** `bash run_tests.sh NAME LIMIT`: the suite into WORK/NAME.log and WORK/NAME.json, killed after LIMIT s (0: never). */
export const RUNNER = `${WORK}/run_tests.sh`;
/** `bash helper.sh ARG...`: the helper on those arguments. */
export const HELPER_CLIENT = `${WORK}/helper.sh`;

export interface SuiteRun {
  /** Environment assignments put before python3 ("PYTHONDONTWRITEBYTECODE= PYTHONPATH=src "), or ''. */
  env: string;
  /** pytest's arguments: its flags and the test files, quoted. */
  args: string;
}

/** Bash that sets `up` when the server runs and a reply FIFO `$reply` could be made (after `reply=` is set). */
const SERVER_UP = `pid=$(cat ${WORK}/server.pid 2>/dev/null); up=; [ -n "$pid" ] && [ -p ${WORK}/server.fifo ] && kill -0 "$pid" 2>/dev/null && rm -f "$reply" && mkfifo "$reply" && up=1`;

/** Bash that sends the request `$1` and sets `code` to the server's answer, waiting at most `$2` seconds. */
const ASK = [
  'ask() {',
  '  exec 3<>"$reply"',
  `  printf '%s\\n' "$1" > ${WORK}/server.fifo`,
  '  read -r -t "$2" code <&3',
  '  exec 3<&-',
  '  rm -f "$reply"',
  '}',
];

export function runnerScript(run: SuiteRun): string {
  return [
    '#!/bin/bash',
    `# The suite into ${WORK}/NAME.log and its results into ${WORK}/NAME.json, killed after LIMIT seconds (0: never),`,
    '# through the server while it runs (pytest is imported there once), else as a plain run.',
    `name=$1 limit=\${2:-0} reply=${WORK}/$1.reply`,
    ...ASK,
    SERVER_UP,
    'if [ -n "$up" ]; then',
    '  ask "run $name $limit $reply" $(( limit > 0 ? limit + 20 : 86400 ))',
    '  exit "${code:-1}"',
    'fi',
    'stop=; [ "$limit" -gt 0 ] && stop="timeout -s KILL $limit"',
    `${run.env}$stop python3 -m pytest ${run.args} > ${WORK}/$name.log 2>&1`,
    'code=$?',
    `python3 ${PARSER} < ${WORK}/$name.log > ${WORK}/$name.json`,
    'exit $code',
    '',
  ].join('\n');
}

export function helperClientScript(): string {
  return [
    '#!/bin/bash',
    `# ${HELPER} on these arguments: through the server while it runs (a fork of it, no Python to start), else directly.`,
    `reply=${WORK}/helper.$$.reply args=${WORK}/helper.$$.args out=${WORK}/helper.$$.out`,
    ...ASK,
    SERVER_UP,
    'if [ -n "$up" ]; then',
    `  printf '%s\\0' "$@" > "$args"`,
    '  ask "helper $reply $args $out" 600',
    '  cat "$out"',
    '  rm -f "$args" "$out"',
    '  exit "${code:-1}"',
    'fi',
    `exec python3 ${HELPER} "$@"`,
    '',
  ].join('\n');
}

/** Bash that starts the server in the background and says whether it came up ("server: up", or "server: off" and why). */
export function startServer(run: SuiteRun): string {
  return [
    `rm -f ${WORK}/server.pid; ${run.env}python3 ${SERVER} ${WORK} ${PARSER} ${run.args} > ${WORK}/server.log 2>&1 < /dev/null &`,
    `for i in $(seq 100); do [ -s ${WORK}/server.pid ] && break; sleep 0.05; done`,
    `if [ -s ${WORK}/server.pid ]; then echo 'server: up'; else echo 'server: off'; tail -n 3 ${WORK}/server.log; fi`,
  ].join('\n');
}
