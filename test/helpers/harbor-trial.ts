/**
 * A Harbor trial, run by hand with the real Docker engine, in the order
 * Harbor's documentation gives for a task with a Dockerfile and the verifier
 * in the agent's container (harborframework.com/docs/tasks; the paths are
 * harbor's src/harbor/models/trial/paths.py, the reward files its
 * src/harbor/verifier/verifier.py):
 *
 *   1. build environment/ (no network: the repo image is all it needs);
 *   2. start the agent's container, without network, as the image's USER in
 *      its WORKDIR (Harbor's `docker compose exec` names no user unless the
 *      task does), /logs/agent and /logs/verifier made as Harbor mounts them
 *      and open to any user (Harbor chmods them 777);
 *   3. the agent's turn: the oracle agent copies solution/ to /solution and
 *      runs solve.sh; here also "nothing" or a cheat of the test's own;
 *   4. copy tests/ to /tests and run `bash /tests/test.sh`, its output in
 *      /logs/verifier/test-stdout.txt;
 *
 * Uploads are root's, as `docker compose cp` makes them; commands run with
 * `bash -c` and no variables of bugbench's (not even its git safe.directory).
 *   5. read the reward: /logs/verifier/reward.json first, else reward.txt.
 *
 * Harbor itself is a Python package this machine cannot install (no PyPI),
 * so this stands in for `harbor run -a oracle`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type Docker from 'dockerode';
import { parse } from 'smol-toml';
import { dockerClient } from '../../src/sandbox/docker-api/client.js';
import { followProgress } from '../../src/sandbox/docker-api/image-progress.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { defaultContainerEngine } from '../../src/sandbox/engine-table.js';
import { packFiles, type FileEntry } from '../../src/sandbox/tar.js';

/** Every file under `dir`, named relative to it (with `prefix`), with its mode. */
export function filesUnder(dir: string, prefix = ''): FileEntry[] {
  const out: FileEntry[] = [];
  const walk = (here: string) => {
    for (const name of readdirSync(here)) {
      const path = join(here, name);
      const stat = statSync(path);
      if (stat.isDirectory()) walk(path);
      else out.push({ name: `${prefix}${relative(dir, path)}`, content: readFileSync(path), mode: stat.mode & 0o777 });
    }
  };
  walk(dir);
  return out;
}

/** Step 1: `docker build` of the task's environment/ with no network; returns the image's tag. */
export async function buildEnvironment(taskDir: string, tag: string, docker: Docker = dockerClient()): Promise<string> {
  const context = await packFiles(filesUnder(join(taskDir, 'environment')));
  const stream = await docker.buildImage(context as unknown as NodeJS.ReadableStream, { t: tag, networkmode: 'none', rm: true, forcerm: true });
  await followProgress(docker, stream, () => undefined);
  return tag;
}

export async function removeImage(tag: string, docker: Docker = dockerClient()): Promise<void> {
  await docker.getImage(tag).remove({ force: true }).catch(() => undefined);
}

/** Git as Harbor's commands see it: bugbench's sandboxes trust every repository, Harbor's do not. */
export const HARBOR_EXEC_ENV = { GIT_CONFIG_COUNT: '0' };

/** Runs `command` as root in the container, as Harbor prepares its log folders. */
async function asRoot(id: string, command: string, docker: Docker = dockerClient()): Promise<void> {
  const exec = await docker.getContainer(id).exec({ Cmd: ['bash', '-c', command], User: '0', AttachStdout: true, AttachStderr: true });
  const stream = await exec.start({ hijack: true, stdin: false });
  stream.resume();
  await new Promise<void>((resolve) => stream.on('end', () => resolve()));
  const { ExitCode } = await exec.inspect();
  if (ExitCode !== 0) throw new Error(`${command} exited with ${ExitCode}`);
}

/** Step 2: the agent's container, as Harbor starts it (no network: the task says allow_internet = false). */
export async function startEnvironment(tag: string, runId: string, docker: Docker = dockerClient()): Promise<Sandbox> {
  const { Config } = await docker.getImage(tag).inspect();
  const world = { root: Config.WorkingDir || '/', user: '', uid: 0, gid: 0, env: {} };
  const sandbox = await defaultContainerEngine().createSandbox({ image: tag, runId, world });
  await asRoot(sandbox.id, 'mkdir -p /logs/agent /logs/verifier /logs/artifacts && chmod 777 /logs/agent /logs/verifier /logs/artifacts', docker);
  return sandbox;
}

/** Copies a folder of the task into the container (Harbor's upload_dir). */
export async function upload(sandbox: Sandbox, dir: string, target: string): Promise<void> {
  await sandbox.writeFiles(filesUnder(dir).map((f) => ({ path: `${target}/${f.name}`, content: f.content, mode: f.mode })));
}

export type Agent = 'oracle' | 'nothing' | ((sandbox: Sandbox) => Promise<void>);

export interface TrialResult {
  reward: number;
  rewardFile: 'reward.json' | 'reward.txt';
  /** bugbench's verdict (results.json beside the reward). */
  results: { solved: boolean; reason: string; failing: string[]; removed_test_files: string[] };
  testStdout: string;
}

/** Steps 3–5 in a container of the built environment; the container is removed at the end. */
export async function runTrial(taskDir: string, tag: string, agent: Agent, runId = 'test-harbor-trial'): Promise<TrialResult> {
  const sandbox = await startEnvironment(tag, runId);
  try {
    if (agent === 'oracle') {
      await upload(sandbox, join(taskDir, 'solution'), '/solution');
      await sandbox.run('bash /solution/solve.sh > /logs/agent/oracle.txt 2>&1', { timeoutMs: 120_000, env: HARBOR_EXEC_ENV });
    } else if (agent !== 'nothing') {
      await agent(sandbox);
    }
    const config = parse(readFileSync(join(taskDir, 'task.toml'), 'utf8')) as { verifier: { timeout_sec: number } };
    await upload(sandbox, join(taskDir, 'tests'), '/tests');
    await sandbox.exec('bash /tests/test.sh > /logs/verifier/test-stdout.txt 2>&1', { timeoutMs: config.verifier.timeout_sec * 1000, env: HARBOR_EXEC_ENV });
    const read = async (name: string) => (await sandbox.exec(`cat /logs/verifier/${name}`, { workdir: '/' })).stdout;
    const json = await sandbox.exec('test -f /logs/verifier/reward.json', { workdir: '/' });
    const rewardFile = json.exitCode === 0 ? 'reward.json' : 'reward.txt';
    const text = await read(rewardFile);
    const reward = rewardFile === 'reward.json' ? Number((JSON.parse(text) as { reward: number }).reward) : Number.parseFloat(text);
    return { reward, rewardFile, results: JSON.parse((await read('results.json')) || '{}'), testStdout: await read('test-stdout.txt') };
  } finally {
    await sandbox.remove();
  }
}
