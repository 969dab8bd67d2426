/**
 * Toolchain bases: the Python base plus one language's Debian packages, built
 * by the engine from a short Dockerfile with host networking (apt-get needs the
 * mirror; this machine's engine may have no bridge network), cached and built
 * again only when the recipe changes: the image carries a digest of the
 * Dockerfile it was built from.
 */
import { createHash } from 'node:crypto';
import type { ContainerEngine } from '../port.js';
import { dockerOf } from './engine.js';
import { errorMessage, ToolchainBaseError } from '../../errors.js';
import type { Progress } from '../../progress.js';
import { BASE_IMAGE, ensureBaseImage, hostDebianMirror } from './base-image.js';
import { followBuild, StepLines } from './build-output.js';
import { isNotFound } from '../engine-errors.js';
import type { BaseRecipe, Language } from '../languages.js';
import { packFiles } from '../tar.js';
import { LABEL_TOOLCHAIN } from '../labels.js';

export const LABEL_BASE_RECIPE = 'bugbench.base-recipe';

/** The image a language's repositories are built on: its toolchain base, or the Python base. */
export function baseImageFor(language: Language | undefined): string {
  return language?.base?.tag ?? BASE_IMAGE;
}

/**
 * The Dockerfile of a toolchain base. The mirror comes in as a build argument
 * read from this machine's apt sources when the build runs, so it is not part
 * of the recipe (nor of its digest).
 */
export function baseDockerfile(id: string, recipe: BaseRecipe, parent: string = BASE_IMAGE): string {
  const trim = recipe.trim?.length ? `; rm -rf ${recipe.trim.join(' ')}` : '';
  const lines = [
    `FROM ${parent}`,
    'ARG DEBIAN_MIRROR',
    [
      'RUN set -e; export DEBIAN_FRONTEND=noninteractive',
      'if [ -n "$DEBIAN_MIRROR" ]; then echo "deb $DEBIAN_MIRROR bookworm main" > /etc/apt/sources.list; fi',
      'apt-get update',
      // No fsync per file: a build that dies is thrown away whole anyway (node's 360 packages: 99 s -> 71 s here).
      `apt-get install -y -o Dpkg::Options::=--force-unsafe-io --no-install-recommends ${recipe.packages.join(' ')}`,
      `apt-get clean; rm -rf /var/lib/apt/lists/*${trim}`,
    ].join('; \\\n    '),
    ...Object.entries(recipe.env ?? {}).map(([key, value]) => `ENV ${key}=${value}`),
    `LABEL ${LABEL_TOOLCHAIN}=${id}`,
  ];
  return `${lines.join('\n')}\n`;
}

export function recipeDigest(id: string, recipe: BaseRecipe): string {
  return createHash('sha256').update(baseDockerfile(id, recipe)).digest('hex').slice(0, 16);
}

export type BaseState = 'ready' | 'stale' | 'missing';

export interface ToolchainBaseStatus {
  language: string;
  tag: string;
  state: BaseState;
}

/** Whether a toolchain base is there and was built from the recipe in this version of bugbench. */
export async function toolchainBaseStatus(engine: ContainerEngine, language: Language & { base: BaseRecipe }): Promise<ToolchainBaseStatus> {
  const docker = dockerOf(engine);
  const { tag } = language.base;
  try {
    const info = await docker.getImage(tag).inspect();
    const digest = info.Config?.Labels?.[LABEL_BASE_RECIPE];
    return { language: language.id, tag, state: digest === recipeDigest(language.id, language.base) ? 'ready' : 'stale' };
  } catch (error) {
    if (isNotFound(error)) return { language: language.id, tag, state: 'missing' };
    throw error;
  }
}

/** Builds in flight in this process, so two callers asking for the same base share one build. */
const building = new Map<string, Promise<string>>();

/**
 * The base image for `language`, built first when it is missing or its recipe
 * changed. The Python base is only checked for, as `images build` always did.
 */
export async function ensureLanguageBase(engine: ContainerEngine, language: Language | undefined, progress: Progress): Promise<string> {
  const base = language?.base;
  if (!language || !base) return BASE_IMAGE;
  const toolchain = { ...language, base };
  if ((await toolchainBaseStatus(engine, toolchain)).state === 'ready') return base.tag;
  let build = building.get(base.tag);
  if (!build) {
    build = buildToolchainBase(engine, toolchain, progress).finally(() => building.delete(base.tag));
    building.set(base.tag, build);
  }
  return build;
}

async function buildToolchainBase(engine: ContainerEngine, language: Language & { base: BaseRecipe }, progress: Progress): Promise<string> {
  const docker = dockerOf(engine);
  const { tag, packages, holds } = language.base;
  const state = (await toolchainBaseStatus(engine, language)).state;
  if (state === 'ready') return tag;
  try {
    await ensureBaseImage(engine, progress);
  } catch (error) {
    throw new ToolchainBaseError(tag, `its parent ${BASE_IMAGE} is missing and could not be built (${errorMessage(error)})`, holds);
  }
  const started = Date.now();
  const why = state === 'stale' ? 'its recipe changed' : 'not built yet';
  progress(`building ${tag} (${why}): ${packages.join(', ')} on ${BASE_IMAGE}, from Debian packages`);
  const dockerfile = baseDockerfile(language.id, language.base);
  const context = await packFiles([{ name: 'Dockerfile', content: Buffer.from(dockerfile) }]);
  const mirror = hostDebianMirror();
  // apt's lists of package names (indented lines) say nothing while waiting.
  const lines = new StepLines(25, 60, /^\s+\S/);
  try {
    const stream = await docker.buildImage(context as unknown as NodeJS.ReadableStream, {
      t: tag,
      // apt-get reaches the mirror through the host's network: the engine may have no bridge network.
      networkmode: 'host',
      buildargs: mirror ? { DEBIAN_MIRROR: mirror } : {},
      labels: { [LABEL_BASE_RECIPE]: recipeDigest(language.id, language.base) },
      nocache: true,
      pull: false,
      rm: true,
      forcerm: true,
    });
    await followBuild(docker, stream, lines, progress);
  } catch (error) {
    const tail = lines.lastLines(400);
    throw new ToolchainBaseError(tag, `${errorMessage(error)}${tail ? ` (last output: ${tail})` : ''}`, holds);
  }
  const size = (await docker.getImage(tag).inspect()).Size;
  progress(`${tag} is ready: ${holds}; built in ${((Date.now() - started) / 1000).toFixed(0)} s, ${(size / 1e6).toFixed(0)} MB`);
  return tag;
}
