/**
 * The engine port with no engine: an address `bwrap:///DIR` names a folder of
 * packed images (`bugbench images pack`), and sandboxes are process trees
 * this user starts over them (sandbox.ts). Nothing runs between sandboxes:
 * what a sandbox leaves is a folder with its owner's name (state.ts).
 */
import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EngineUnreachableError, errorMessage, ImageNotFoundError, SandboxError } from '../../errors.js';
import type { EngineKind } from '../engine-kind.js';
import { ownerLabels, LABEL_OWNER_PID, LABEL_OWNER_START } from '../owner.js';
import type { ContainerEngine, EngineInfo, ImageInfo, ImageSummary, ReapResult } from '../port.js';
import { BUILT_WORLD, type Sandbox, type SandboxOptions } from '../sandbox.js';
import { homeOfUid, imageEtcFile, resolveImageUser } from './image-user.js';
import { imageInfoOf, PACKED_SUFFIX, readPackedConfig, type PackedConfig } from './packed-image.js';
import { BwrapSandbox } from './sandbox.js';
import { ensurePrivateRoot, holderRuns, ofWorks, orphaned, reapSandboxes, readRecords, stateRoot } from './state.js';
import { lowerLayer } from './unpacked.js';
import { removeTree, runTool } from './tools.js';

/** What to do when the kind cannot run here. */
const NODE_TODO = '`bugbench doctor` says what this node lacks for bwrap sandboxes and how to get it';

/** The folder a `bwrap:///DIR` address names. */
export function imagesFolder(host: string): string {
  const url = new URL(host);
  if (url.protocol !== 'bwrap:' || url.host !== '') throw new SandboxError(`${host} is not a bwrap address; write bwrap:///absolute/folder/of/packed/images`);
  return decodeURIComponent(url.pathname);
}

interface PackedFile {
  file: string;
  config: PackedConfig;
  size: number;
  mtimeMs: number;
}

export class BwrapEngine implements ContainerEngine {
  readonly type = 'bwrap' as const;
  readonly folder: string;
  /** This user's folder for unpacked images, sandboxes and volumes. */
  readonly stateRoot = stateRoot();
  private readonly read = new Map<string, PackedFile>();
  private known?: Promise<EngineKind>;

  constructor(readonly host: string) {
    this.folder = imagesFolder(host);
  }

  async ping(_timeoutMs: number): Promise<void> {
    try {
      if (!existsSync(this.folder)) throw new SandboxError(`the folder ${this.folder} of packed images does not exist`);
      await this.version();
    } catch (error) {
      throw new EngineUnreachableError(this.host, errorMessage(error), NODE_TODO);
    }
  }

  async info(): Promise<EngineInfo> {
    await this.ping(0);
    return { host: this.host, version: await this.version(), apiVersion: '' };
  }

  private async version(): Promise<string> {
    return (await runTool('bwrap', ['--version'])).trim().replace(/^bubblewrap\s+/, '');
  }

  kind(): Promise<EngineKind> {
    this.known ??= this.version().then((version) => ({ product: 'bwrap', rootless: true, version, runtime: 'bwrap', cgroupVersion: '', storageDriver: 'overlay (unpacked squashfs)', cpus: availableParallelism(), limitsEnforced: false }));
    return this.known;
  }

  async describe(): Promise<EngineKind> {
    this.known = undefined;
    await this.ping(0);
    return this.kind();
  }

  async createSandbox(options: SandboxOptions): Promise<Sandbox> {
    const packed = await this.find(options.image);
    if (!packed) throw new ImageNotFoundError(options.image);
    const lower = await lowerLayer(this.stateRoot, packed.file, packed.config.sizeBytes);
    const volumes = Object.fromEntries(Object.entries(options.volumes ?? {}).map(([name, path]) => [this.volumeDir(name), path]));
    const [passwd, group] = await Promise.all([imageEtcFile(lower, 'passwd'), imageEtcFile(lower, 'group')]);
    const world = options.world ?? BUILT_WORLD;
    // The image's own User (world.user ''), as Docker runs it: its ids and home from the image's /etc/passwd.
    const user = world.user === '' ? resolveImageUser(packed.config.user, passwd, group, options.image) : { uid: world.uid, gid: world.gid, home: homeOfUid(world.uid, passwd) };
    return BwrapSandbox.create({ ...options, world: { ...world, uid: user.uid, gid: user.gid } }, { root: this.stateRoot, lower, imageEnv: packed.config.env, volumes, home: user.home });
  }

