/**
 * Python's bytecode, kept between a bug's runs in one container. Sandboxes
 * run with PYTHONDONTWRITEBYTECODE, so every run compiled every module of the
 * repository again and pytest rewrote the assertions of every test module
 * again: a fifth of a pytest run on the samples, and most of an import of a
 * large package whose editable install has no bytecode (SWE-bench's images).
 *
 * Both caches trust a source file whose modification time, in whole seconds,
 * and size match what they recorded. Git writes the files a state changes
 * with the current time, so two versions of one file of equal size (`<` made
 * `>`) written in the same second would share a cached compilation: the
 * tests would run the previous state's code. So each state gives every .py
 * file whose content it changed a second no earlier state of the container
 * used, and gives a file whose content stayed the second it had: git rewrites
 * such a file too (a rerun of a state, a file whose time differs from its
 * index), and the time of that rewrite could be the next state's stamp.
 * Every content a file takes in one container therefore has a second of its
 * own, and a cached compilation is used only for the content it was made from.
 */
import type { BugArtifact } from './artifact.js';

/** The last stamp a state of this container used; each .py file's content and second at the last state. */
const STAMP_FILE = '/bugbench/bytecode-stamp';
const CONTENTS_FILE = '/bugbench/bytecode-contents';

/** Whether a bug's runs keep bytecode: its oracle tests are Python files. */
export function keepsBytecode(artifact: Pick<BugArtifact, 'testFiles'>): boolean {
  return artifact.testFiles.some((f) => f.endsWith('.py'));
}

/**
 * Bash, last in a state's build (run from the repository's root), over the
 * readable .py files under `paths` (every path a layer of this state writes)
 * and those the previous states recorded (a file an earlier candidate changed
 * is put back by this state's reset): a file whose content (git's hash) is
 * new gets a second after every earlier stamp and no earlier than now; one
 * whose content is what was recorded gets the second recorded with it. A
 * file that could not be hashed is stamped and not recorded; one whose time
 * the user may not set (another user owns it) loses its cached compilations
 * instead, and is not recorded. Names are read one a line; a name holding a
 * newline is not supported.
 */
export function stampChangedFiles(paths: string[]): string[] {
  return [
    'bb_py=(); declare -A bb_seen=() bb_was=() bb_at=() bb_lost=()',
    // Sets the time of files to second $1; a file whose time cannot be set loses its cached compilations.
    'bb_stamp() { local at=$1 f; shift; touch -c -m -d "@$at" -- "$@" 2>/dev/null && return 0',
    '  for f in "$@"; do touch -c -m -d "@$at" -- "$f" 2>/dev/null || { bb_lost["$f"]=1; rm -f -- "$(dirname -- "$f")/__pycache__/$(basename -- "${f%.py}")".*.pyc 2>/dev/null; }; done; return 0; }',
    'bb_add() { if [ -f "$1" ] && [ -r "$1" ] && [[ "$1" == *.py ]] && [ -z "${bb_seen["$1"]-}" ]; then bb_seen["$1"]=1; bb_py+=("$1"); fi; }',
    'while IFS= read -r p; do',
    '  if [ -d "$p" ]; then while IFS= read -r -d "" f; do bb_add "$f"; done < <(find "$p" -type f -name "*.py" -print0)',
    '  elif [ -n "$p" ]; then bb_add "$p"; fi',
    `done <<'BUGBENCH_PY'\n${[...new Set(paths)].join('\n')}\nBUGBENCH_PY`,
    `if [ -r ${CONTENTS_FILE} ]; then while IFS=' ' read -r h t f; do [ -n "$f" ] || continue; bb_was["$f"]=$h; bb_at["$f"]=$t; bb_add "$f"; done < ${CONTENTS_FILE}; fi`,
    'bb_record=()',
    'if [ ${#bb_py[@]} -gt 0 ]; then',
    `  last=0; [ -r ${STAMP_FILE} ] && read -r last < ${STAMP_FILE}`,
    '  t=${EPOCHSECONDS:-$(date +%s)}; stamp=$(( t > last ? t : last + 1 ))',
    '  mapfile -t bb_hash < <(git hash-object -- "${bb_py[@]}" 2>/dev/null); mapfile -t bb_time < <(stat -c %Y -- "${bb_py[@]}" 2>/dev/null)',
    '  bb_new=()',
    '  if [ ${#bb_hash[@]} -ne ${#bb_py[@]} ] || [ ${#bb_time[@]} -ne ${#bb_py[@]} ]; then bb_new=("${bb_py[@]}")',
    '  else for i in "${!bb_py[@]}"; do',
    '    f=${bb_py[i]}; h=${bb_hash[i]}',
    '    if [ "${bb_was["$f"]-}" = "$h" ]; then',
    '      [ "${bb_time[i]}" = "${bb_at["$f"]}" ] || bb_stamp "${bb_at["$f"]}" "$f"',
    '      [ -n "${bb_lost["$f"]-}" ] || bb_record+=("$h ${bb_at["$f"]} $f")',
    '    else bb_new+=("$f"); fi',
    '  done; fi',
    `  if [ \${#bb_new[@]} -gt 0 ]; then bb_stamp "$stamp" "\${bb_new[@]}"; echo "$stamp" > ${STAMP_FILE}; fi`,
    '  if [ ${#bb_hash[@]} -eq ${#bb_py[@]} ]; then for i in "${!bb_py[@]}"; do f=${bb_py[i]}; [ -n "${bb_lost["$f"]-}" ] || [ "${bb_was["$f"]-}" = "${bb_hash[i]}" ] || bb_record+=("${bb_hash[i]} $stamp $f"); done; fi',
    'fi',
    `if [ \${#bb_record[@]} -gt 0 ]; then printf '%s\\n' "\${bb_record[@]}" > ${CONTENTS_FILE}; else : > ${CONTENTS_FILE}; fi`,
  ];
}

/** Bash before the test script: Python and pytest may write their caches (the state's stamps keep them honest). */
export const WRITE_BYTECODE = 'unset PYTHONDONTWRITEBYTECODE';
