/**
 * Adopting an image bugbench did not build (SWE-bench's, SWE-smith's,
 * Multi-SWE-bench's, R2E-Gym's, one's own): one container of it is looked at
 * once — where the repository is, whose it is, what the login shell puts in
 * the environment, which commit and language — and its repository's history
 * past HEAD is removed (branches, tags, remotes, stashes, reflogs and the
 * objects only they reached), so that nothing of the fix's future reaches an
 * agent. What is left is kept as the adopted image's snapshot, which every
 * sandbox of it starts from; the image itself is not changed.
 */
import { ImageAdoptionError, ImageNotFoundError, SandboxError } from '../errors.js';
import type { Progress } from '../progress.js';
import { adoptedById, builtByBugbench, isBugbenchBase, saveAdoptedImage, type AdoptedImage } from './adopted-images.js';
import { canonicalImageName, splitTag } from './image-names.js';
import { detectLanguage, type RepoFiles } from './languages.js';
import type { ContainerEngine } from './port.js';
import { shellQuote, type ImageWorld, type Sandbox } from './sandbox.js';

export interface AdoptOptions {
  /** The repository's root, instead of looking for it. */
  root?: string;
  /** The user to run as, instead of the image's own. */
  user?: string;
  /** The command that runs the repository's tests, instead of the one its language suggests. */
  testCommand?: string;
  /** Look again even when the image was adopted before. */
  again?: boolean;
  progress?: Progress;
}

/** Where repositories live in the images people have, after the image's own WorkingDir. */
export const COMMON_ROOTS = ['/testbed', '/repo', '/app', '/workspace', '/src', '/home/*', '/work/*'];

/** Variables a login shell sets that say nothing of the image's tools. */
const SHELL_NOISE = /^(_|SHLVL|PWD|OLDPWD|PS[0-9]|HOSTNAME|TERM|COLUMNS|LINES|HIST\w*|BASH\w*|LS_COLORS|BUGBENCH_EXEC|GIT_CONFIG_\w+|MAIL|SHELL|HOME|USER|LOGNAME)$/;

/** The manifests language detection reads (languages.ts reads only these). */
const MANIFESTS = ['package.json', 'pyproject.toml', 'setup.cfg', 'tox.ini', 'setup.py', 'go.mod', 'Cargo.toml', 'pom.xml'];

/** The snapshot's name: bugbench's namespace, the adopted name, and the image's id (a new id is a new snapshot). */
export function snapshotName(image: string, imageId: string): string {
  const [repo] = splitTag(canonicalImageName(image));
  const flat = repo.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 100) || 'image';
  return `bugbench/adopted-${flat}:${imageId.replace(/^sha256:/, '').slice(0, 12)}`;
}

