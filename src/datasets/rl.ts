/**
 * A bug as an RL task: the instance, the image, where its repository is
 * (`workdir`: /repo in bugbench's images, an adopted image's own root), and
 * the two scripts a trainer runs — one builds the starting state for the
 * agent, one evaluates the agent's patch and prints the test map. The reward
 * follows from the map: solved iff every FAIL_TO_PASS and PASS_TO_PASS test
 * passed.
 */
import type { BugMaterial } from './materials.js';
import { swebenchInstance } from './swebench.js';
import { evalScript, setupScript } from './task-scripts.js';

export function rlTask(m: BugMaterial) {
  return {
    task_id: m.record.id,
    instance: swebenchInstance(m),
    image: m.image,
    workdir: m.world.root,
    setup_script: setupScript(m),
    eval_script: evalScript(m),
    eval_usage: 'bash eval.sh /path/to/candidate.diff  # in a fresh container of `image`; prints {test id: "passed"|"failed"}',
    success: 'every test of FAIL_TO_PASS and PASS_TO_PASS is "passed"',
  };
}
