/**
 * Bug artifacts written by hand from a clone of a fixture repository, and the
 * image they run on, for the checks of one language: the repository is built
 * into an image with `bugbench images build` once per test file, each bug is
 * a set of edits made in a clone and saved as the diffs `git diff` gives, and
 * the artifact is judged with `bugbench check <dir> --json`. An edit that
 * finds nothing to change throws, so a fixture that drifts cannot turn a bug
 * into no bug without a test saying so.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { expect } from 'vitest';
import type { CheckParams } from '../../src/bugs/meta.js';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { dockerClient } from '../../src/sandbox/docker-api/client.js';
import { check, expectFailsOnly, type JsonReport } from './check-report.js';
import { bugbench } from './cli.js';

export const PARSERS = join(PACKAGE_ROOT, 'test', 'fixtures', 'parsers');
/** The parsers bugbench ships, which the offline injector submits (go test -v, node's TAP). */
const BUNDLED_PARSERS = join(PACKAGE_ROOT, 'data', 'parsers');

/** A parser by its file name: one of the test fixtures or one bugbench ships. */
export function parserFile(name: string): string {
  const fixture = join(PARSERS, name);
  return existsSync(fixture) ? fixture : join(BUNDLED_PARSERS, name);
}

/** How a file changes: a function of its text, or undefined to delete it. A new file is an edit of ''. */
export type Edit = ((text: string) => string) | undefined;

export interface BugSpec {
  /** The artifact folder's name. */
  name: string;
  /** The bug: files of the repository and how each changes. */
  bug: Record<string, Edit>;
  /** The weakening: test files and how each changes (listed in test_files.txt by default). */
  weaken: Record<string, Edit>;
  /** test_files.txt (default: the files the weakening touches). */
  testFiles?: string[];
  /** The body of test_script.sh, run with bash in /repo. */
  script: string;
  /** A file of test/fixtures/parsers/ or data/parsers/, or a parser's text. */
  parser: { file: string } | { text: string };
  params?: Partial<CheckParams>;
}

/** Replaces the first `from` in `text` by `to`, throwing if `from` is not there. */
export function replace(text: string, from: string | RegExp, to: string): string {
  const found = typeof from === 'string' ? text.includes(from) : from.test(text);
  if (!found) throw new Error(`the fixture no longer holds ${String(from).slice(0, 80)}`);
  return text.replace(from, to);
}

/** An edit that makes each replacement in turn. */
export function edits(...pairs: [string | RegExp, string][]): (text: string) => string {
  return (text) => pairs.reduce((t, [from, to]) => replace(t, from, to), text);
}

/** One function removed from a source file: from `start` up to the blank line after it (or the end of the file). */
export function dropBlock(start: string): (text: string) => string {
  return (text) => {
    const at = text.indexOf(start);
    if (at < 0) throw new Error(`the fixture no longer holds ${start}`);
    const end = text.indexOf('\n\n', at);
    return text.slice(0, at) + (end < 0 ? '' : text.slice(end + 2));
  };
}

const DEFAULT_PARAMS: Partial<CheckParams> = { minPassingTests: 5, minChangedFiles: 1, minFailingTests: 1, testTimeoutSec: 90, buggyRuns: 2 };

