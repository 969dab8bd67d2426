/**
 * `bugbench images pack IMAGE --out FILE`: an image of a Docker-API engine,
 * written as one squashfs file (its files plus its configuration, see
 * packed-image.ts) that a node with no container engine can unpack and run
 * sandboxes from. Device nodes, /proc and /sys are left out: an ordinary user
 * could not unpack them, and the sandbox makes its own.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ImageNotFoundError, SandboxError } from '../../errors.js';
import { exportImageFiles } from '../docker-api/image-export.js';
import type { ContainerEngine } from '../port.js';
import { IMAGE_CONFIG_PATH, type PackedConfig } from './packed-image.js';
import { removeTree, runTool } from './tools.js';

export interface PackedImage {
  image: string;
  file: string;
  id: string;
  bytes: number;
  seconds: number;
}

/** The names an image is asked for by: as given, and with its implied :latest. */
export function imageNames(image: string): string[] {
  return /:[^/]+$/.test(image) || image.includes('@') ? [image] : [image, `${image}:latest`];
}

export async function packImage(engine: ContainerEngine, image: string, out: string, progress?: (line: string) => void): Promise<PackedImage> {
  const started = performance.now();
  const info = await engine.inspectImage(image);
  if (!info) throw new ImageNotFoundError(image);
  const file = resolve(out);
  const staging = await mkdtemp(join(dirname(file), '.bugbench-pack-'));
  const squashfs = `${staging}.sqsh`;
  try {
    progress?.(`exporting ${image}'s files`);
    await unpackExport(engine, image, join(staging, 'root'));
    const config: PackedConfig = { format: 1, names: imageNames(image), id: info.id, labels: info.labels, workdir: info.workdir, user: info.user, env: info.env, sizeBytes: info.sizeBytes, packedAt: new Date().toISOString() };
    await writeFile(join(staging, 'root', IMAGE_CONFIG_PATH), `${JSON.stringify(config, null, 2)}\n`);
    progress?.(`writing ${file}`);
    // lz4: packing in seconds rather than minutes (zstd's default took 2 min for a 300 MB image), unpacking as fast.
    await runTool('mksquashfs', [join(staging, 'root'), squashfs, '-noappend', '-comp', 'lz4', '-quiet', '-no-progress']);
    await rename(squashfs, file);
  } finally {
    await removeTree(staging);
    await rm(squashfs, { force: true });
  }
  const { size } = await stat(file);
  return { image, file, id: info.id, bytes: size, seconds: Math.round((performance.now() - started) / 100) / 10 };
}

/** Unpacks the image's exported tar into `dir`, keeping owners and modes (where the packing user may). */
async function unpackExport(engine: ContainerEngine, image: string, dir: string): Promise<void> {
  await mkdir(dir);
  const exported = await exportImageFiles(engine, image);
  try {
    const tar = spawn('tar', ['-x', '-p', '--numeric-owner', '-C', dir, '--anchored', '--exclude=dev/*', '--exclude=proc/*', '--exclude=sys/*', '-f', '-'], { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    tar.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    const exited = new Promise<number>((resolveExit) => tar.on('close', (code) => resolveExit(code ?? -1)));
    await pipeline(exported.stream, tar.stdin).catch(() => undefined);
    const code = await exited;
    if (code !== 0) throw new SandboxError(`could not unpack ${image}'s files (tar exit ${code}): ${stderr.trim().slice(-500)}`);
  } finally {
    await exported.done();
  }
}
