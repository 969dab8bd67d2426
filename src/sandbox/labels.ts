/** Labels bugbench puts on repo images (kept apart so reading them loads nothing else). */
export const LABEL_REPO = 'bugbench.repo';
export const LABEL_COMMIT = 'bugbench.commit';
export const LABEL_TEST_CMD = 'bugbench.test-cmd';
export const LABEL_SOURCE = 'bugbench.source';
/** The language of the repository (languages.ts ids: python, go, node, rust, java; '' when none was recognised). */
export const LABEL_LANGUAGE = 'bugbench.language';
/** The dependency step run while the image was built. */
export const LABEL_SETUP = 'bugbench.setup';
/** A warning found while building the image (package.json's engines field not met by the image's Node); '' for none. */
export const LABEL_WARNING = 'bugbench.warning';
/** On bugbench's base images (the Debian suite they hold). */
export const LABEL_BASE = 'bugbench.base';
/** On a toolchain base: its language (languages.ts id). */
export const LABEL_TOOLCHAIN = 'bugbench.toolchain';
