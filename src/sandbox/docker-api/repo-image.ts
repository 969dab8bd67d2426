/**
 * Repo images: a repository's committed tree and full history at /repo, on the
 * base image of its language (or on an image that already holds its
 * dependencies), with its dependencies fetched while the image is built,
 * labelled so bugbench can find them and knows how to run their tests.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type Docker from 'dockerode';
import type { ContainerEngine } from '../port.js';
import { dockerOf } from './engine.js';
import { execa } from 'execa';
import { DependencyStepError, FolderNotFoundError, ImageNotFoundError, NotAGitRepoError } from '../../errors.js';
import type { Progress } from '../../progress.js';
import { splitTag } from './base-image.js';
import { hostCaBundle, runBuildStep, STEP_CA_PATH, STEP_TIMEOUT_MS, stepScript, type BuildSteps } from './dependency-step.js';
import { imageExists } from './client.js';
import { enginesWarning } from './engines-field.js';
import { detectLanguage, type Language, type RepoFiles } from '../languages.js';
import { LABEL_RUN, ownerLabels } from '../owner.js';
import { packFiles } from '../tar.js';
import { ensureLanguageBase } from './toolchain-base.js';

import { LABEL_COMMIT, LABEL_LANGUAGE, LABEL_REPO, LABEL_SETUP, LABEL_SOURCE, LABEL_TEST_CMD, LABEL_WARNING } from '../labels.js';
import { repoImageTag } from '../image-names.js';

export { LABEL_COMMIT, LABEL_LANGUAGE, LABEL_REPO, LABEL_SETUP, LABEL_SOURCE, LABEL_TEST_CMD } from '../labels.js';

export interface BuildImageOptions {
  dir: string;
  tag?: string;
  from?: string;
  /** The build-time dependency step; undefined: the language's own, '': none. */
  setup?: string;
  /** The test command to record; undefined: the one detected. */
  testCommand?: string;
  /** Extra labels (the sample builder records the patch series digest). */
  labels?: Record<string, string>;
  progress: Progress;
}

export interface BuiltImage {
  id: string;
  tag: string;
  repo: string;
  commit: string;
  testCommand: string;
  /** The language detected ('' when none was recognised). */
  language: string;
  /** What may keep the tests from running in it (package.json's engines field not met), also in its bugbench.warning label. */
  warning?: string;
}

/** A docker-safe repository name from a folder name. */
export function repoNameFrom(dir: string): string {
  const name = basename(resolve(dir))
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, '');
  return name || 'repo';
}

export function defaultTag(repo: string): string {
  return repoImageTag(repo);
}

/**
 * A default test command from the repository's files (the language table
 * decides). Empty when nothing says how tests run.
 */
export function detectTestCommand(files: string[], read: (path: string) => string | undefined): string {
  const repo = { files, read };
  return detectLanguage(repo)?.testCommand(repo) ?? '';
}

/** The tracked files of a checkout and a reader for them: what the language table looks at. */
async function repoFiles(dir: string): Promise<RepoFiles> {
  const listed = (await execa('git', ['-C', dir, '-c', 'core.quotePath=false', 'ls-files', '-z'])).stdout;
  return {
    files: listed.split('\0').filter(Boolean),
    read: (path) => {
      try {
        return readFileSync(join(dir, path), 'utf8');
      } catch {
        return undefined;
      }
    },
  };
}

/** The steps run while building: `--setup` replaces the language's dependency step; compiling ahead follows either. */
export function buildSteps(language: Language | undefined, repo: RepoFiles, setup: string | undefined): BuildSteps {
  return { setup: setup ?? language?.dependencyStep(repo) ?? '', warm: language?.warmStep?.(repo) ?? '' };
}

async function git(dir: string, args: string[]): Promise<string> {
  const result = await execa('git', ['-C', dir, ...args]);
  return result.stdout.trim();
}

/** The top folder and HEAD commit of a git repository, or FolderNotFoundError / NotAGitRepoError. */
export async function inspectRepo(dir: string): Promise<{ root: string; commit: string; dirty: boolean }> {
  if (!existsSync(dir)) throw new FolderNotFoundError(dir);
  try {
    const root = await git(dir, ['rev-parse', '--show-toplevel']);
    const commit = await git(dir, ['rev-parse', '--verify', 'HEAD^{commit}']);
    const dirty = (await git(dir, ['status', '--porcelain', '--untracked-files=no'])) !== '';
    return { root, commit, dirty };
  } catch {
    throw new NotAGitRepoError(dir);
  }
}

