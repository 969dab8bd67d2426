/**
 * A Harbor task's task.toml: its name, the agent's, verifier's and build's
 * time limits, its resources, no internet, and where the bug came from under
 * [metadata]. It follows Harbor's task format, schema 1.1
 * (harborframework.com/docs/tasks): `[task]` names the task `org/name`;
 * `[agent]`, `[verifier]` and `[environment]` hold the settings Harbor reads.
 * TOML has no null: fields without a value are left out.
 */
import { stringify } from 'smol-toml';
import { DEFAULT_MEMORY_BYTES } from '../../sandbox/sandbox.js';
import type { BugMaterial } from '../materials.js';

export const HARBOR_SCHEMA_VERSION = '1.1';
/** The agent's time (Harbor stops it then); bugbench's solvers are bounded by steps, so this is a generous wall. */
export const AGENT_TIMEOUT_SEC = 3600;
export const BUILD_TIMEOUT_SEC = 600;
/** The verifier's time beyond the test limit: putting the tests back and the parser (60 s at most). */
export const VERIFIER_MARGIN_SEC = 180;
export const PARSER_TIMEOUT_SEC = 60;

/** A name Harbor accepts (`org/name`, letters, digits, `.`, `_`, `-`). */
export function harborTaskName(bugId: string): string {
  return `bugbench/${bugId.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '')}`;
}

/** Drops null and undefined values, which TOML cannot hold, at every depth. */
function present(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((v) => v !== null && v !== undefined).map(present);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).flatMap(([k, v]) => (v === null || v === undefined ? [] : [[k, present(v)]])));
  }
  return value;
}

/** Where the bug came from, for [metadata.bugbench]. */
export function provenance(m: BugMaterial, imageId: string) {
  const r = m.record;
  return {
    bug_id: r.id,
    status: r.status,
    repo: r.repo,
    image: m.image,
    image_id: imageId,
    base_commit: r.baseCommit,
    strategy: r.strategy,
    policy: r.policy,
    model: r.model,
    order: r.order,
    parent: r.parentId,
    attempt: r.attemptId,
    created_at: r.createdAt,
    statement: m.statement,
    fail_to_pass: m.failToPass,
    pass_to_pass_count: m.passToPass.length,
    test_timeout_sec: m.testTimeoutSec,
    solve: r.solve ? { attempts: r.solve.attempts, solved: r.solve.solved, solve_rate: r.solve.solveRate, inject_reward: r.solve.injectReward, alpha: r.solve.alpha } : null,
    bug_category: r.analysis?.category ?? null,
    bug_category_reason: r.analysis?.categoryReason ?? null,
    review: r.review ? { decision: r.review.decision, reason: r.review.reason, by: r.review.by, at: r.review.at } : null,
  };
}

export function taskConfig(m: BugMaterial, imageId: string) {
  const r = m.record;
  const keywords = ['bugbench', 'debugging', r.repo, r.strategy, `order-${r.order}`];
  return present({
    schema_version: HARBOR_SCHEMA_VERSION,
    task: {
      name: harborTaskName(r.id),
      description: `Repair bug ${r.id} (${r.strategy}, order ${r.order}) in ${r.repo}; the repository is at ${m.world.root}.`,
      authors: [{ name: 'bugbench' }],
      keywords,
    },
    metadata: { category: 'debugging', tags: keywords, bugbench: provenance(m, imageId) },
    verifier: { timeout_sec: m.testTimeoutSec + VERIFIER_MARGIN_SEC },
    agent: { timeout_sec: AGENT_TIMEOUT_SEC },
    environment: {
      build_timeout_sec: BUILD_TIMEOUT_SEC,
      cpus: 2,
      memory_mb: DEFAULT_MEMORY_BYTES / 1024 / 1024,
      storage_mb: 10_240,
      allow_internet: false,
    },
  }) as Record<string, unknown>;
}

export function taskToml(m: BugMaterial, imageId: string): string {
  return `# A bugbench bug as a Harbor task (task format schema ${HARBOR_SCHEMA_VERSION}).\n${stringify(taskConfig(m, imageId))}\n`;
}
