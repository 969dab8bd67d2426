/**
 * `bugbench images [--json]`, `bugbench images build <git-repo-dir> [--tag T] [--from IMAGE] [--setup CMD] [--json]`
 * , `bugbench images add IMAGE [--root PATH] [--user U] [--test-cmd CMD] [--again] [--json]`
 * and `bugbench images pack IMAGE [--out FILE|DIR/] [--json]`
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { UsageError } from '../errors.js';
import { packImage } from '../sandbox/bwrap/pack.js';
import { packedFileName } from '../sandbox/bwrap/packed-image.js';
import { expandHome } from '../paths.js';
import { defaultContainerEngine } from '../sandbox/engine-table.js';
import { buildImageOverBugs } from '../pipeline/image-build.js';
import { adoptByName } from '../pipeline/adopt-by-name.js';
import { listRepoImages, type RepoImage } from '../sandbox/repo-images.js';
import { REPO_DIR } from '../sandbox/sandbox.js';
import { countsByImage, describeCounts } from '../store/queries.js';
import { openStore } from '../store/store.js';
import { parseFlags, printJson, stderrProgress } from './args.js';
import { formatTable } from './table.js';
import type { CommandModule } from './command.js';

const LIST_FLAGS = { json: { type: 'boolean', default: false } } as const;

export async function imagesCommand(args: string[]): Promise<number> {
  if (args[0] === 'build') return buildCommand(args.slice(1));
  if (args[0] === 'add') return addCommand(args.slice(1));
  if (args[0] === 'pack') return packCommand(args.slice(1));
  const { values } = parseFlags('images', args, LIST_FLAGS);
  const images = await listRepoImages(defaultContainerEngine(), countsByImage(openStore().all('bugs')));
  if (values.json) {
    printJson(
      images.map(({ id, tag, repo, commit, created, sizeBytes, bugs, bugCounts, language, warning, root, user, adopted }) => ({
        id,
        tag,
        repo,
        commit,
        created,
        sizeBytes,
        bugs,
        bugCounts,
        language: language ?? '',
        warning: warning ?? '',
        root: root ?? REPO_DIR,
        user: user || 'root',
        adopted: adopted ?? false,
      })),
    );
  } else process.stdout.write(formatImages(images));
  return 0;
}

const BUILD_FLAGS = { tag: { type: 'string' }, from: { type: 'string' }, setup: { type: 'string' }, json: { type: 'boolean', default: false } } as const;

async function buildCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(
    'images build',
    args,
    BUILD_FLAGS,
    1,
  );
  const dir = positionals[0];
  if (!dir) throw new UsageError('images build: give the git repository folder, e.g. `bugbench images build ./myrepo`');
  const built = await buildImageOverBugs(defaultContainerEngine(), openStore(), { dir: expandHome(dir), tag: values.tag, from: values.from, setup: values.setup, progress: stderrProgress });
  if (values.json) printJson(built);
  else process.stdout.write(`${built.tag}\n`);
  return 0;
}

const ADD_FLAGS = { root: { type: 'string' }, user: { type: 'string' }, 'test-cmd': { type: 'string' }, again: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } } as const;

/** Adopts an image bugbench did not build, as it is (sandbox/adopt.ts), with what the user says in place of what would be found. */
async function addCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(
    'images add',
    args,
    ADD_FLAGS,
    1,
  );
  const image = positionals[0];
  if (!image) throw new UsageError('images add: name the image, e.g. `bugbench images add sweb.eval.x86_64.django__django-11099:latest`');
  const adopted = await adoptByName(defaultContainerEngine(), image, { root: values.root, user: values.user, testCommand: values['test-cmd'], again: values.again, progress: stderrProgress });
  if (values.json) printJson({ ...adopted, root: adopted.world.root, user: adopted.world.user || 'image default', adopted: true });
  else process.stdout.write(`${adopted.image}: ${adopted.language || 'language not recognised'} repository at ${adopted.world.root} (uid ${adopted.world.uid}), commit ${adopted.commit.slice(0, 12)}; sandboxes start from ${adopted.runImage}\n`);
  return 0;
}

const PACK_FLAGS = { out: { type: 'string' }, json: { type: 'boolean', default: false } } as const;

/** Writes an image as one squashfs file that the bwrap engine kind runs without an engine (sandbox/bwrap/pack.ts). */
async function packCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags('images pack', args, PACK_FLAGS, 1);
  const image = positionals[0];
  if (!image) throw new UsageError('images pack: name the image, e.g. `bugbench images pack bugbench/repo-knotcfg:latest --out /shared/images/`');
  const out = values.out ?? './';
  const folder = out.endsWith('/') || (existsSync(expandHome(out)) && statSync(expandHome(out)).isDirectory());
  if (folder) mkdirSync(expandHome(out), { recursive: true });
  const file = folder ? join(expandHome(out), packedFileName(image)) : expandHome(out);
  const packed = await packImage(defaultContainerEngine(), image, file, stderrProgress);
  if (values.json) printJson(packed);
  else process.stdout.write(`${packed.file}: ${image} (${(packed.bytes / 1e6).toFixed(0)} MB, ${packed.seconds} s); run it with DOCKER_HOST=bwrap://${dirname(packed.file)}\n`);
  return 0;
}

export function formatImages(images: RepoImage[]): string {
  if (images.length === 0) return 'no repo images yet; build one with `bugbench images build <dir>` or run `bugbench doctor --fix`\n';
  const rows = images.map((i) => [
    i.adopted ? `${i.tag} (adopted, ${i.root})` : i.tag,
    i.repo,
    i.language || '?',
    i.commit.slice(0, 12),
    i.created.slice(0, 16).replace('T', ' '),
    `${(i.sizeBytes / 1e6).toFixed(0)} MB`,
    describeCounts(i.bugCounts),
  ]);
  return formatTable(['TAG', 'REPO', 'LANGUAGE', 'COMMIT', 'CREATED', 'SIZE', 'BUGS'], rows);
}

export const command: CommandModule = {
  name: 'images',
  summary: 'list repo images; `images build <dir>` builds one, `images add IMAGE` adopts one as it is, `images pack IMAGE` writes one as a file for engine-less nodes',
  usage: [
    'bugbench images [--json]',
    'bugbench images build <git-repo-dir> [--tag T] [--from IMAGE] [--setup CMD] [--json]',
    'bugbench images add IMAGE [--root PATH] [--user U] [--test-cmd CMD] [--again] [--json]',
    'bugbench images pack IMAGE [--out FILE|DIR/] [--json]',
  ],
  flags: { ...LIST_FLAGS, ...BUILD_FLAGS, ...ADD_FLAGS, ...PACK_FLAGS },
  run: imagesCommand,
};