/** What `env -0` printed, as a map. */
export function parseEnv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of text.split('\0')) {
    const eq = entry.indexOf('=');
    if (eq > 0) env[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  return env;
}

/**
 * What the login shell adds to or changes in a plain shell's environment, less
 * the shell's own noise. PATH is the entries the login shell adds (SWE-bench's
 * conda environment) before the image's own, in the image's order: Debian's
 * /etc/profile sets PATH anew, which would drop what the image's ENV put there
 * (the official golang images' Go) or put the system's folders before it (an
 * R2E-Gym image's virtual environment, whose python3 must win over the
 * system's).
 */
export function loginEnvironment(plain: Record<string, string>, login: Record<string, string>): Record<string, string> {
  const changed: Record<string, string> = {};
  for (const [name, value] of Object.entries(login)) {
    if (SHELL_NOISE.test(name)) continue;
    const merged = name === 'PATH' && plain.PATH !== undefined ? mergePaths(plain.PATH, value) : value;
    if (plain[name] !== merged) changed[name] = merged;
  }
  return changed;
}

/** What the login shell puts before the image's entries, then the image's own in its order, then what it puts after. */
function mergePaths(image: string, login: string): string {
  const own = image.split(':').filter(Boolean);
  const theirs = login.split(':').filter(Boolean);
  const shared = theirs.findIndex((entry) => own.includes(entry));
  const before = shared < 0 ? theirs : theirs.slice(0, shared);
  const entries = [...before];
  for (const entry of [...own, ...theirs]) if (!entries.includes(entry)) entries.push(entry);
  return entries.join(':');
}

/** The script that finds the work tree: the given root only, or the WorkingDir and the common roots in order. */
export function rootScript(candidates: string[]): string {
  return [
    'for c in ' + candidates.map((c) => (c.includes('*') ? c : shellQuote(c))).join(' ') + '; do',
    '  [ -d "$c" ] || continue',
    '  top=$(git -C "$c" rev-parse --show-toplevel 2>/dev/null) || continue',
    '  [ "$top" = "$c" ] || [ "$c" = "$WD" ] || continue',
    '  printf "%s\\n" "$top"; exit 0',
    'done',
    'exit 3',
  ].join('\n');
}

/** Removes every ref but HEAD's branch, every reflog and stash, the remotes, and the objects only they reached. */
export const PAST_HEAD_REMOVAL = [
  'set -e',
  'current=$(git symbolic-ref -q HEAD || true)',
  'git for-each-ref --format="%(refname)" | while read -r ref; do [ "$ref" = "$current" ] || git update-ref -d "$ref"; done',
  'for r in $(git remote); do git remote remove "$r"; done',
  'rm -f .git/FETCH_HEAD .git/ORIG_HEAD .git/MERGE_HEAD .git/logs/refs/stash',
  'git reflog expire --expire=now --all',
  'git gc -q --prune=now',
  // What is left must be HEAD and its ancestors alone.
  '[ "$(git rev-list --all | wc -l)" = "$(git rev-list HEAD | wc -l)" ]',
].join('\n');

/**
 * The work tree's untracked files and folders (not ignored already) added to
 * .git/info/exclude, anchored and with glob characters escaped, so that
 * `git clean -fd` between states leaves them and no diff takes them in.
 */
export const KEEP_UNTRACKED = [
  // A worktree's .git is a file: ask git where the file is.
  'exclude=$(git rev-parse --git-path info/exclude)',
  'mkdir -p "$(dirname "$exclude")"',
  "git -c core.quotePath=false ls-files --others --directory --exclude-standard | sed -e 's/[][*?\\!#]/\\\\&/g' -e 's|^|/|' >> \"$exclude\"",
];
const UNTRACKED_KEPT = ['set -e', ...KEEP_UNTRACKED].join('\n');

/** What to tell a user whose image changed tracked files without committing them. */
export function editedWarning(edited: string[]): string {
  const shown = edited.slice(0, 5).join(', ') + (edited.length > 5 ? ` and ${edited.length - 5} more` : '');
  return (
    `its work tree differs from HEAD in ${edited.length} tracked file(s) (${shown}): bugbench builds every state of a bug from HEAD, ` +
    'where those edits are undone; commit them in the image (or rebuild it without them) if its tests need them'
  );
}

async function probe(sandbox: Sandbox, command: string, timeoutMs = 60_000) {
  return sandbox.exec(command, { timeoutMs, maxOutputBytes: 16 * 1024 * 1024, workdir: '/' });
}

/**
 * Adopts `image`: finds its world, removes the history past HEAD into a
 * snapshot, and records both (adopted-images.ts). An image adopted before is
 * returned as it was unless `again`; an image bugbench built needs nothing.
 */
export async function adoptImage(engine: ContainerEngine, image: string, options: AdoptOptions = {}): Promise<AdoptedImage> {
  const say = options.progress ?? (() => undefined);
  const info = await engine.inspectImage(image);
  if (!info) throw new ImageNotFoundError(image);
  const overrides = { ...(options.root ? { root: options.root } : {}), ...(options.user ? { user: options.user } : {}), ...(options.testCommand ? { testCommand: options.testCommand } : {}) };
  // An image made FROM one of bugbench's carries its labels; one that moved the repository or changed the user is
  // adopted when the user says where (--root) or as whom (--user).
  const labelled = builtByBugbench(info.labels) || (await isBugbenchBase(engine, info));
  if (labelled && !options.root && !options.user) {
    throw new ImageAdoptionError(image, "bugbench built it (or it was made FROM an image bugbench built, whose labels it carries); it needs no adopting, unless it moved the repository or changed the user: then name them with --root and --user");
  }
  const known = adoptedById(info.id);
  if (known && !options.again && Object.keys(overrides).length === 0) return known;

  say(`looking at ${image} (${info.id.replace(/^sha256:/, '').slice(0, 12)})`);
  const looking: ImageWorld = { root: '/', user: options.user ?? '', uid: 0, gid: 0, env: {} };
  let sandbox: Sandbox;
  try {
    sandbox = await engine.createSandbox({ image, runId: `adopt-${process.pid}`, world: looking });
  } catch (error) {
    if (options.user && /user|passwd/i.test(String((error as Error).message))) throw new ImageAdoptionError(image, `user ${options.user} does not exist in it`);
    throw error;
  }
  try {
    const ids = await probe(sandbox, 'id -u; id -g; id -un');
    if (ids.exitCode !== 0) {
      const said = ids.stderr.trim() || ids.stdout.trim();
      if (/"bash": executable file not found|bash: (not found|No such file)/.test(said)) {
        throw new ImageAdoptionError(image, 'it has no bash, which bugbench runs every command with; add it to the image (on Alpine: apk add bash)');
      }
      throw new ImageAdoptionError(image, `user ${options.user || info.user || 'root'} does not exist in it (${said})`);
    }
    const [uid, gid, name] = ids.stdout.trim().split('\n');

    const workdir = info.workdir && info.workdir !== '/' ? [info.workdir] : [];
    const candidates = options.root ? [options.root] : [...workdir, ...COMMON_ROOTS];
    const found = await probe(sandbox, `WD=${shellQuote(info.workdir)}\n${rootScript(candidates)}`);
    if (found.exitCode !== 0) {
      throw new ImageAdoptionError(
        image,
        options.root
          ? `--root ${options.root} is not the top of a git work tree in it`
          : `no git work tree at its WorkingDir (${info.workdir || 'none'}) or ${COMMON_ROOTS.join(', ')}; name it with --root`,
      );
    }
    const root = found.stdout.trim().split('\n')[0]!;

    // What the login shell adds: SWE-bench's conda environment, a profile's PATH (an image's ENV is there either way).
    const marker = '@@bugbench-env@@';
    const shells = await probe(sandbox, `env -0; printf '${marker}'; bash -lic 'printf "${marker}"; env -0' </dev/null 2>/dev/null`);
    const [plainText, , loginText] = shells.stdout.split(marker);
    const env = loginText === undefined ? {} : loginEnvironment(parseEnv(plainText ?? ''), parseEnv(loginText));

    const world: ImageWorld = { root, user: options.user ?? '', uid: Number(uid), gid: Number(gid), env };
    const head = await sandbox.exec('git rev-parse HEAD', { workdir: root, env, timeoutMs: 60_000 });
    if (head.exitCode !== 0) throw new ImageAdoptionError(image, `${root} has no commit (${head.stderr.trim()})`);

    const files = await sandbox.exec('git ls-files', { workdir: root, env, timeoutMs: 120_000, maxOutputBytes: 64 * 1024 * 1024 });
    const manifests = new Map<string, string>();
    for (const file of MANIFESTS) {
      const read = await sandbox.exec(`cat ${shellQuote(file)} 2>/dev/null`, { workdir: root, timeoutMs: 30_000 });
      if (read.exitCode === 0) manifests.set(file, read.stdout);
    }
    const repo: RepoFiles = { files: files.stdout.split('\n').filter(Boolean), read: (path) => manifests.get(path) };
    const language = detectLanguage(repo);

    say(`found the repository at ${root} (${name}, uid ${uid}), commit ${head.stdout.trim().slice(0, 12)}, ${language?.name ?? 'language not recognised'}${Object.keys(env).length ? `, ${Object.keys(env).length} variable(s) from its login shell` : ''}`);
    say('removing the history past HEAD (branches, tags, remotes, stashes, reflogs)');
    const scrub = await sandbox.exec(PAST_HEAD_REMOVAL, { workdir: root, env, timeoutMs: 600_000 });
    if (scrub.exitCode !== 0) {
      const said = (scrub.stderr || scrub.stdout).trim();
      if (/Permission denied/.test(said)) {
        throw new ImageAdoptionError(image, `its repository at ${root} is not writable by ${name ?? 'its user'} (uid ${uid}), whom commands run as; adopt it with --user root, or give that user the repository in the image (chown)`);
      }
      throw new SandboxError(`could not remove the history past HEAD in ${image}: ${said.slice(-500)}`);
    }

    // Every state the checks build starts from HEAD (`git reset --hard`, `git clean -fd`): what the image holds beside
    // its tracked files (a virtual environment in the work tree, a built extension) is kept out of that reset, as a
    // build's dependencies are; edits to tracked files the image made would be undone, so the user is told.
    const kept = await sandbox.exec(UNTRACKED_KEPT, { workdir: root, env, timeoutMs: 120_000 });
    if (kept.exitCode !== 0) throw new SandboxError(`could not record the untracked files of ${image}: ${(kept.stderr || kept.stdout).trim().slice(-500)}`);
    // An image that changed file modes wholesale (SWE-bench's `chmod -R 777 /testbed`) would put mode lines in every
    // diff bugbench takes: its repository is told to ignore the executable bit, as on a file system without one.
    const differing = async (modes: boolean) => {
      const listed = await sandbox.exec(`git -c core.quotePath=false -c core.fileMode=${modes} diff --name-only HEAD --`, { workdir: root, env, timeoutMs: 120_000 });
      return listed.exitCode === 0 ? listed.stdout.split('\n').filter(Boolean) : [];
    };
    const edited = await differing(false);
    if ((await differing(true)).length > edited.length) {
      say('its files\' modes differ from HEAD\'s: git is set to ignore the executable bit there (core.fileMode false)');
      await sandbox.exec('git config core.fileMode false', { workdir: root, env, timeoutMs: 60_000 });
    }
    const warning = edited.length > 0 ? editedWarning(edited) : undefined;
    if (warning) say(`warning: ${warning}`);

    const runImage = snapshotName(image, info.id);
    await engine.snapshot(sandbox, runImage);
    const record: AdoptedImage = {
      image: canonicalImageName(image),
      imageId: info.id,
      runImage,
      world,
      userName: name ?? '',
      commit: head.stdout.trim(),
      language: language?.id ?? '',
      testCommand: options.testCommand ?? language?.testCommand(repo) ?? '',
      overrides,
      adoptedAt: new Date().toISOString(),
      ...(warning ? { warning } : {}),
    };
    saveAdoptedImage(record);
    say(`adopted ${image}: sandboxes start from ${runImage}`);
    return record;
  } finally {
    await sandbox.remove().catch(() => undefined);
  }
}
