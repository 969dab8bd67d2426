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
 * file system that keeps whole seconds only (no fraction to tell writes by)
 * keeps no bytecode.
 */
import type { BugArtifact } from './artifact.js';

/** The last stamp a state of this container used, and whether the repository's file system keeps fractions of a second. */
const STAMP_FILE = '/bugbench/bytecode-stamp';
const TIMES_FILE = '/bugbench/bytecode-times';

/** Whether a bug's runs keep bytecode: its oracle tests are Python files. */
export function keepsBytecode(artifact: Pick<BugArtifact, 'testFiles'>): boolean {
  return artifact.testFiles.some((f) => f.endsWith('.py'));
}

/**
 * Bash, last in a state's build (run from the repository's root, with `set
 * -e`): stamps the .py files written since the last stamp (git's own folder
 * and node_modules left unvisited). A file whose time the user may not set
 * (another user owns it) loses its cached compilations instead.
 */
export const STAMP_WRITTEN_FILES = [
  `if [ ! -e ${TIMES_FILE} ]; then`,
  '  p=.bugbench-time-probe-$$',
  `  if : > "$p" 2>/dev/null; then case "$(stat -c %y -- "$p")" in *.000000000*) echo whole ;; *) echo fine ;; esac > ${TIMES_FILE}; rm -f -- "$p"; else echo unwritable > ${TIMES_FILE}; fi`,
  'fi',
  `read -r bb_times < ${TIMES_FILE} || bb_times=`,
  'if [ "$bb_times" = fine ]; then',
  `  last=0; if [ -r ${STAMP_FILE} ]; then read -r last < ${STAMP_FILE} || last=0; fi`,
  '  t=${EPOCHSECONDS:-$(date +%s)}; stamp=$(( t > last ? t : last + 1 ))',
  '  bb_written=()',
  '  while IFS= read -r -d "" entry; do bb_t=${entry%% *}; [[ "$bb_t" == *.0000000000 ]] || bb_written+=("${entry#* }"); done < <(find . \\( -name .git -o -name node_modules \\) -prune -o -type f -name "*.py" -printf "%T@ %p\\0")',
  '  if [ ${#bb_written[@]} -gt 0 ]; then',
  '    if ! printf "%s\\0" "${bb_written[@]}" | xargs -0 touch -c -m -d "@$stamp" -- 2>/dev/null; then',
  '      for f in "${bb_written[@]}"; do touch -c -m -d "@$stamp" -- "$f" 2>/dev/null || rm -f -- "$(dirname -- "$f")/__pycache__/$(basename -- "${f%.py}")".*.pyc 2>/dev/null || true; done',
  '    fi',
  `    echo "$stamp" > ${STAMP_FILE}`,
  '    git update-index -q --refresh > /dev/null 2>&1 || true',
  '  fi',
  'fi',
];

/** Bash before the test script: Python and pytest may write their caches where the state's stamps keep them honest. */
export const WRITE_BYTECODE = `read -r bb_times < ${TIMES_FILE} 2>/dev/null && [ "$bb_times" = fine ] && unset PYTHONDONTWRITEBYTECODE`;