  private volumeDir(name: string): string {
    return join(this.stateRoot, 'volumes', name);
  }

  /** A folder on the host's disk (an in-memory volume is not made here: `memoryBytes` is left alone). */
  async createVolume(name: string, labels: Record<string, string>): Promise<string> {
    await ensurePrivateRoot(this.stateRoot);
    await mkdir(this.volumeDir(name), { recursive: true });
    await writeFile(`${this.volumeDir(name)}.json`, JSON.stringify(labels));
    return name;
  }

  async removeVolume(name: string): Promise<void> {
    await removeTree(this.volumeDir(name));
    await removeTree(`${this.volumeDir(name)}.json`);
  }

  async inspectImage(ref: string): Promise<ImageInfo | undefined> {
    const packed = await this.find(ref);
    return packed ? imageInfoOf(packed.config) : undefined;
  }

  /** The packed file that holds `ref` (by one of its names, or its id). */
  private async find(ref: string): Promise<PackedFile | undefined> {
    const all = await this.packedFiles();
    return all.find((p) => p.config.names.includes(ref) || p.config.id === ref || p.config.names.includes(`${ref}:latest`));
  }

  /** Every packed image in the folder; a file is read again only when it changed. */
  private async packedFiles(): Promise<PackedFile[]> {
    const names = (await readdir(this.folder)).filter((name) => name.endsWith(PACKED_SUFFIX));
    return Promise.all(
      names.map(async (name) => {
        const file = join(this.folder, name);
        const { size, mtimeMs } = await stat(file);
        const known = this.read.get(file);
        if (known && known.size === size && known.mtimeMs === mtimeMs) return known;
        const packed = { file, config: await readPackedConfig(file), size, mtimeMs };
        this.read.set(file, packed);
        return packed;
      }),
    );
  }

  snapshot(): Promise<void> {
    throw new SandboxError(`${this.host} cannot save a sandbox as an image; adopt the image on Docker or Podman and pack its snapshot with \`bugbench images pack\``);
  }

  tagImage(source: string, target: string): Promise<void> {
    throw new SandboxError(`${this.host} cannot name ${source} ${target}: pack the image under that name with \`bugbench images pack\``);
  }

  async listImages(label: string): Promise<ImageSummary[]> {
    const [key, value] = label.split('=', 2) as [string, string | undefined];
    return (await this.packedFiles())
      .filter(({ config }) => key in config.labels && (value === undefined || config.labels[key] === value))
      .map(({ config, mtimeMs }) => ({ id: config.id, tags: config.names, labels: config.labels, created: Math.floor(Date.parse(config.packedAt) / 1000 || mtimeMs / 1000), sizeBytes: config.sizeBytes }));
  }

  async stoppedWork(works: readonly string[]): Promise<string | undefined> {
    const me = ownerLabels();
    const mine = (await readRecords(this.stateRoot)).filter((r) => r.labels[LABEL_OWNER_PID] === me[LABEL_OWNER_PID] && r.labels[LABEL_OWNER_START] === me[LABEL_OWNER_START]);
    const hit = mine.find((r) => r.pid !== undefined && !r.removing && ofWorks(works)(r) && !holderRuns(r));
    return hit ? `bwrap sandbox ${hit.id} of ${hit.labels['bugbench.run']}` : undefined;
  }

  async reapWork(works: readonly string[]): Promise<ReapResult> {
    const removed = await reapSandboxes(this.stateRoot, ofWorks(works));
    return { removed, volumes: await this.reapVolumes((labels) => ofWorks(works)({ id: '', image: '', labels })) };
  }

  async reapOrphans(): Promise<ReapResult> {
    const removed = await reapSandboxes(this.stateRoot, orphaned);
    return { removed, volumes: await this.reapVolumes((labels) => orphaned({ id: '', image: '', labels })) };
  }

  /** Removes the volumes whose labels (kept beside each) `chosen` picks; after the sandboxes, which may use them. */
  private async reapVolumes(chosen: (labels: Record<string, string>) => boolean): Promise<string[]> {
    const dir = join(this.stateRoot, 'volumes');
    if (!existsSync(dir)) return [];
    const names = (await readdir(dir)).filter((name) => name.endsWith('.json')).map((name) => name.slice(0, -'.json'.length));
    const gone: string[] = [];
    for (const name of names) {
      const labels = JSON.parse(await readFile(join(dir, `${name}.json`), 'utf8').catch(() => '{}')) as Record<string, string>;
      if (!chosen(labels)) continue;
      await this.removeVolume(name);
      gone.push(name);
    }
    return gone;
  }
}
