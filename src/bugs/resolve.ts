/**
 * Finding a bug from what a user typed: a folder holding an artifact, or the id
 * of a bug in the workspace. Also which image and base commit it is judged on.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { ContainerEngine } from '../sandbox/port.js';
import { NotFoundError, UsageError } from '../errors.js';
import { workspacePath } from '../paths.js';
import { inspectRepoImage } from '../sandbox/repo-images.js';
import { loadArtifact, type BugArtifact } from './artifact.js';
import { DEFAULT_CHECK_PARAMS, type CheckParams } from './meta.js';

export interface ResolvedBug {
  /** The bug's id when it lives in the workspace; undefined for a folder checked in place. */
  id?: string;
  artifact: BugArtifact;
  image: string;
  baseCommit: string;
  params: CheckParams;
  /** Where this check's logs go. */
  logDir: string;
}

export function bugsDir(): string {
  return workspacePath('bugs');
}

export function findArtifactDir(ref: string): { dir: string; id?: string } {
  if (existsSync(ref) && statSync(ref).isDirectory()) return { dir: resolve(ref) };
  const stored = join(bugsDir(), ref);
  if (/^[\w.-]+$/.test(ref) && existsSync(stored)) return { dir: stored, id: ref };
  throw new NotFoundError(`no bug with id "${ref}" and no artifact folder at ${resolve(ref)}; list bugs with \`bugbench bugs\``);
}

export interface ResolveOptions {
  image?: string;
  params?: Partial<CheckParams>;
  /** Subfolder name for logs, e.g. "checks" or "eval". */
  purpose: string;
}

export async function resolveBug(engine: ContainerEngine, ref: string, options: ResolveOptions): Promise<ResolvedBug> {
  const { dir, id } = findArtifactDir(ref);
  const artifact = loadArtifact(dir);
  const image = options.image ?? artifact.meta?.image.tag;
  if (!image) throw new UsageError(`${dir} has no meta.json naming its image; pass --image TAG`);
  const facts = await inspectRepoImage(engine, image);
  const baseCommit = artifact.meta?.baseCommit ?? facts.commit;
  if (!baseCommit) throw new UsageError(`cannot tell the base commit: neither ${dir}/meta.json nor image ${image} names one`);
  const params = { ...DEFAULT_CHECK_PARAMS, ...artifact.meta?.params, ...options.params };
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const logDir = id ? join(dir, options.purpose, stamp) : workspacePath(options.purpose, `${stamp}-${basename(dir)}`);
  return { id, artifact, image, baseCommit, params, logDir };
}