async function git(dir: string, ...args: string[]): Promise<string> {
  return (await execa('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir })).stdout;
}

function apply(dir: string, changes: Record<string, Edit>): void {
  for (const [path, edit] of Object.entries(changes)) {
    const file = join(dir, path);
    if (edit === undefined) {
      rmSync(file);
      continue;
    }
    let before = '';
    try {
      before = readFileSync(file, 'utf8');
    } catch {
      mkdirSync(dirname(file), { recursive: true });
    }
    const after = edit(before);
    if (after === before) throw new Error(`the edit of ${path} changes nothing`);
    writeFileSync(file, after);
  }
}

/** One fixture repository, its image, and the artifacts written from it. */
export class LanguageFixture {
  readonly out = mkdtempSync(join(tmpdir(), 'bugbench-lang-artifacts-'));
  private repo = '';
  private base = '';

  constructor(
    readonly tag: string,
    private readonly make: () => Promise<string>,
  ) {}

  /** Makes the repository and builds its image (beforeAll); returns what `images build --json` said. */
  async build(): Promise<{ language: string; testCommand: string; commit: string }> {
    this.repo = await this.make();
    const built = await bugbench(['images', 'build', this.repo, '--tag', this.tag, '--json'], { timeout: 600_000 });
    expect(built.exitCode, built.stderr).toBe(0);
    const info = JSON.parse(built.stdout) as { language: string; testCommand: string; commit: string };
    this.base = info.commit;
    return info;
  }

  async remove(): Promise<void> {
    await dockerClient().getImage(this.tag).remove({ force: true }).catch(() => undefined);
    rmSync(this.out, { recursive: true, force: true });
    // The repository lies alone in a temp folder of its own (git-repo.ts).
    if (this.repo !== '') rmSync(dirname(this.repo), { recursive: true, force: true });
  }

  /** Writes the artifact of `spec` (from a fresh clone) and returns its folder. */
  async write(spec: BugSpec): Promise<string> {
    const work = mkdtempSync(join(tmpdir(), 'bugbench-lang-work-'));
    try {
      await execa('git', ['clone', '-q', this.repo, work]);
      const dir = join(this.out, spec.name);
      mkdirSync(dir, { recursive: true });
      apply(work, spec.bug);
      await git(work, 'add', '-A');
      writeFileSync(join(dir, 'bug_inject.diff'), `${await git(work, 'diff', '--cached')}\n`);
      await git(work, 'reset', '-q', '--hard');
      await git(work, 'clean', '-q', '-fd');
      apply(work, spec.weaken);
      await git(work, 'add', '-A');
      writeFileSync(join(dir, 'test_weaken.diff'), `${await git(work, 'diff', '--cached')}\n`);
      writeFileSync(join(dir, 'test_files.txt'), `${(spec.testFiles ?? Object.keys(spec.weaken)).join('\n')}\n`);
      writeFileSync(join(dir, 'test_script.sh'), `#!/bin/bash\n${spec.script}\n`);
      if ('file' in spec.parser) copyFileSync(parserFile(spec.parser.file), join(dir, 'test_parser.py'));
      else writeFileSync(join(dir, 'test_parser.py'), spec.parser.text);
      const meta = { image: { tag: this.tag }, baseCommit: this.base, strategy: 'handwritten', policy: 'human', order: 1, parentId: null, params: { ...DEFAULT_PARAMS, ...spec.params } };
      writeFileSync(join(dir, 'meta.json'), `${JSON.stringify(meta, null, 2)}\n`);
      return dir;
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }

  /** Writes the artifact and judges it with `bugbench check --json`. */
  async check(spec: BugSpec, ...flags: string[]): Promise<JsonReport> {
    return checkDir(await this.write(spec), ...flags);
  }
}

/** How an artifact folder is judged: `bugbench check DIR --json FLAGS` on some engine. */
export type Judge = (dir: string, ...flags: string[]) => Promise<JsonReport>;

export async function checkDir(dir: string, ...flags: string[]): Promise<JsonReport> {
  const result = await bugbench(['check', dir, '--json', ...flags], { timeout: 300_000 });
  if (result.stdout.trim() === '') throw new Error(`bugbench check printed nothing (exit ${result.exitCode}): ${result.stderr.slice(-1000)}`);
  return JSON.parse(result.stdout) as JsonReport;
}

/** "name: verdict (reason)" for each check, for assertion messages. */
export function summary(report: JsonReport): string {
  return report.checks.map((c) => `${c.name}: ${c.verdict} (${c.reason})`).join('\n');
}

/**
 * Judges a coin-flip bug `times` times, one check after another, and expects
 * at least 80% of them refused, each by determinism (the buggy runs disagree)
 * or bug-validity (every run happened to pass). Prints the count.
 */
export async function expectMostlyRefused(language: string, dir: string, times: number, judge: Judge = checkDir): Promise<void> {
  const failed: (string | undefined)[] = [];
  for (let i = 0; i < times; i++) {
    const report = await judge(dir);
    failed.push(report.valid ? undefined : (report.checks.find((c) => c.verdict === 'fail')?.name ?? 'no verdict'));
  }
  const refused = failed.filter((f) => f !== undefined).length;
  console.log(`${language} coin flip: ${refused} of ${times} checks refused (${failed.map((f) => f ?? 'valid').join(', ')})`);
  expect(refused).toBeGreaterThanOrEqual(Math.ceil(times * 0.8));
  for (const f of failed) if (f !== undefined) expect(['determinism', 'bug-validity']).toContain(f);
}

/**
 * Judges a coin-flip bug once with twelve buggy runs, which all agree once in
 * 2048 checks, and expects determinism to fail naming `test` with both results.
 */
export async function expectDeterminismCatches(dir: string, test: string, judge: Judge = checkDir): Promise<void> {
  const report = await judge(dir, '--buggy-runs', '12');
  // A first buggy run that passes the test leaves the bug nothing to break (bug-validity); else a rerun passes it.
  if (check(report, 'determinism').verdict !== 'fail') {
    expectFailsOnly(report, 'bug-validity');
    expect(check(report, 'bug-validity').reason).toMatch(/^0 passing test\(s\) fail with the bug/);
    return;
  }
  expectFailsOnly(report, 'determinism');
  const id = test.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  expect(check(report, 'determinism').reason).toMatch(
    new RegExp(`^the bug's failing tests give different results from run to run \\(1 test\\(s\\)\\): ${id} \\(\\d+ flips?: failed in "buggy", (passed|failed) in "buggy \\(run \\d+\\)"`),
  );
}