export async function buildRepoImage(engine: ContainerEngine, options: BuildImageOptions): Promise<BuiltImage> {
  const docker = dockerOf(engine);
  const { progress } = options;
  const { root, commit, dirty } = await inspectRepo(options.dir);
  const repo = repoNameFrom(root);
  const tag = options.tag ?? defaultTag(repo);
  if (options.from && !(await imageExists(docker, options.from))) throw new ImageNotFoundError(options.from);
  if (dirty) progress(`note: ${root} has uncommitted changes; the image holds the committed HEAD ${commit.slice(0, 12)}`);

  const work = mkdtempSync(join(tmpdir(), 'bugbench-build-'));
  let container: Docker.Container | undefined;
  try {
    progress(`cloning ${root} at ${commit.slice(0, 12)} with its history`);
    const clone = join(work, 'repo');
    await execa('git', ['clone', '--quiet', '--no-hardlinks', root, clone]);
    const branch = (await execa('git', ['-C', root, 'branch', '--show-current'], { reject: false })).stdout.trim() || 'main';
    await execa('git', ['-C', clone, 'checkout', '--quiet', '-B', branch, commit]);
    await execa('git', ['-C', clone, 'remote', 'remove', 'origin']);
    const files = await repoFiles(clone);
    const language = detectLanguage(files);
    const testCommand = options.testCommand ?? language?.testCommand(files) ?? '';
    const steps = buildSteps(language, files, options.setup);
    const script = stepScript(steps);
    progress(`language: ${language?.name ?? 'not recognised'}${steps.setup ? `; dependencies: \`${steps.setup}\`` : ''}`);
    // The base of the language is built when it is missing; an image given with --from is used as it is.
    const from = options.from ?? (await ensureLanguageBase(engine, language, progress));
    if (!(await imageExists(docker, from))) throw new ImageNotFoundError(from);
    const warning = await enginesWarning(docker, from, files.read('package.json'));
    if (warning) progress(`warning: ${warning}`);

    container = await docker.createContainer({
      Image: from,
      Cmd: script ? ['bash', '-c', script] : ['bash'],
      WorkingDir: '/repo',
      Labels: {
        ...options.labels,
        // The build container carries the owner labels too, so a build that dies leaves nothing for long;
        // the committed image gets them cleared again below.
        [LABEL_RUN]: `build-${repo}`,
        ...ownerLabels(),
        [LABEL_REPO]: repo,
        [LABEL_COMMIT]: commit,
        [LABEL_TEST_CMD]: testCommand,
        [LABEL_SOURCE]: root,
        [LABEL_LANGUAGE]: language?.id ?? '',
        ...(steps.setup ? { [LABEL_SETUP]: steps.setup } : {}),
      },
      // The network is on only for the build step (registries of npm, Go, cargo), through the host's:
      // the engine may have no bridge network. Test runs later get none.
      ...(script ? { HostConfig: { NetworkMode: 'host' } } : {}),
    });
    progress(`copying the repository into ${from}`);
    const tar = execa('tar', ['-C', work, '--numeric-owner', '--owner=0', '--group=0', '-c', 'repo'], {
      buffer: false,
      stdout: 'pipe',
    });
    try {
      await container.putArchive(tar.stdout!, { path: '/' });
    } finally {
      if (tar.exitCode === null) tar.kill();
      await tar.catch(() => undefined);
    }
    if (script) {
      const ca = hostCaBundle();
      if (ca) await container.putArchive(await packFiles([{ name: STEP_CA_PATH.slice(1), content: ca }]), { path: '/' });
      progress(`installing dependencies in ${from} (network on for this step only)`);
      const outcome = await runBuildStep(docker, container, progress);
      if (outcome.exitCode !== 0 || outcome.timedOut) {
        const tail = outcome.timedOut ? `stopped after ${STEP_TIMEOUT_MS / 60_000} minutes` : outcome.tail;
        throw new DependencyStepError(steps.setup || steps.warm, from, outcome.exitCode, tail);
      }
    }
    progress(`committing ${tag}`);
    const [imageRepo, imageTag] = splitTag(tag);
    const clearOwner = [...[LABEL_RUN, ...Object.keys(ownerLabels())].map((label) => `LABEL ${label}=`), `LABEL ${LABEL_WARNING}=${JSON.stringify(warning ?? '')}`];
    const changes = script ? [...clearOwner, 'CMD ["bash"]'] : clearOwner;
    const committed = (await container.commit({ repo: imageRepo, tag: imageTag, comment: `bugbench image of ${repo}`, changes })) as {
      Id: string;
    };
    progress(`built ${tag} (${repo} at ${commit.slice(0, 12)}, ${language?.name ?? 'language not recognised'}, tests: ${testCommand || 'not detected'})`);
    return { id: committed.Id, tag, repo, commit, testCommand, language: language?.id ?? '', ...(warning ? { warning } : {}) };
  } finally {
    await container?.remove({ force: true }).catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
  }
}
