/**
 * Repo images in every language bugbench knows: `images build` recognises the
 * repository, builds it on its toolchain base with its dependencies fetched
 * while building, labels it, and the detected test command then passes in a
 * container with no network, one result line per test. Also the bundled Go
 * and TypeScript samples that `doctor --fix` (the global setup) built.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { dockerClient } from '../../src/sandbox/docker-api/client.js';
import { openSandbox } from '../../src/sandbox/engine-table.js';
import { bugbench } from '../helpers/cli.js';
import { GO_TESTS, makeGoProject } from '../helpers/go-project.js';
import { JAVA_TESTS, makeJavaProject } from '../helpers/java-project.js';
import { makeNodeProject, makeVitestProject, NODE_TESTS, VITEST_TESTS } from '../helpers/node-project.js';
import { makePlainProject } from '../helpers/plain-project.js';
import { CPP_TESTS, makeCppProject } from '../helpers/cpp-project.js';
import { makePhpProject, PHP_TESTDOX } from '../helpers/php-project.js';
import { makeMinitestProject, makeRubyProject, MINITEST_TESTS, RUBY_TESTS } from '../helpers/ruby-project.js';
import { makeRustProject, RUST_TESTS } from '../helpers/rust-project.js';

const BUILD_TIMEOUT = 600_000;
const tags: string[] = [];
const tagFor = (name: string) => {
  const tag = `bugbench-test/toolchain-${name}:latest`;
  tags.push(tag);
  return tag;
};

afterAll(async () => {
  for (const tag of tags) await dockerClient().getImage(tag).remove({ force: true }).catch(() => undefined);
});

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface Case {
  language: string;
  base: string;
  make: () => Promise<string>;
  testCommand: string | RegExp;
  /** A line the test command prints for a passing test of this name. */
  passLine: (name: string) => RegExp;
  tests: string[];
}

const CASES: Record<string, Case> = {
  go: {
    language: 'go',
    base: 'bugbench/base-go:bookworm',
    make: () => makeGoProject(),
    testCommand: 'go test -count=1 -v ./...',
    passLine: (name) => new RegExp(`^\\s*--- PASS: ${escape(name)} \\(`, 'm'),
    tests: [...GO_TESTS, 'TestNew/valid', 'TestNew/empty', 'TestNew/reversed'],
  },
  'node --test': {
    language: 'node',
    base: 'bugbench/base-node:bookworm',
    make: () => makeNodeProject(),
    testCommand: 'npm test',
    passLine: (name) => new RegExp(`^\\s*ok \\d+ - ${escape(name)}$`, 'm'),
    tests: NODE_TESTS,
  },
  vitest: {
    language: 'node',
    base: 'bugbench/base-node:bookworm',
    make: () => makeVitestProject(),
    testCommand: 'npm test',
    passLine: (name) => new RegExp(`✓ .*${escape(name)}`, 'm'),
    tests: VITEST_TESTS,
  },
  rust: {
    language: 'rust',
    base: 'bugbench/base-rust:bookworm',
    make: () => makeRustProject(),
    testCommand: 'cargo test',
    passLine: (name) => new RegExp(`^test ${escape(name)} \\.\\.\\. ok$`, 'm'),
    tests: RUST_TESTS,
  },
  java: {
    language: 'java',
    base: 'bugbench/base-java:bookworm',
    make: () => makeJavaProject(),
    testCommand: /javac .* && java -jar \/usr\/share\/java\/junit-platform-console-standalone\.jar .*--details=tree/,
    passLine: (name) => new RegExp(`─ ${escape(name)} ✔$`, 'm'),
    tests: JAVA_TESTS,
  },
  'cpp (CMake, GoogleTest, Catch2)': {
    language: 'cpp',
    base: 'bugbench/base-cpp:bookworm',
    make: () => makeCppProject(),
    testCommand: /^cmake -S \. -B \/tmp\/bugbench-build .* && ctest --test-dir \/tmp\/bugbench-build --output-on-failure$/,
    passLine: (name) => new RegExp(`Test +#\\d+: ${escape(name)} \\.* +Passed`, 'm'),
    tests: CPP_TESTS,
  },
  'ruby (RSpec)': {
    language: 'ruby',
    base: 'bugbench/base-ruby:bookworm',
    make: () => makeRubyProject(),
    testCommand: 'rspec --format documentation',
    // The documentation format prints each example's own title under its groups.
    passLine: (name) => new RegExp(`^ {4}${escape(name.replace(/^Ledger[.#]\w+ /, ''))}$`, 'm'),
    tests: RUBY_TESTS,
  },
  'ruby (minitest)': {
    language: 'ruby',
    base: 'bugbench/base-ruby:bookworm',
    make: () => makeMinitestProject(),
    testCommand: /^ruby -Ilib -Itest -e .* -- --verbose$/,
    passLine: (name) => new RegExp(`^${escape(name)} = [\\d.]+ s = \\.$`, 'm'),
    tests: MINITEST_TESTS,
  },
  'php (PHPUnit)': {
    language: 'php',
    base: 'bugbench/base-php:bookworm',
    make: () => makePhpProject(),
    testCommand: 'phpunit --testdox --colors=never',
    passLine: (name) => new RegExp(`^ ✔ ${escape(name)}$`, 'm'),
    tests: PHP_TESTDOX,
  },
};

