/**
 * Check thresholds for tests about injection itself (yield, placement,
 * clusters, resume) rather than about the checks: the offline injector's bugs
 * are deterministic, so two runs of the buggy state say what five would, at
 * less than half their cost. The repeated runs themselves are tested with the
 * defaults (test/integration/shortcuts.test.ts: a coin-flip bug, a hanging one).
 */
import { DEFAULT_CHECK_PARAMS, type CheckParams } from '../../src/bugs/meta.js';

export const INJECTION_TEST_PARAMS: CheckParams = { ...DEFAULT_CHECK_PARAMS, buggyRuns: 2 };

/** The same as `bugbench inject` flags. */
export const INJECTION_TEST_FLAGS = ['--buggy-runs', String(INJECTION_TEST_PARAMS.buggyRuns)];
