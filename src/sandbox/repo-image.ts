/**
 * Repo images: a repository's committed tree and full history at /repo, on the
 * base image (or on an image that already holds its dependencies), labelled so
 * bugbench can find them and knows how to run their tests.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type Docker from 'dockerode';
import { execa } from 'execa';
import { ImageNotFoundError, NotAGitRepoError } from '../errors.js';
import type { Progress } from '../progress.js';
import { BASE_IMAGE, splitTag } from './base-image.js';
import { imageExists, isNotFound } from './docker.js';
import { canonicalImageName } from './image-names.js';
import { LABEL_RUN, ownerLabels } from './owner.js';

import { LABEL_COMMIT, LABEL_REPO, LABEL_SOURCE, LABEL_TEST_CMD } from './labels.js';

export { LABEL_COMMIT, LABEL_REPO, LABEL_SOURCE, LABEL_TEST_CMD } from './labels.js';

export interface BuildImageOptions {
  dir: string;
  tag?: string;
  from?: string;
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
}

export interface RepoImage {
  id: string;
  tag: string;
  repo: string;
  commit: string;
  created: string;
  sizeBytes: number;
  /** Bugs on this image that passed their checks (valid or accepted). */
  bugs: number;
  /** Every bug on this image, by status. */
  bugCounts: Record<string, number>;
  testCommand: string;
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
  return `bugbench/repo-${repo}:latest`;
}

/**
 * A default test command from the files at the repository root (and one level
 * down for test folders). Empty when nothing says how tests run.
 */
export function detectTestCommand(files: string[], read: (path: string) => string | undefined): string {
  const has = (path: string) => files.includes(path);
  const pythonTests = files.some((f) => /(^|\/)(test_[^/]*|[^/]*_test)\.py$/.test(f));
  const pytestConfig =
    has('pytest.ini') ||
    has('conftest.py') ||
    /\[tool\.pytest/.test(read('pyproject.toml') ?? '') ||
    /\[tool:pytest\]/.test(read('setup.cfg') ?? '') ||
    /\[pytest\]/.test(read('tox.ini') ?? '');
  if (pytestConfig || pythonTests) return 'python3 -m pytest -rA';
  if (has('package.json')) {
    try {
      const manifest = JSON.parse(read('package.json') ?? '{}') as { scripts?: Record<string, string> };
      if (manifest.scripts?.test) return 'npm test';
    } catch {
      // not JSON: not a node project we can run
    }
  }
  if (has('go.mod')) return 'go test -v ./...';
  if (has('Cargo.toml')) return 'cargo test';
  return '';
}

/** Files at the root and in test folders (two levels), enough for detectTestCommand. */
function listForDetection(root: string): string[] {
  const files: string[] = [];
  const walk = (rel: string, depth: number) => {
    for (const entry of readdirSync(join(root, rel), { withFileTypes: true })) {
      if (entry.name === '.git') continue;
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (depth < 2 && (depth === 0 || /test/i.test(rel))) walk(path, depth + 1);
      } else files.push(path);
    }
  };
  walk('', 0);
  return files;
}

async function git(dir: string, args: string[]): Promise<string> {
  const result = await execa('git', ['-C', dir, ...args]);
  return result.stdout.trim();
}

/** The top folder and HEAD commit of a git repository, or NotAGitRepoError. */
export async function inspectRepo(dir: string): Promise<{ root: string; commit: string; dirty: boolean }> {
  if (!existsSync(dir)) throw new NotAGitRepoError(dir);
  try {
    const root = await git(dir, ['rev-parse', '--show-toplevel']);
    const commit = await git(dir, ['rev-parse', '--verify', 'HEAD^{commit}']);
    const dirty = (await git(dir, ['status', '--porcelain', '--untracked-files=no'])) !== '';
    return { root, commit, dirty };
  } catch {
    throw new NotAGitRepoError(dir);
  }
}

export async function buildRepoImage(docker: Docker, options: BuildImageOptions): Promise<BuiltImage> {
  const { progress } = options;
  const { root, commit, dirty } = await inspectRepo(options.dir);
  const repo = repoNameFrom(root);
  const tag = options.tag ?? defaultTag(repo);
  const from = options.from ?? BASE_IMAGE;
  if (!(await imageExists(docker, from))) throw new ImageNotFoundError(from);
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
    const testCommand = detectTestCommand(listForDetection(clone), (path) => {
      try {
        return readFileSync(join(clone, path), 'utf8');
      } catch {
        return undefined;
      }
    });

    container = await docker.createContainer({
      Image: from,
      Cmd: ['bash'],
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
      },
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
    progress(`committing ${tag}`);
    const [imageRepo, imageTag] = splitTag(tag);
    const clearOwner = [LABEL_RUN, ...Object.keys(ownerLabels())].map((label) => `LABEL ${label}=`);
    const committed = (await container.commit({ repo: imageRepo, tag: imageTag, comment: `bugbench image of ${repo}`, changes: clearOwner })) as {
      Id: string;
    };
    progress(`built ${tag} (${repo} at ${commit.slice(0, 12)}, tests: ${testCommand || 'not detected'})`);
    return { id: committed.Id, tag, repo, commit, testCommand };
  } finally {
    await container?.remove({ force: true }).catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
  }
}

export interface RepoImageFacts {
  imageId: string;
  repo: string;
  /** The commit the image holds at /repo ('' when the image was not built by bugbench). */
  commit: string;
  testCommand: string;
}

/** What an image's labels say about the repository in it; ImageNotFoundError if there is no such image. */
export async function inspectRepoImage(docker: Docker, image: string): Promise<RepoImageFacts> {
  let info: Docker.ImageInspectInfo;
  try {
    info = await docker.getImage(image).inspect();
  } catch (error) {
    if (isNotFound(error)) throw new ImageNotFoundError(image);
    throw error;
  }
  const labels = info.Config?.Labels ?? {};
  return { imageId: info.Id, repo: labels[LABEL_REPO] ?? 'repo', commit: labels[LABEL_COMMIT] ?? '', testCommand: labels[LABEL_TEST_CMD] ?? '' };
}

/** Bugs of one image by status: the counts `listRepoImages` joins to each image. */
export type StatusCounts = Record<string, number>;

const PASSED = ['valid', 'accepted'];

/** Every tagged image that carries a `bugbench.repo` label, newest first, with its bugs counted from `bugCounts`. */
export async function listRepoImages(docker: Docker, bugCounts: Map<string, StatusCounts> = new Map()): Promise<RepoImage[]> {
  const images = await docker.listImages({ filters: { label: [LABEL_REPO] } });
  const rows: RepoImage[] = [];
  for (const image of images) {
    const labels = image.Labels ?? {};
    // An untagged image is a build a newer one replaced: nothing can name it to start a run.
    // Podman lists `localhost/<name>`: shown as the name it was built with.
    const tags = [...new Set((image.RepoTags ?? []).filter((t) => t !== '<none>:<none>').map(canonicalImageName))];
    for (const tag of tags) {
      rows.push({
        id: image.Id,
        tag,
        repo: labels[LABEL_REPO] ?? '',
        commit: labels[LABEL_COMMIT] ?? '',
        created: new Date(image.Created * 1000).toISOString(),
        sizeBytes: image.Size,
        bugs: PASSED.reduce((sum, status) => sum + (bugCounts.get(tag)?.[status] ?? 0), 0),
        bugCounts: bugCounts.get(tag) ?? {},
        testCommand: labels[LABEL_TEST_CMD] ?? '',
      });
    }
  }
  return rows.sort((a, b) => b.created.localeCompare(a.created) || a.tag.localeCompare(b.tag));
}