async function buildJson(dir: string, tag: string, extra: string[] = []) {
  const result = await bugbench(['images', 'build', dir, '--tag', tag, '--json', ...extra], { timeout: BUILD_TIMEOUT });
  expect(result.exitCode, result.stderr).toBe(0);
  return { built: JSON.parse(result.stdout) as { tag: string; language: string; testCommand: string; commit: string }, stderr: result.stderr };
}

async function labelsOf(tag: string): Promise<Record<string, string>> {
  return (await dockerClient().getImage(tag).inspect()).Config.Labels ?? {};
}

/** Runs `command` in a fresh sandbox of `image` (no network); returns its output and the container's network mode. */
async function runInSandbox(image: string, command: string) {
  const sandbox = await openSandbox({ image, runId: 'test-toolchain-images' });
  try {
    const network = (await dockerClient().getContainer(sandbox.id).inspect()).HostConfig.NetworkMode;
    const run = await sandbox.exec(command, { timeoutMs: 300_000 });
    const status = await sandbox.exec('git status --porcelain');
    return { run, network, status: status.stdout };
  } finally {
    await sandbox.remove();
  }
}

describe('images build in each language', () => {
  for (const [name, c] of Object.entries(CASES)) {
    it(
      `builds a ${name} repository on ${c.base} and its detected tests pass with no network, one line per test`,
      async () => {
        const dir = await c.make();
        const tag = tagFor(name.replace(/\W+/g, '-').replace(/-$/, '').toLowerCase());
        const { built, stderr } = await buildJson(dir, tag);
        expect(stderr).toMatch(/installing dependencies|committing/);
        expect(built.language).toBe(c.language);
        expect(built.testCommand).toMatch(typeof c.testCommand === 'string' ? new RegExp(`^${escape(c.testCommand)}$`) : c.testCommand);
        const labels = await labelsOf(tag);
        expect(labels).toMatchObject({ 'bugbench.language': c.language, 'bugbench.test-cmd': built.testCommand, 'bugbench.toolchain': c.language });

        const { run, network, status } = await runInSandbox(tag, built.testCommand);
        expect(network).toBe('none');
        expect(run.exitCode, `${run.stdout}\n${run.stderr}`.slice(-3000)).toBe(0);
        for (const test of c.tests) expect(run.stdout, test).toMatch(c.passLine(test));
        // What the dependency step made (node_modules/, target/, Cargo.lock) is out of git's sight.
        expect(status).toBe('');
      },
      BUILD_TIMEOUT,
    );
  }

  it('keeps Python repositories as they were: Python base, pytest, no dependency step', async () => {
    const tag = tagFor('python');
    const { built, stderr } = await buildJson(await makePlainProject(), tag);
    expect(built).toMatchObject({ language: 'python', testCommand: 'python3 -m pytest -rA' });
    expect(stderr).not.toMatch(/installing dependencies/);
    const labels = await labelsOf(tag);
    expect(labels['bugbench.setup']).toBeUndefined();
    expect(labels['bugbench.toolchain']).toBeUndefined();
    const listed = await bugbench(['images', '--json']);
    const row = (JSON.parse(listed.stdout) as Record<string, unknown>[]).find((i) => i.tag === tag);
    expect(row).toMatchObject({ repo: 'ledger-project', language: 'python' });
    expect(Object.keys(row!).sort()).toEqual(['adopted', 'bugCounts', 'bugs', 'commit', 'created', 'id', 'language', 'repo', 'root', 'sizeBytes', 'tag', 'user', 'warning']);
    expect(row).toMatchObject({ root: '/repo', user: 'root', adopted: false, warning: '' });
  });
});

