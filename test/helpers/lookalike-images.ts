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
 * - R2E-Gym (its repository Dockerfiles): the repository at /testbed, WORKDIR
 *   /testbed, run as root; the project's packages (pytest) only in a uv
 *   virtual environment inside the work tree (/testbed/.venv, which uv keeps
 *   out of git with a `*` .gitignore) that the image's ENV puts first on
 *   PATH, the system's python3 beside it with none of them; a run_tests.sh
 *   beside the code that git does not track.
 *
 * Each holds, past HEAD, a branch, a tag and a stash whose commits carry
 * FUTURE_MARKER: nothing bugbench shows or exports may ever contain it.
 * Each tag is labelled with its own name, so that two test files building
 * the same layout get two images (and two adoption snapshots): one file's
 * clean-up never removes what another is using.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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
  writeFileSync(join(context, 'Dockerfile'), `${dockerfile}\nLABEL example.lookalike=${JSON.stringify(tag)}\n`);
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
      // The environment's install leaves files git does not know (an egg-info the repository does not ignore) and
      // edits a tracked file (as the harness's pre_install steps do); then every file's mode changes.
      'RUN mkdir /testbed/knotcfg.egg-info && echo "Name: knotcfg" > /testbed/knotcfg.egg-info/PKG-INFO && echo "# pinned by the environment" >> /testbed/pyproject.toml',
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

/**
 * An image a user made FROM one bugbench built (so it carries its labels),
 * with the repository moved to /testbed, as a SWE-bench layout wants it.
 */
export async function buildMovedRepoImage(tag = 'example/knotcfg-moved:1'): Promise<{ tag: string }> {
  await dockerBuild(mkdtempSync(join(tmpdir(), 'bugbench-moved-')), tag, ['FROM bugbench/repo-knotcfg:latest', 'RUN mv /repo /testbed', 'WORKDIR /testbed'].join('\n'));
  return { tag };
}

/** Images that cannot be adopted as they are: one with no bash (as Alpine's), one whose user cannot write its repository. */
export async function buildUnadoptableImages(noBash = 'example/no-bash:1', readOnly = 'example/read-only-repo:1'): Promise<void> {
  const context = mkdtempSync(join(tmpdir(), 'bugbench-unadoptable-'));
  await repoWithFuture('knotcfg', join(context, 'repo'));
  await dockerBuild(context, noBash, ['FROM bugbench/base:bookworm', NOT_OURS, 'COPY repo /testbed', 'WORKDIR /testbed', 'RUN rm -f /bin/bash /usr/bin/bash'].join('\n'));
  await dockerBuild(context, readOnly, ['FROM bugbench/base:bookworm', NOT_OURS, 'COPY repo /testbed', 'RUN useradd -m app', 'USER app', 'WORKDIR /testbed'].join('\n'));
}

/** An image from elsewhere with no repository in it at all (a WORKDIR that is no work tree). */
export async function buildNoRepoImage(tag = 'example/no-repo:1.0'): Promise<{ tag: string }> {
  await dockerBuild(mkdtempSync(join(tmpdir(), 'bugbench-norepo-')), tag, ['FROM bugbench/base:bookworm', NOT_OURS, 'WORKDIR /srv'].join('\n'));
  return { tag };
}

/**
 * A Multi-SWE-bench Go image (their Dockerfiles: `FROM golang`, the repository
 * cloned to /home/<repo>, WORKDIR there): Go on PATH only through the image's
 * ENV, as the official golang images put it, and no python3 at all; an
 * ENTRYPOINT of /bin/bash, as images made to be entered interactively carry
 * (a container started with its own command behind it would end at once).
 * The repository is the ratekit sample, with history past HEAD as above.
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
      'ENTRYPOINT ["/bin/bash"]',
    ].join('\n'),
  );
  return { tag, head };
}

/**
 * An R2E-Gym image of the slotsmith sample (see the top of this file);
 * returns its tag and HEAD. pytest is only in the virtual environment: the
 * system's python3, first on a login shell's PATH, cannot run the tests. It
 * keeps the labels of the base it is made from (bugbench.base).
 */
export async function buildR2eGymLookalike(tag = 'namanjain12/slotsmith_final:r2e-1'): Promise<{ tag: string; head: string }> {
  const context = mkdtempSync(join(tmpdir(), 'bugbench-r2e-'));
  const head = await repoWithFuture('slotsmith', join(context, 'testbed'));
  writeFileSync(join(context, 'run_tests.sh'), '#!/bin/bash\n.venv/bin/python -W ignore -m pytest -rA\n');
  await dockerBuild(
    context,
    tag,
    [
      // The base's labels stay, as on an image a user makes FROM bugbench/base: it is still not bugbench's and is adopted.
      'FROM bugbench/base:bookworm',
      'COPY testbed /testbed',
      'WORKDIR /testbed',
      // uv venv: the environment inside the work tree, ignored by git through its own .gitignore; the packages move into it.
      'RUN python3 -m venv --without-pip /testbed/.venv && mv /usr/lib/python3/dist-packages/* /testbed/.venv/lib/python3.11/site-packages/ \\',
      " && printf '# created by uv automatically\\n*\\n' > /testbed/.venv/.gitignore",
      'COPY run_tests.sh /testbed/run_tests.sh',
      'ENV VIRTUAL_ENV=/testbed/.venv PATH=/testbed/.venv/bin:/root/.local/bin:$PATH',
    ].join('\n'),
  );
  return { tag, head };
}

/**
 * Removes the adoption snapshots (bugbench/adopted-*) recorded in the
 * workspace `home`, and the images `tags`: what a test that adopts made.
 */
export async function removeAdoptions(home: string, tags: string[] = []): Promise<void> {
  const records = join(home, 'adopted-images.json');
  const snapshots = existsSync(records) ? ((JSON.parse(readFileSync(records, 'utf8')) as { images?: { runImage: string }[] }).images ?? []).map((r) => r.runImage) : [];
  const doomed = [...new Set([...snapshots, ...tags])];
  if (doomed.length > 0) await execa('docker', ['rmi', '-f', ...doomed], { reject: false });
}
