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
 * tests would run the previous state's code. So every state stamps the .py
 * files whose content it changed with a second no earlier state of the
 * container used; a file whose content stayed keeps its time, and its bytecode
 * serves every run.
 */
import type { BugArtifact } from './artifact.js';

/** The last stamp a state of this container used, and each .py file's content at the last state. */
const STAMP_FILE = '/bugbench/bytecode-stamp';
const CONTENTS_FILE = '/bugbench/bytecode-contents';

/** Whether a bug's runs keep bytecode: its oracle tests are Python files. */
export function keepsBytecode(artifact: Pick<BugArtifact, 'testFiles'>): boolean {
  return artifact.testFiles.some((f) => f.endsWith('.py'));
}

/**
 * Bash, last in a state's build (run from the repository's root): of the .py
 * files under `paths` (every path a layer of any state of the bug writes, so
 * every file whose content can differ between two states), those whose
 * content is not what it was at the container's previous state get a second
 * after every earlier stamp and no earlier than now. Git's hashes tell the
 * contents apart: one process for all the files, one more for the stamp.
 */
export function stampChangedFiles(paths: string[]): string[] {
  return [
    'py=(); while IFS= read -r p; do',
    '  if [ -d "$p" ]; then while IFS= read -r -d "" f; do py+=("$f"); done < <(find "$p" -type f -name "*.py" -print0)',
    '  elif [ -f "$p" ] && [[ "$p" == *.py ]]; then py+=("$p"); fi',
    `done <<'BUGBENCH_PY'\n${[...new Set(paths)].join('\n')}\nBUGBENCH_PY`,
    'declare -A was=(); changed=(); now=()',
    `[ -r ${CONTENTS_FILE} ] && while read -r h f; do [ -n "$f" ] && was["$f"]=$h; done < ${CONTENTS_FILE}`,
    'if [ ${#py[@]} -gt 0 ]; then',
    '  i=0; while read -r h; do f=${py[i]}; i=$((i + 1)); now+=("$h $f"); [ "${was["$f"]-}" = "$h" ] || changed+=("$f"); done < <(git hash-object -- "${py[@]}")',
    'fi',
    'if [ ${#changed[@]} -gt 0 ]; then',
    `  last=0; [ -r ${STAMP_FILE} ] && read -r last < ${STAMP_FILE}`,
    '  t=${EPOCHSECONDS:-$(date +%s)}; stamp=$(( t > last ? t : last + 1 ))',
    '  touch -c -m -d "@$stamp" -- "${changed[@]}"',
    `  echo "$stamp" > ${STAMP_FILE}`,
    'fi',
    `if [ \${#now[@]} -gt 0 ]; then printf '%s\\n' "\${now[@]}" > ${CONTENTS_FILE}; else : > ${CONTENTS_FILE}; fi`,
  ];
}

/** Bash before the test script: Python and pytest may write their caches (the state's stamps keep them honest). */
export const WRITE_BYTECODE = 'unset PYTHONDONTWRITEBYTECODE';
