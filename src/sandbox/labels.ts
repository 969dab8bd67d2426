/** Labels bugbench puts on repo images (kept apart so reading them loads nothing else). */
export const LABEL_REPO = 'bugbench.repo';
export const LABEL_COMMIT = 'bugbench.commit';
export const LABEL_TEST_CMD = 'bugbench.test-cmd';
export const LABEL_SOURCE = 'bugbench.source';
