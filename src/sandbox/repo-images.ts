/**
 * Reading repo images: what the labels of an image bugbench built say about
 * the repository in it, and the list of them all. Building one is
 * repo-image.ts; commands that only read (check, inject, the Images screen)
 * load this alone.
 */
import { ImageNotFoundError } from '../errors.js';
import { canonicalImageName } from './image-names.js';
import { LABEL_COMMIT, LABEL_LANGUAGE, LABEL_REPO, LABEL_TEST_CMD, LABEL_WARNING } from './labels.js';
import { languageOfImage } from './languages.js';
import type { ContainerEngine } from './port.js';

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
  /** A warning found while building it (package.json's engines field not met by its Node), from `bugbench.warning`. */
  warning?: string;
}

export interface RepoImageFacts {
  imageId: string;
  repo: string;
  /** The commit the image holds at /repo ('' when the image was not built by bugbench). */
  commit: string;
  testCommand: string;
  language: string;
}

/** What an image's labels say about the repository in it; ImageNotFoundError if there is no such image. */
export async function inspectRepoImage(engine: ContainerEngine, image: string): Promise<RepoImageFacts> {
  const info = await engine.inspectImage(image);
  if (!info) throw new ImageNotFoundError(image);
  const { labels } = info;
  const testCommand = labels[LABEL_TEST_CMD] ?? '';
  return {
    imageId: info.id,
    repo: labels[LABEL_REPO] ?? 'repo',
    commit: labels[LABEL_COMMIT] ?? '',
    testCommand,
    language: languageOfImage(labels[LABEL_LANGUAGE], testCommand),
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
      });
    }
  }
  return rows.sort((a, b) => b.created.localeCompare(a.created) || a.tag.localeCompare(b.tag));
}
