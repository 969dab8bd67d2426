/**
 * Reading repo images: what the labels of an image bugbench built say about
 * the repository in it, and the list of them all. Building one is
 * repo-image.ts; commands that only read (check, inject, the Images screen)
 * load this alone.
 */
import { posix } from 'node:path';
import { ImageNotAdoptedError, ImageNotFoundError } from '../errors.js';
import { adoptedById, builtByBugbench, readAdoptedImages, type AdoptedImage } from './adopted-images.js';
import { canonicalImageName, recordedImageName, splitTag } from './image-names.js';
import { LABEL_COMMIT, LABEL_LANGUAGE, LABEL_REPO, LABEL_TEST_CMD, LABEL_WARNING } from './labels.js';
import { languageOfImage } from './languages.js';
import type { ContainerEngine } from './port.js';
import { REPO_DIR } from './sandbox.js';

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
  /** `bugbench.language` ('' when unknown; listRepoImages always fills it in). */
  language?: string;
  /** A warning found while building it (package.json's engines field not met by its Node, from `bugbench.warning`) or adopting it. */
  warning?: string;
  /** Where the repository is in it (absent: /repo, as in the images bugbench builds). */
  root?: string;
  /** The user commands run as (absent: root, as in bugbench's images). */
  user?: string;
  /** An image bugbench did not build and runs as it is (adopted-images.ts). */
  adopted?: boolean;
}

export interface RepoImageFacts {
  imageId: string;
  repo: string;
  /** The commit the image holds at its root. */
  commit: string;
  testCommand: string;
  language: string;
  /** Where the repository is. */
  root: string;
  adopted: boolean;
}

/** The name of an adopted image's repository: its root's last folder (/testbed is no name), else the image's. */
export function adoptedRepoName(record: AdoptedImage): string {
  const folder = slug(posix.basename(record.world.root));
  if (folder && !['testbed', 'repo', 'app', 'workspace', 'src'].includes(folder)) return folder;
  const [name] = splitTag(record.image);
  // SWE-bench's `sweb.eval.<arch>.<owner>__<repo>-<n>`, SWE-smith's `swesmith.<arch>.<owner>__<repo>.<commit>`; on Docker
  // Hub, which takes no double underscore, `__` is written `_1776_`.
  return slug(posix.basename(name).replace(/^(sweb\.eval|swesmith)\.[^.]+\./, '').replace(/(__|_1776_).*$/, '')) || 'repo';
}

/** A name fit for a bug id and a folder: runs of anything but letters, digits, `.`, `_` and `-` become one `-`. */
function slug(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '');
}

/**
 * What bugbench knows of the repository in an image: from its labels if
 * bugbench built it, from its adoption record if it was adopted;
 * ImageNotFoundError or ImageNotAdoptedError otherwise.
 */
export async function inspectRepoImage(engine: ContainerEngine, image: string): Promise<RepoImageFacts> {
  const info = await engine.inspectImage(image);
  if (!info) throw new ImageNotFoundError(image);
  const { labels } = info;
  // An adoption first: an image made FROM one bugbench built carries its labels, and is adopted when it moved the repository.
  const record = adoptedById(info.id);
  if (record) return { imageId: info.id, repo: adoptedRepoName(record), commit: record.commit, testCommand: record.testCommand, language: record.language, root: record.world.root, adopted: true };
  if (!builtByBugbench(labels)) throw new ImageNotAdoptedError(image);
  const testCommand = labels[LABEL_TEST_CMD] ?? '';
  return {
    imageId: info.id,
    repo: labels[LABEL_REPO] ?? 'repo',
    commit: labels[LABEL_COMMIT] ?? '',
    testCommand,
    language: languageOfImage(labels[LABEL_LANGUAGE], testCommand),
    root: REPO_DIR,
    adopted: false,
  };
}

/** Bugs of one image by status: the counts `listRepoImages` joins to each image. */
export type StatusCounts = Record<string, number>;

const PASSED = ['valid', 'accepted'];

/** Every tagged image that carries a `bugbench.repo` label, newest first, with its bugs counted from `bugCounts`. */
export async function listRepoImages(engine: ContainerEngine, bugCounts: Map<string, StatusCounts> = new Map()): Promise<RepoImage[]> {
  const images = await engine.listImages(LABEL_REPO);
  const rows: RepoImage[] = [];
  for (const image of images) {
    const { labels } = image;
    // An untagged image is a build a newer one replaced: nothing can name it to start a run.
    // Podman lists `localhost/<name>`: shown as the name it was built with.
    const tags = [...new Set(image.tags.map(canonicalImageName))];
    for (const tag of tags) {
      rows.push({
        id: image.id,
        tag,
        repo: labels[LABEL_REPO] ?? '',
        commit: labels[LABEL_COMMIT] ?? '',
        created: new Date(image.created * 1000).toISOString(),
        sizeBytes: image.sizeBytes,
        bugs: PASSED.reduce((sum, status) => sum + (bugCounts.get(tag)?.[status] ?? 0), 0),
        bugCounts: bugCounts.get(tag) ?? {},
        testCommand: labels[LABEL_TEST_CMD] ?? '',
        language: languageOfImage(labels[LABEL_LANGUAGE], labels[LABEL_TEST_CMD] ?? ''),
        ...(labels[LABEL_WARNING] ? { warning: labels[LABEL_WARNING] } : {}),
        root: REPO_DIR,
        user: '',
        adopted: false,
      });
    }
  }
  // Adopted images still on this engine, beside the built ones.
  for (const record of readAdoptedImages()) {
    const info = await engine.inspectImage(record.image);
    if (!info || info.id !== record.imageId) continue;
    rows.push({
      id: record.imageId,
      tag: record.image,
      repo: adoptedRepoName(record),
      commit: record.commit,
      created: record.adoptedAt,
      sizeBytes: info.sizeBytes,
      bugs: PASSED.reduce((sum, status) => sum + (bugCounts.get(recordedImageName(record.image))?.[status] ?? 0), 0),
      bugCounts: bugCounts.get(recordedImageName(record.image)) ?? {},
      testCommand: record.testCommand,
      language: record.language,
      ...(record.warning ? { warning: record.warning } : {}),
      root: record.world.root,
      user: record.userName || record.world.user || (record.world.uid === 0 ? 'root' : `uid ${record.world.uid}`),
      adopted: true,
    });
  }
  return rows.sort((a, b) => b.created.localeCompare(a.created) || a.tag.localeCompare(b.tag));
}
