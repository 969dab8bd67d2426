/**
 * A bug as a SWE-bench task instance. `base_commit` is the original commit;
 * the instance's starting state is that commit with `bugbench.bug_patch` and
 * `bugbench.weaken_patch` (and a higher-order bug's `pred_patch`) applied (the
 * `rl` format carries a script that does exactly that). `patch` is the fix
 * and `test_patch` restores the oracle tests, as in SWE-bench. The image
 * travels under both names tools read: `image_name` (mini-swe-agent's
 * SWE-bench runner, SkyRL) and `docker_image` (R2E-Gym).
 */
import type { BugMaterial } from './materials.js';

export function swebenchInstance(m: BugMaterial) {
  const r = m.record;
  return {
    instance_id: r.id,
    repo: r.repo,
    base_commit: r.baseCommit,
    patch: m.fixPatch,
    test_patch: m.testPatch,
    problem_statement: m.problemStatement,
    hints_text: '',
    FAIL_TO_PASS: m.failToPass,
    PASS_TO_PASS: m.passToPass,
    image_name: m.image,
    docker_image: m.image,
    created_at: r.createdAt,
    version: 'bugbench-1',
    bugbench: {
      status: r.status,
      strategy: r.strategy,
      policy: r.policy,
      model: r.model,
      order: r.order,
      parent: r.parentId,
      attempt: r.attemptId,
      image_id: m.imageId,
      bug_patch: m.bugPatch,
      weaken_patch: m.weakenPatch,
      pred_patch: m.predPatch,
      test_files: m.testFiles,
      test_script: m.testScript,
      test_parser: m.testParser,
      test_timeout_sec: m.testTimeoutSec,
      flaky_tests: m.flaky,
      bug_report: m.report,
      category: r.analysis?.category ?? null,
      category_reason: r.analysis?.categoryReason ?? null,
      report_source: r.analysis?.report.source ?? null,
      patch_stats: r.analysis?.stats ?? null,
      solve: r.solve ? { attempts: r.solve.attempts, solved: r.solve.solved, solve_rate: r.solve.solveRate, inject_reward: r.solve.injectReward, alpha: r.solve.alpha } : null,
    },
  };
}

export type SwebenchInstance = ReturnType<typeof swebenchInstance>;
