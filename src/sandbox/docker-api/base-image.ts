/**
 * The base image every repo image starts from: Debian bookworm with python3,
 * pytest and git. Pulled when `BUGBENCH_BASE_PULL` names an image in a registry
 * that answers; otherwise built from Debian's packages with debootstrap and
 * `docker import`, from the mirror apt already uses.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type Docker from 'dockerode';
import type { ContainerEngine } from '../port.js';
import { dockerOf } from './engine.js';
import { execa } from 'execa';
import { errorMessage, SetupError } from '../../errors.js';
import { workspacePath } from '../../paths.js';
import type { Progress } from '../../progress.js';
import { imageExists } from './client.js';
import { aptInstall, isRoot } from '../engine.js';
import { commandExists } from '../path-commands.js';
import { followProgress } from './image-progress.js';
import { splitTag } from '../image-names.js';

export { splitTag } from '../image-names.js';

export { BASE_IMAGE } from '../image-names.js';
import { BASE_IMAGE } from '../image-names.js';
const SUITE = 'bookworm';
const PACKAGES = ['python3', 'python3-pytest', 'git', 'ca-certificates'];

export interface AptSource {
  name: string;
  text: string;
}

/**
 * The Debian archive URI apt is configured with (deb822 `.sources` or one-line
 * `sources.list`), skipping the security archive.
 */
export function debianMirror(sources: AptSource[]): string | undefined {
  for (const { name, text } of sources) {
    if (name.endsWith('.sources')) {
      for (const stanza of text.split(/\n\s*\n/)) {
        const field = (key: string) =>
          new RegExp(`^${key}:\\s*(.+)$`, 'mi').exec(stanza)?.[1]?.trim().split(/\s+/) ?? [];
        if (!field('Types').includes('deb')) continue;
        if (!field('Suites').some((s) => s === SUITE)) continue;
        const uri = field('URIs').find((u) => !u.includes('security'));
        if (uri) return uri;
      }
    } else {
      for (const line of text.split('\n')) {
        const m = /^\s*deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+(\S+)/.exec(line);
        if (m && m[2] === SUITE && !m[1]!.includes('security')) return m[1];
      }
    }
  }
  return undefined;
}

function readAptSources(): AptSource[] {
  const sources: AptSource[] = [];
  const add = (path: string) => {
    try {
      sources.push({ name: path, text: readFileSync(path, 'utf8') });
    } catch {
      // unreadable or missing: not a source
    }
  };
  add('/etc/apt/sources.list');
  try {
    for (const name of readdirSync('/etc/apt/sources.list.d').sort()) add(join('/etc/apt/sources.list.d', name));
  } catch {
    // no sources.list.d
  }
  return sources;
}

/** The Debian mirror this machine's apt uses, read now (the toolchain bases install from it too). */
export function hostDebianMirror(): string | undefined {
  return debianMirror(readAptSources());
}

export async function ensureBaseImage(engine: ContainerEngine, progress: Progress): Promise<void> {
  const docker = dockerOf(engine);
  if (await imageExists(docker, BASE_IMAGE)) return;
  const pull = process.env.BUGBENCH_BASE_PULL;
  if (pull) {
    try {
      await pullBaseImage(docker, pull, progress);
      return;
    } catch (error) {
      progress(`pulling ${pull} failed (${errorMessage(error)}); building from Debian packages instead`);
    }
  }
  await buildBaseImage(engine, progress);
}

async function pullBaseImage(docker: Docker, ref: string, progress: Progress): Promise<void> {
  progress(`pulling ${ref}`);
  await followProgress(docker, await docker.pull(ref), progress);
  const [repo, tag] = splitTag(BASE_IMAGE);
  await docker.getImage(ref).tag({ repo, tag });
}


/** debootstrap into a folder of the workspace, then import it as the base image. About a minute. */
export async function buildBaseImage(engine: ContainerEngine, progress: Progress): Promise<void> {
  const docker = dockerOf(engine);
  const mirror = debianMirror(readAptSources());
  if (!mirror) {
    throw new SetupError(`no Debian ${SUITE} mirror in /etc/apt/sources.list(.d); cannot build ${BASE_IMAGE}`);
  }
  if (!isRoot()) {
    throw new SetupError(`building ${BASE_IMAGE} with debootstrap needs root; run \`sudo bugbench doctor --fix\``);
  }
  if (!(await commandExists('debootstrap'))) await aptInstall(['debootstrap'], progress, workspacePath('logs', 'apt.log'));

  const cache = workspacePath('cache');
  mkdirSync(cache, { recursive: true });
  const work = mkdtempSync(join(cache, 'rootfs-'));
  const rootfs = join(work, 'rootfs');
  try {
    progress(`building ${BASE_IMAGE}: debootstrap ${SUITE} from ${mirror} (about a minute)`);
    const boot = execa('debootstrap', ['--variant=minbase', `--include=${PACKAGES.join(',')}`, SUITE, rootfs, mirror], {
      all: true,
      reject: false,
    });
    // debootstrap prints a line per package per phase; show each phase once and then every 25th package.
    let phase = '';
    let inPhase = 0;
    boot.all?.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        const word = /^I: (Retrieving|Extracting|Unpacking|Configuring|Installing|Base system)/.exec(line)?.[1];
        if (!word) continue;
        inPhase = word === phase ? inPhase + 1 : 0;
        phase = word;
        if (inPhase % 25 === 0) progress(`  debootstrap: ${line.slice(3).trim()}`);
      }
    });
    const result = await boot;
    if (result.exitCode !== 0) {
      throw new SetupError(`debootstrap failed (exit ${result.exitCode}): ${String(result.all ?? '').slice(-400)}`);
    }
    rmSync(join(rootfs, 'var/cache/apt/archives'), { recursive: true, force: true });
    progress(`importing ${BASE_IMAGE} into the engine`);
    const tar = execa('tar', ['-C', rootfs, '--numeric-owner', '-c', '.'], { buffer: false, stdout: 'pipe' });
    const [repo, tag] = splitTag(BASE_IMAGE);
    const importOptions = { repo, tag, changes: ['ENV LANG=C.UTF-8', 'LABEL bugbench.base=bookworm', 'CMD ["bash"]'] };
    const stream = (await docker.importImage(tar.stdout!, importOptions as never)) as unknown as NodeJS.ReadableStream;
    await followProgress(docker, stream, () => {});
    await tar;
    progress(`${BASE_IMAGE} is ready`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