describe('images build --setup and --from', () => {
  it('runs --setup instead of the detected step, and keeps what it made through a reset', async () => {
    const tag = tagFor('setup');
    const { built } = await buildJson(await makeNodeProject('textkit-setup'), tag, ['--setup', 'mkdir -p vendor && echo made > vendor/made.txt']);
    expect(built.language).toBe('node');
    expect((await labelsOf(tag))['bugbench.setup']).toBe('mkdir -p vendor && echo made > vendor/made.txt');
    const { run, status } = await runInSandbox(tag, 'git clean -fd -q && cat vendor/made.txt');
    expect(run.stdout).toBe('made\n');
    expect(status).toBe('');
  });

  it('fails in one line naming the step and what to pass when the step fails, and tags nothing', async () => {
    const tag = tagFor('failing-setup');
    const result = await bugbench(['images', 'build', await makeNodeProject('textkit-broken'), '--tag', tag, '--setup', 'echo no registry here >&2; exit 3']);
    expect(result.exitCode).toBe(1);
    const last = result.stderr.trim().split('\n').at(-1)!;
    expect(last).toMatch(/^bugbench: the dependency step `echo no registry here >&2; exit 3` failed on bugbench\/base-node:bookworm \(exit 3\): .*no registry here/);
    expect(last).toMatch(/--setup CMD.*--from IMAGE/);
    expect(await dockerClient().getImage(tag).inspect().then(() => true, () => false)).toBe(false);
  });

  it('--from overrides the base; the language is still recorded, and a base without the toolchain says so', async () => {
    const dir = await makeGoProject('tracekit-from');
    const refused = await bugbench(['images', 'build', dir, '--tag', tagFor('from-refused'), '--from', 'bugbench/base:bookworm']);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/the dependency step `go mod download` failed on bugbench\/base:bookworm .*--from IMAGE/);

    const tag = tagFor('from');
    const { built } = await buildJson(dir, tag, ['--from', 'bugbench/base:bookworm', '--setup', '']);
    expect(built).toMatchObject({ language: 'go', testCommand: 'go test -count=1 -v ./...' });
    const labels = await labelsOf(tag);
    expect(labels['bugbench.language']).toBe('go');
    expect(labels['bugbench.toolchain']).toBeUndefined();
  });
});

describe('the Go and TypeScript samples', () => {
  const SAMPLES = [
    { tag: 'bugbench/repo-ratekit:latest', language: 'go', pass: /^[ \t]*--- PASS: /gm, tests: 45 },
    { tag: 'bugbench/repo-vercraft:latest', language: 'node', pass: /^[ \t]+ok \d+ - /gm, tests: 65 },
  ];
  for (const sample of SAMPLES) {
    it(
      `${sample.tag} holds a history with fixes and ${sample.tests} tests that pass with no network`,
      async () => {
        const labels = await labelsOf(sample.tag);
        expect(labels['bugbench.language']).toBe(sample.language);
        const sandbox = await openSandbox({ image: sample.tag, runId: 'test-toolchain-samples' });
        try {
          const log = await sandbox.exec('git log --format=%s');
          const subjects = log.stdout.trim().split('\n');
          expect(subjects.length).toBeGreaterThanOrEqual(20);
          expect(subjects.filter((s) => /^Fix /.test(s)).length).toBeGreaterThanOrEqual(5);
          const run = await sandbox.exec(labels['bugbench.test-cmd']!, { timeoutMs: 300_000 });
          expect(run.exitCode, run.stdout.slice(-2000)).toBe(0);
          const passes = run.stdout.match(sample.pass) ?? [];
          expect(passes.length).toBe(sample.tests);
          expect(run.stdout).not.toMatch(/^\s*(--- FAIL|not ok)/m);
        } finally {
          await sandbox.remove();
        }
      },
      BUILD_TIMEOUT,
    );
  }

  it('doctor reports the toolchain bases the samples need as built, and the others as built on demand', async () => {
    const result = await bugbench(['doctor', '--json']);
    const report = JSON.parse(result.stdout) as { toolchainBases: { language: string; tag: string; ok: boolean; neededBy: string[] }[] };
    const byLanguage = Object.fromEntries(report.toolchainBases.map((b) => [b.language, b]));
    expect(byLanguage.go).toMatchObject({ tag: 'bugbench/base-go:bookworm', ok: true, neededBy: ['ratekit'] });
    expect(byLanguage.node).toMatchObject({ tag: 'bugbench/base-node:bookworm', ok: true, neededBy: ['vercraft'] });
    expect(byLanguage.rust?.neededBy).toEqual([]);
    expect(byLanguage.java?.neededBy).toEqual([]);
  });
});
