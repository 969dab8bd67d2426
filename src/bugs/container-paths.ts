/** Where a bug's files live inside its container: outside /repo, so git resets leave them alone. */
export const ARTIFACT_MOUNT = '/bugbench/artifact';

export const DIFFS_IN_CONTAINER = {
  bug: `${ARTIFACT_MOUNT}/bug_inject.diff`,
  weaken: `${ARTIFACT_MOUNT}/test_weaken.diff`,
  pred: `${ARTIFACT_MOUNT}/pred_patch.diff`,
  candidate: '/bugbench/candidate.diff',
};

/** bugbench's own helper scripts, copied in with the artifact. */
export const CHECK_TOOLS_DIR = '/bugbench/tools';
export const WEAKENING_SCRIPT = `${CHECK_TOOLS_DIR}/weakening.py`;

/** The artifact's oracle test files, one per line, for restoring them in one command. */
export const TEST_FILES_IN_CONTAINER = `${ARTIFACT_MOUNT}/test_files.txt`;

/** The last run's test log, which the parser reads. */
export const LOG_IN_CONTAINER = '/bugbench/test.log';

/** The last run's parser output, exit code and durations. */
export const RUN_DIR = '/bugbench/run';

/** A volume shared by one bug's containers, holding the lock that takes turns on the test script. */
export const SHARED_DIR = '/bugbench-shared';
export const SCRIPT_LOCK = `${SHARED_DIR}/script.lock`;
