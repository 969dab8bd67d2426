/**
 * Images laid out like the ones researchers hold, built here from bugbench's
 * bases (no registry is reachable), after those projects' own Dockerfiles:
 *
 * - SWE-bench (harness/dockerfiles): the repository cloned at /testbed with
 *   its whole history, `origin` removed, WORKDIR /testbed; the interpreter
 *   only in a conda environment that ~/.bashrc activates (`source
 *   /opt/miniconda3/etc/profile.d/conda.sh && conda activate testbed`), none
 *   on the default PATH.
 *
 * Each holds, past HEAD, a branch, a tag and a stash whose commits carry
 * FUTURE_MARKER: nothing bugbench shows or exports may ever contain it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { listSamples, replaySample } from '../../src/sandbox/docker-api/samples.js';

export const FUTURE_MARKER = 'FUTURE-FIX-7f3a9c-DO-NOT-LEAK';

// Fixed dates: the same commits, so the same image (and the same adoption) every time the tests build it.
const DATES = { GIT_AUTHOR_DATE: '2026-01-02T03:04:05Z', GIT_COMMITTER_DATE: '2026-01-02T03:04:05Z' };
const git = (cwd: string, ...args: string[]) => execa('git', ['-c', 'user.name=Upstream Dev', '-c', 'user.email=dev@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd, env: DATES });

/** A sample's repository with commits past HEAD on a branch, a tag and a stash, each carrying FUTURE_MARKER; HEAD left where the sample ends. */
export async function repoWithFuture(sampleName: string, dir: string): Promise<string> {
  const sample = listSamples().find((s) => s.name === sampleName);
  if (!sample) throw new Error(`no sample ${sampleName}`);
  const head = await replaySample(sample, dir);
  await git(dir, 'checkout', '-q', '-b', 'fix-upstream');
  writeFileSync(join(dir, 'FUTURE.md'), `${FUTURE_MARKER}: the fix that lands later\n`);
  await git(dir, 'add', 'FUTURE.md');
  await git(dir, 'commit', '-qm', `Fix the bug (${FUTURE_MARKER})`);
  await git(dir, 'tag', '-a', 'v9.9.9', '-m', `release ${FUTURE_MARKER}`);
  await git(dir, 'checkout', '-q', 'main');
  writeFileSync(join(dir, 'STASHED.md'), `${FUTURE_MARKER} stashed\n`);
  await git(dir, 'add', 'STASHED.md');
  await git(dir, 'stash', 'push', '-q', '-m', `wip ${FUTURE_MARKER}`);
  return head;
}

/** An image from elsewhere carries none of bugbench's labels: the one its base gave it is cleared. */
const NOT_OURS = 'LABEL bugbench.base="" bugbench.base-recipe="" bugbench.toolchain=""';

async function dockerBuild(context: string, tag: string, dockerfile: string): Promise<void> {
  writeFileSync(join(context, 'Dockerfile'), dockerfile);
  await execa('docker', ['build', '--network', 'none', '-q', '-t', tag, context]);
}

/** A SWE-bench instance image of the knotcfg sample (see the top of this file); returns its tag and HEAD. */
export async function buildSwebenchLookalike(tag = 'sweb.eval.x86_64.knotcfg__knotcfg-1:latest'): Promise<{ tag: string; head: string }> {
  const context = mkdtempSync(join(tmpdir(), 'bugbench-sweb-'));
  const head = await repoWithFuture('knotcfg', join(context, 'testbed'));
  await dockerBuild(
    context,
    tag,
    [
      'FROM bugbench/base:bookworm',
      NOT_OURS,
      // The interpreter lives in a conda-style environment only: no python3 on the default PATH.
      'RUN mkdir -p /opt/miniconda3/envs/testbed/bin /opt/miniconda3/etc/profile.d && mv /usr/bin/python3.11 /opt/miniconda3/envs/testbed/bin/ && rm /usr/bin/python3 \\',
      ' && ln -s python3.11 /opt/miniconda3/envs/testbed/bin/python3 && ln -s python3.11 /opt/miniconda3/envs/testbed/bin/python',
      `RUN printf '%s\\n' 'conda() { if [ "$1" = activate ]; then export CONDA_DEFAULT_ENV="$2" CONDA_PREFIX="/opt/miniconda3/envs/$2" PATH="/opt/miniconda3/envs/$2/bin:$PATH"; fi; }' > /opt/miniconda3/etc/profile.d/conda.sh`,
      'COPY testbed /testbed',
      'RUN chmod -R 777 /testbed',
      'WORKDIR /testbed/',
      'RUN echo "source /opt/miniconda3/etc/profile.d/conda.sh && conda activate testbed" > /root/.bashrc',
    ].join('\n'),
  );
  return { tag, head };
}

/**
 * A JavaScript image run by a user of its own, as many projects' images are:
 * `USER app`, the repository (the vercraft sample, with the node_modules its
 * sample image installed) at /home/app/vercraft owned by that user, WORKDIR
 * there. Nothing in it may need root, and every file bugbench writes must be
 * the user's.
 */
export async function buildNonRootNodeLookalike(tag = 'example/vercraft-app:1.0'): Promise<{ tag: string }> {
  const context = mkdtempSync(join(tmpdir(), 'bugbench-node-'));
  await dockerBuild(
    context,
    tag,
    [
      'FROM bugbench/repo-vercraft:latest AS installed',
      'FROM bugbench/base-node:bookworm',
      NOT_OURS,
      'RUN useradd -m -u 1000 -s /bin/bash app',
      'COPY --from=installed --chown=app:app /repo /home/app/vercraft',
      'USER app',
      'WORKDIR /home/app/vercraft',
    ].join('\n'),
  );
  return { tag };
}

/** An image from elsewhere with no repository in it at all (a WORKDIR that is no work tree). */
export async function buildNoRepoImage(tag = 'example/no-repo:1.0'): Promise<{ tag: string }> {
  await dockerBuild(mkdtempSync(join(tmpdir(), 'bugbench-norepo-')), tag, ['FROM bugbench/base:bookworm', NOT_OURS, 'WORKDIR /srv'].join('\n'));
  return { tag };
}

/**
 * A Multi-SWE-bench Go image (their Dockerfiles: `FROM golang`, the repository
 * cloned to /home/<repo>, WORKDIR there): Go on PATH only through the image's
 * ENV, as the official golang images put it, and no python3 at all. The
 * repository is the ratekit sample, with history past HEAD as above.
 */
export async function buildMultiSwebenchGoLookalike(tag = 'mswebench/example_m_ratekit:pr-1'): Promise<{ tag: string; head: string }> {
  const context = mkdtempSync(join(tmpdir(), 'bugbench-mswe-'));
  const head = await repoWithFuture('ratekit', join(context, 'ratekit'));
  await dockerBuild(
    context,
    tag,
    [
      'FROM bugbench/base-go:bookworm',
      NOT_OURS,
      'RUN rm -f /usr/bin/go /usr/bin/gofmt /usr/bin/python3* && rm -rf /usr/lib/python3*',
      'ENV PATH=/usr/lib/go-1.19/bin:$PATH',
      'COPY ratekit /home/ratekit',
      'WORKDIR /home/ratekit',
    ].join('\n'),
  );
  return { tag, head };
}
