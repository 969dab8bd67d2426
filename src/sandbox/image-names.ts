/**
 * Image names as bugbench writes them, whatever the engine lists. Podman has
 * no default registry: an image built or loaded as `bugbench/repo-x:latest`
 * is listed as `localhost/bugbench/repo-x:latest` (and may come from an
 * archive as `docker.io/bugbench/repo-x:latest`), while a lookup by the short
 * name still finds it. Docker lists the short name and would treat
 * `localhost/…` as another image. Listings and copies compare names in the
 * short form.
 */

const LOCAL_PREFIXES = ['localhost/', 'docker.io/library/', 'docker.io/'];

/** `localhost/bugbench/x:latest`, `docker.io/bugbench/x` → `bugbench/x:latest`. */
export function canonicalImageName(name: string): string {
  let short = name.trim();
  const prefix = LOCAL_PREFIXES.find((p) => short.startsWith(p));
  if (prefix) short = short.slice(prefix.length);
  if (!short.includes('@') && !/:[^/]+$/.test(short)) short += ':latest';
  return short;
}

/**
 * The name a run records for an image a user named: `bugbench/repo-x` and
 * `bugbench/repo-x:latest` are one image, and its bugs are filed under one
 * name. An image id (`918e3a657245`, `sha256:…`) stays as it is.
 */
export function recordedImageName(name: string): string {
  const trimmed = name.trim();
  return /^[0-9a-f]{12,64}$/.test(trimmed) ? trimmed : canonicalImageName(trimmed);
}

export function sameImageName(a: string, b: string): boolean {
  return canonicalImageName(a) === canonicalImageName(b);
}

/** Repository and tag of a name (`a/b:1` → [`a/b`, `1`]; no tag → `latest`). */
export function splitImageName(name: string): [string, string] {
  const short = canonicalImageName(name);
  const colon = short.lastIndexOf(':');
  return [short.slice(0, colon), short.slice(colon + 1)];
}

/** `repo:tag` → [repo, tag] (a registry port is not a tag; no tag is `latest`). */
export function splitTag(image: string): [string, string] {
  const slash = image.lastIndexOf('/');
  const colon = image.lastIndexOf(':');
  return colon > slash ? [image.slice(0, colon), image.slice(colon + 1)] : [image, 'latest'];
}

/** What every image bugbench builds of a repository is called before the repository's name. */
const REPO_IMAGE_PREFIX = 'bugbench/repo-';

/** The tag of the image bugbench builds of a repository (or a bundled sample) named `repo`. */
export function repoImageTag(repo: string): string {
  return `${REPO_IMAGE_PREFIX}${repo}:latest`;
}

/**
 * An image by the shortest name that tells it apart where room is short:
 * bugbench's own `bugbench/repo-ratekit:latest` is `ratekit`; another is the
 * last part of its name, its tag kept unless it is `latest`.
 */
export function shortImageName(image: string): string {
  const [repository, tag] = splitImageName(image);
  const name = repository.startsWith(REPO_IMAGE_PREFIX) ? repository.slice(REPO_IMAGE_PREFIX.length) : repository.slice(repository.lastIndexOf('/') + 1);
  return tag === 'latest' ? name : `${name}:${tag}`;
}

/** bugbench's base image: Debian with python3, pytest and git (docker-api/base-image.ts builds it). */
export const BASE_IMAGE = process.env.BUGBENCH_BASE_IMAGE || 'bugbench/base:bookworm';
