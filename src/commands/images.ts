/** `bugbench images [--json]` and `bugbench images build <git-repo-dir> [--tag T] [--from IMAGE] [--setup CMD] [--json]` */
import { UsageError } from '../errors.js';
import { expandHome } from '../paths.js';
import { defaultContainerEngine } from '../sandbox/engine-table.js';
import { buildImageOverBugs } from '../pipeline/image-build.js';
import { listRepoImages, type RepoImage } from '../sandbox/repo-images.js';
import { countsByImage, describeCounts } from '../store/queries.js';
import { openStore } from '../store/store.js';
import { parseFlags, printJson, stderrProgress } from './args.js';
import { formatTable } from './table.js';

export async function imagesCommand(args: string[]): Promise<number> {
  if (args[0] === 'build') return buildCommand(args.slice(1));
  const { values } = parseFlags('images', args, { json: { type: 'boolean', default: false } });
  const images = await listRepoImages(defaultContainerEngine(), countsByImage(openStore().all('bugs')));
  if (values.json) {
    printJson(
      images.map(({ id, tag, repo, commit, created, sizeBytes, bugs, bugCounts, language, warning }) => ({
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
      })),
    );
  } else process.stdout.write(formatImages(images));
  return 0;
}

async function buildCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(
    'images build',
    args,
    { tag: { type: 'string' }, from: { type: 'string' }, setup: { type: 'string' }, json: { type: 'boolean', default: false } },
    1,
  );
  const dir = positionals[0];
  if (!dir) throw new UsageError('images build: give the git repository folder, e.g. `bugbench images build ./myrepo`');
  const built = await buildImageOverBugs(defaultContainerEngine(), openStore(), { dir: expandHome(dir), tag: values.tag, from: values.from, setup: values.setup, progress: stderrProgress });
  if (values.json) printJson(built);
  else process.stdout.write(`${built.tag}\n`);
  return 0;
}

export function formatImages(images: RepoImage[]): string {
  if (images.length === 0) return 'no repo images yet; build one with `bugbench images build <dir>` or run `bugbench doctor --fix`\n';
  const rows = images.map((i) => [
    i.tag,
    i.repo,
    i.language || '?',
    i.commit.slice(0, 12),
    i.created.slice(0, 16).replace('T', ' '),
    `${(i.sizeBytes / 1024 ** 2).toFixed(0)} MB`,
    describeCounts(i.bugCounts),
  ]);
  return formatTable(['TAG', 'REPO', 'LANGUAGE', 'COMMIT', 'CREATED', 'SIZE', 'BUGS'], rows);
}
