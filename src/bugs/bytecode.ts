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
 * tests would run the previous state's code. So after each state is built,
 * every .py file git wrote for it gets a stamp: a whole second no earlier than
 * the clock and later than every earlier stamp, so a content a file takes
 * never has the second of an earlier one. Stamps are whole seconds and the
 * kernel gives a write its time to the nanosecond, so the files written since
 * the last stamp are those whose time has a fraction, whatever wrote them
 * (a reset, a patch, a file put back after a candidate deleted it). The index
 * is then told the new times, so git does not write a file again for its
 * time alone, and a file no state changes keeps its stamp and its cache. A
 * file system that keeps whole seconds only (no fraction to tell writes by),
 * or tools that cannot print or set a file's time, keep no bytecode.
 */
import type { BugArtifact } from './artifact.js';

/** The last stamp a state of this container used, and whether the repository's file system and tools keep fractions of a second. */
const STAMP_FILE = '/bugbench/bytecode-stamp';
const TIMES_FILE = '/bugbench/bytecode-times';
/** When the container's first state was built: the __pycache__ folders made since are its runs'. */
const START_FILE = '/bugbench/bytecode-start';
/** What the last search of the tree found. */
const FOUND_FILE = '/bugbench/bytecode-found';

/** Whether a bug's runs keep bytecode: its oracle tests are Python files. */
export function keepsBytecode(artifact: Pick<BugArtifact, 'testFiles'>): boolean {
  return artifact.testFiles.some((f) => f.endsWith('.py'));
}

/**
 * Bash, last in a state's build (run from the repository's root, with `set
 * -e`), over the files of the tree the user owns (git's own folder and
 * node_modules left unvisited; git writes as the user, so what another user
 * owns no state changed):
 * - stamps the .py files written since the last stamp, and drops the
 *   bytecode of a .py symlink pointed anew (Python checks its target's time
 *   and size but caches under the symlink's name);
 * - removes each folder our runs' bytecode kept alive that holds nothing
 *   else (`git clean` leaves ignored files, and a folder a state's package
 *   left behind would import as a namespace package in every later state);
 * - keeps no bytecode, and drops what the runs made, where the tools cannot
 *   read a write's fraction of a second or set a whole one (busybox's find
 *   prints no times).
 */
export const STAMP_WRITTEN_FILES = [
  `if [ ! -e ${TIMES_FILE} ]; then`,
  '  p=.bugbench-time-probe-$$; bb_probe=unusable',
  '  if : > "$p" 2>/dev/null; then',
  '    a=$(find "$p" -maxdepth 0 -printf %T@ 2>/dev/null) || a=',
  '    if [[ "$a" == *.* && "$a" != *.0000000000 ]] && touch -c -m -d @1000000000 -- "$p" 2>/dev/null && [ "$(find "$p" -maxdepth 0 -printf %T@ 2>/dev/null)" = 1000000000.0000000000 ]; then bb_probe=fine; fi',
  '    rm -f -- "$p"',
  '  fi',
  `  echo "$bb_probe" > ${TIMES_FILE}; : > ${START_FILE}`,
  'fi',
  `read -r bb_times < ${TIMES_FILE} || bb_times=`,
  'if [ "$bb_times" = fine ]; then',
  `  last=0; if [ -r ${STAMP_FILE} ]; then read -r last < ${STAMP_FILE} || last=0; fi`,
  '  t=${EPOCHSECONDS:-$(date +%s)}; stamp=$(( t > last ? t : last + 1 ))',
  '  bb_written=(); bb_links=(); bb_caches=(); bb_ok=',
  `  if find . \\( -name .git -o -name node_modules \\) -prune -o -uid "$EUID" \\( -type f -name "*.py" -printf "f%T@ %p\\0" -o -type l -name "*.py" -printf "l%T@ %p\\0" -o -type d -name __pycache__ -newer ${START_FILE} -printf "d %p\\0" \\) > ${FOUND_FILE} 2>/dev/null; then`,
  '    bb_ok=1',
  '    while IFS= read -r -d "" entry; do',
  '      case $entry in f*) bb_t=${entry%% *}; [[ "$bb_t" == *.0000000000 ]] || bb_written+=("${entry#* }") ;; l*) bb_t=${entry%% *}; [[ "$bb_t" == *.0000000000 ]] || bb_links+=("${entry#* }") ;; d*) bb_caches+=("${entry#* }") ;; esac',
  `    done < ${FOUND_FILE}`,
  '    if [ ${#bb_written[@]} -gt 0 ]; then',
  '      printf "%s\\0" "${bb_written[@]}" | xargs -0 touch -c -m -d "@$stamp" -- 2>/dev/null || bb_ok=',
  '    fi',
  // A module that is a symlink is checked by its target's time and size but cached under its own name: one pointed
  // anew loses its bytecode (two targets of one size and stamp would share it), and is stamped itself as seen.
  '    if [ ${#bb_links[@]} -gt 0 ]; then',
  '      for l in "${bb_links[@]}"; do b=${l##*/}; rm -f -- "${l%/*}/__pycache__/${b%.py}".*.pyc 2>/dev/null || bb_ok=; done',
  '      printf "%s\\0" "${bb_links[@]}" | xargs -0 touch -h -c -m -d "@$stamp" -- 2>/dev/null || bb_ok=',
  '    fi',
  '    if [ ${#bb_written[@]} -gt 0 ] || [ ${#bb_links[@]} -gt 0 ]; then',
  `      echo "$stamp" > ${STAMP_FILE}`,
  '      git update-index -q --refresh > /dev/null 2>&1 || true',
  '    fi',
  '  fi',
  '  if [ -z "$bb_ok" ]; then',
  `    echo off > ${TIMES_FILE}`,
  '    find . \\( -name .git -o -name node_modules \\) -prune -o -uid "$EUID" -type d -name __pycache__ -prune -exec rm -rf {} + 2>/dev/null || true',
  '  else',
  '    shopt -s nullglob dotglob',
  '    for c in "${bb_caches[@]}"; do',
  '      d=${c%/__pycache__}',
  '      while [ "$d" != . ] && [ -n "$d" ]; do e=("$d"/*); if [ ${#e[@]} -eq 0 ] || { [ ${#e[@]} -eq 1 ] && [ "${e[0]##*/}" = __pycache__ ]; }; then rm -rf -- "$d" 2>/dev/null || break; d=${d%/*}; else break; fi; done',
  '    done',
  '    shopt -u nullglob dotglob',
  '  fi',
  'fi',
];

/**
 * Bash before the test script of a run that built its state: Python and
 * pytest may write their caches where a state's stamps keep them honest (only
 * a Python bug's states stamp, and only where the tools can, say so).
 */
export const WRITE_BYTECODE = `read -r bb_times < ${TIMES_FILE} 2>/dev/null && [ "$bb_times" = fine ] && unset PYTHONDONTWRITEBYTECODE`;
