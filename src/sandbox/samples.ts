/**
 * The bundled sample repositories. Each lives in data/samples/<name>/ as a
 * patch series; replaying it with `git am` (committer and dates fixed) gives the
 * same commit ids everywhere. Sample images are built from the replayed
 * repository by the same code as `bugbench images build`.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { execa } from 'execa';
import { SAMPLES_DIR, workspacePath } from '../paths.js';
import type { Progress } from '../progress.js';
import { buildRepoImage } from './repo-image.js';

export const LABEL_SAMPLE_DIGEST = 'bugbench.sample-digest';

export interface Sample {
  name: string;
  description: string;
  testCommand: string;
  patchDir: string;
  patches: string[];
}

export function listSamples(dir: string = SAMPLES_DIR): Sample[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, 'sample.json')))
    .map((e) => {
      const meta = JSON.parse(readFileSync(join(dir, e.name, 'sample.json'), 'utf8')) as Partial<Sample>;
      const patchDir = join(dir, e.name, 'patches');
      const patches = readdirSync(patchDir)
        .filter((f) => f.endsWith('.patch'))
        .sort()
        .map((f) => join(patchDir, f));
      return {
        name: meta.name ?? e.name,
        description: meta.description ?? '',
        testCommand: meta.testCommand ?? '',
        patchDir,
        patches,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

export function sampleImageTag(name: string): string {
  return `bugbench/repo-${name}:latest`;
}

/** A digest of the patch series: an image built from the same series carries the same one. */
export function sampleDigest(sample: Sample): string {
  const hash = createHash('sha256');
  for (const patch of sample.patches) hash.update(readFileSync(patch));
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

export async function sampleImageStatus(docker: Docker, sample: Sample): Promise<SampleImageStatus> {
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
export async function ensureSampleImages(docker: Docker, progress: Progress): Promise<void> {
  for (const sample of listSamples()) {
    if ((await sampleImageStatus(docker, sample)).ok) continue;
    const dest = workspacePath('samples', sample.name);
    progress(`replaying sample ${sample.name} (${sample.patches.length} commits) into ${dest}`);
    await replaySample(sample, dest);
    await buildRepoImage(docker, {
      dir: dest,
      tag: sampleImageTag(sample.name),
      labels: { [LABEL_SAMPLE_DIGEST]: sampleDigest(sample) },
      progress,
    });
  }
}
