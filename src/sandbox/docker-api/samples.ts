/**
 * The bundled sample repositories. Each lives in data/samples/<name>/ as a
 * patch series; replaying it with `git am` (committer and dates fixed) gives the
 * same commit ids everywhere. Sample images are built from the replayed
 * repository by the same code as `bugbench images build`.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ContainerEngine } from '../port.js';
import { dockerOf } from './engine.js';
import { execa } from 'execa';
import { SAMPLES_DIR, workspacePath } from '../../paths.js';
import type { Progress } from '../../progress.js';
import { detectLanguage, languageById, type Language } from '../languages.js';
import { buildRepoImage } from './repo-image.js';
import { recipeDigest } from './toolchain-base.js';
import { repoImageTag } from '../image-names.js';

export const LABEL_SAMPLE_DIGEST = 'bugbench.sample-digest';

export interface Sample {
  name: string;
  description: string;
  testCommand: string;
  /** A languages.ts id: sample.json's `language`, else what the files the series adds say. */
  language: string;
  patchDir: string;
  patches: string[];
}

/** Every path a patch series touches, read from its `diff --git` lines. */
function pathsOfSeries(patches: string[]): string[] {
  const paths = new Set<string>();
  for (const patch of patches) {
    for (const match of readFileSync(patch, 'utf8').matchAll(/^diff --git a\/(\S+) b\/(\S+)$/gm)) paths.add(match[2]!);
  }
  return [...paths];
}

export function listSamples(dir: string = SAMPLES_DIR): Sample[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, 'sample.json')))
    .map((e) => {
      const meta = JSON.parse(readFileSync(join(dir, e.name, 'sample.json'), 'utf8')) as Partial<Sample>;
      // The sample's own files are not at hand before it is replayed: its language comes from the paths the series adds.
      const patchDir = join(dir, e.name, 'patches');
      const patches = readdirSync(patchDir)
        .filter((f) => f.endsWith('.patch'))
        .sort()
        .map((f) => join(patchDir, f));
      return {
        name: meta.name ?? e.name,
        description: meta.description ?? '',
        testCommand: meta.testCommand ?? '',
        language: meta.language ?? detectLanguage({ files: pathsOfSeries(patches), read: () => undefined })?.id ?? '',
        patchDir,
        patches,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

export function sampleImageTag(name: string): string {
  return repoImageTag(name);
}

/** The language entry of a sample, when it names one bugbench knows. */
export function sampleLanguage(sample: Sample): Language | undefined {
  return languageById(sample.language);
}

/**
 * A digest of the patch series, and of the toolchain base's recipe when the
 * sample has one: an image built from the same series on the same base
 * carries the same digest. (Python samples are built on the Python base,
 * whose recipe is not part of it.)
 */
export function sampleDigest(sample: Sample): string {
  const hash = createHash('sha256');
  for (const patch of sample.patches) hash.update(readFileSync(patch));
  const language = sampleLanguage(sample);
  if (language?.base) hash.update(`base ${recipeDigest(language.id, language.base)}`);
  return hash.digest('hex').slice(0, 16);
}

const COMMITTER = { name: 'bugbench samples', email: 'samples@bugbench.invalid' };

/** Replays the sample's patch series into `dest` (replaced if present); returns the HEAD commit. */
export async function replaySample(sample: Sample, dest: string): Promise<string> {
  const staging = `${dest}.staging-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const env = { GIT_COMMITTER_NAME: COMMITTER.name, GIT_COMMITTER_EMAIL: COMMITTER.email };
  const identity = ['-c', `user.name=${COMMITTER.name}`, '-c', `user.email=${COMMITTER.email}`, '-c', 'commit.gpgsign=false'];
  await execa('git', ['init', '-q', '-b', 'main'], { cwd: staging });
  for (const patch of sample.patches) {
    await execa('git', [...identity, 'am', '-q', '--committer-date-is-author-date', '--keep-cr', patch], {
      cwd: staging,
      env,
    });
  }
  rmSync(dest, { recursive: true, force: true });
  renameSync(staging, dest);
  return (await execa('git', ['rev-parse', 'HEAD'], { cwd: dest })).stdout.trim();
}

export interface SampleImageStatus {
  sample: string;
  tag: string;
  ok: boolean;
}

export async function sampleImageStatus(engine: ContainerEngine, sample: Sample): Promise<SampleImageStatus> {
  const docker = dockerOf(engine);
  const tag = sampleImageTag(sample.name);
  try {
    const info = await docker.getImage(tag).inspect();
    const digest = info.Config?.Labels?.[LABEL_SAMPLE_DIGEST];
    return { sample: sample.name, tag, ok: digest === sampleDigest(sample) };
  } catch {
    return { sample: sample.name, tag, ok: false };
  }
}

/** Builds every sample image that is missing or was built from another version of its patch series. */
export async function ensureSampleImages(engine: ContainerEngine, progress: Progress): Promise<void> {
  for (const sample of listSamples()) {
    if ((await sampleImageStatus(engine, sample)).ok) continue;
    const dest = workspacePath('samples', sample.name);
    progress(`replaying sample ${sample.name} (${sample.patches.length} commits) into ${dest}`);
    await replaySample(sample, dest);
    // The toolchain base the sample needs is built on the way, when missing (toolchain-base.ts).
    await buildRepoImage(engine, {
      dir: dest,
      tag: sampleImageTag(sample.name),
      testCommand: sample.testCommand || undefined,
      labels: { [LABEL_SAMPLE_DIGEST]: sampleDigest(sample) },
      progress,
    });
  }
}
