/**
 * The languages bugbench builds repo images for, in one table. Each entry says
 * how a repository in that language is recognised, which base image holds its
 * toolchain (a recipe of Debian packages on top of the Python base), the step
 * that fetches its dependencies while the image is built (the only time the
 * network is on), an optional step that compiles ahead so the first test run
 * does not, and the test command bugbench proposes. Adding a language is one
 * more entry here; nothing else asks which language it has.
 *
 * Everything in this file is pure: it reads the repository's file list and
 * files through `RepoFiles` and returns strings.
 */

export type LanguageId = 'python' | 'go' | 'node' | 'rust' | 'java' | 'cpp' | 'ruby' | 'php';

/** What the detection may look at: every tracked path (relative, `/`-separated) and a reader for small files. */
export interface RepoFiles {
  files: readonly string[];
  read(path: string): string | undefined;
}

/** A toolchain base: Debian bookworm packages installed on top of the Python base. */
export interface BaseRecipe {
  /** The image tag, e.g. `bugbench/base-go:bookworm`. */
  tag: string;
  /** Debian packages, installed with `--no-install-recommends`. */
  packages: string[];
  /** Environment of every container made from the base. */
  env?: Record<string, string>;
  /** Paths (shell globs) removed after the install: parts of packages that building and testing a repository never use. */
  trim?: string[];
  /** What the base adds, in a few words (doctor, docs). */
  holds: string;
}

/** 2: a manifest says so outright; 1: the repository has source files in the language; 0: not this language. */
export type Recognition = 0 | 1 | 2;

export interface Language {
  id: LanguageId;
  name: string;
  /** The toolchain base, or null for the Python base itself (base-image.ts builds that one). */
  base: BaseRecipe | null;
  recognise(repo: RepoFiles): Recognition;
  /** A shell step run in /repo at build time with the network on; '' when the language needs none. */
  dependencyStep(repo: RepoFiles): string;
  /** A shell step run right after, compiling ahead; its failure is only noted. */
  warmStep?(repo: RepoFiles): string;
  /** The test command proposed for the image ('' when nothing says how tests run). */
  testCommand(repo: RepoFiles): string;
  /** Test commands of this language, to tell the language of an image built before images were labelled with it. */
  ranBy: RegExp;
}

const has = (repo: RepoFiles, path: string) => repo.files.includes(path);
const anyFile = (repo: RepoFiles, pattern: RegExp) => repo.files.some((f) => pattern.test(f));

function packageJson(repo: RepoFiles): { scripts?: Record<string, string>; dependencies?: object; devDependencies?: object; optionalDependencies?: object } | undefined {
  if (!has(repo, 'package.json')) return undefined;
  try {
    return JSON.parse(repo.read('package.json') ?? '{}') as ReturnType<typeof packageJson>;
  } catch {
    return undefined;
  }
}

const nonEmpty = (o: object | undefined) => o !== undefined && Object.keys(o).length > 0;

function pytestSays(repo: RepoFiles): boolean {
  return (
    has(repo, 'pytest.ini') ||
    has(repo, 'conftest.py') ||
    /\[tool\.pytest/.test(repo.read('pyproject.toml') ?? '') ||
    /\[tool:pytest\]/.test(repo.read('setup.cfg') ?? '') ||
    /\[pytest\]/.test(repo.read('tox.ini') ?? '') ||
    anyFile(repo, /(^|\/)(test_[^/]*|[^/]*_test)\.py$/)
  );
}

const python: Language = {
  id: 'python',
  name: 'Python',
  base: null,
  recognise: (repo) => (pytestSays(repo) ? 2 : anyFile(repo, /\.py$/) ? 1 : 0),
  dependencyStep: () => '',
  testCommand: (repo) => (pytestSays(repo) ? 'python3 -m pytest -rA' : ''),
  ranBy: /\bpytest\b|\bunittest\b/,
};

const go: Language = {
  id: 'go',
  name: 'Go',
  base: {
    tag: 'bugbench/base-go:bookworm',
    packages: ['golang-go'],
    // Go's own sources of its commands, compiled, and its test corpus: nothing a module's tests build.
    trim: ['/usr/lib/go-*/pkg/*/cmd', '/usr/share/go-*/test'],
    holds: 'Go 1.19 (golang-go)',
  },
  recognise: (repo) => (has(repo, 'go.mod') ? 2 : anyFile(repo, /\.go$/) ? 1 : 0),
  dependencyStep: (repo) => (has(repo, 'go.mod') ? 'go mod download' : ''),
  // Compiles every package and its tests into the build cache; -run '^$' runs none of them.
  warmStep: (repo) => (has(repo, 'go.mod') ? "go test -count=1 -run '^$' ./... > /dev/null" : ''),
  // -count=1: a cached result would hide a test that no longer gives the same answer twice.
  testCommand: (repo) => (has(repo, 'go.mod') ? 'go test -count=1 -v ./...' : ''),
  ranBy: /\bgo test\b/,
};

const rust: Language = {
  id: 'rust',
  name: 'Rust',
  base: {
    tag: 'bugbench/base-rust:bookworm',
    packages: ['cargo', 'rustc'],
    env: { CARGO_TERM_COLOR: 'never' },
    holds: 'Rust 1.63 (rustc, cargo) and the C linker it needs',
  },
  recognise: (repo) => (has(repo, 'Cargo.toml') ? 2 : anyFile(repo, /\.rs$/) ? 1 : 0),
  dependencyStep: (repo) => (has(repo, 'Cargo.toml') ? 'cargo fetch' : ''),
  warmStep: (repo) => (has(repo, 'Cargo.toml') ? 'cargo test --no-run --quiet' : ''),
  testCommand: (repo) => (has(repo, 'Cargo.toml') ? 'cargo test' : ''),
  ranBy: /\bcargo test\b/,
};

/** The JUnit 5 console launcher of Debian's junit5 package: the JUnit Jupiter API, engine and launcher in one jar. */
export const JUNIT_CONSOLE = '/usr/share/java/junit-platform-console-standalone.jar';

/**
 * Java sources without a build tool: compile every .java file against the
 * console launcher (which carries the JUnit 5 API) into a folder outside the
 * repository, then run every test class found there, one result line per test.
 */
const JAVAC_JUNIT = [
  'rm -rf /tmp/bugbench-java && mkdir -p /tmp/bugbench-java/classes',
  "find . -name '*.java' -not -path './.git/*' > /tmp/bugbench-java/sources",
  `javac -nowarn -encoding UTF-8 -d /tmp/bugbench-java/classes -cp ${JUNIT_CONSOLE} @/tmp/bugbench-java/sources`,
  `java -jar ${JUNIT_CONSOLE} --disable-banner --disable-ansi-colors --details=tree --class-path /tmp/bugbench-java/classes --scan-class-path`,
].join(' && ');

const gradleBuild = (repo: RepoFiles) => ['build.gradle', 'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts'].some((f) => has(repo, f));

const java: Language = {
  id: 'java',
  name: 'Java',
  base: {
    tag: 'bugbench/base-java:bookworm',
    packages: ['default-jdk-headless', 'junit5', 'maven'],
    holds: `OpenJDK 17, the JUnit 5 console launcher (${JUNIT_CONSOLE}) and Maven 3.8`,
  },
  recognise: (repo) => (has(repo, 'pom.xml') || gradleBuild(repo) ? 2 : anyFile(repo, /\.java$/) ? 1 : 0),
  // Maven and Gradle fetch plugins and libraries from Maven Central (or the repositories the build names);
  // a repository of plain .java files needs nothing.
  dependencyStep: (repo) =>
    has(repo, 'pom.xml') ? 'mvn -B -q dependency:go-offline' : gradleBuild(repo) && has(repo, 'gradlew') ? './gradlew --no-daemon -q testClasses' : '',
  testCommand: (repo) =>
    has(repo, 'pom.xml')
      ? 'mvn -o -B test'
      : gradleBuild(repo)
        ? has(repo, 'gradlew')
          ? './gradlew --offline --no-daemon test'
          : ''
        : anyFile(repo, /\.java$/)
          ? JAVAC_JUNIT
          : '',
  ranBy: /\bmvn\b|gradle|junit|\bjavac\b/,
};

const NPM_PLACEHOLDER = /no test specified/;

const node: Language = {
  id: 'node',
  name: 'JavaScript/TypeScript',
  base: {
    tag: 'bugbench/base-node:bookworm',
    packages: ['nodejs', 'npm'],
    // Tests run without network: npm must not ask the registry whether it is out of date.
    env: { NPM_CONFIG_UPDATE_NOTIFIER: 'false', NPM_CONFIG_FUND: 'false', NPM_CONFIG_AUDIT: 'false' },
    holds: 'Node.js 18 and npm 9',
  },
  recognise: (repo) => (has(repo, 'package.json') ? 2 : anyFile(repo, /\.(m|c)?(j|t)sx?$/) ? 1 : 0),
  dependencyStep: (repo) => {
    if (has(repo, 'package-lock.json') || has(repo, 'npm-shrinkwrap.json')) return 'npm ci';
    const manifest = packageJson(repo);
    const needs = manifest && (nonEmpty(manifest.dependencies) || nonEmpty(manifest.devDependencies) || nonEmpty(manifest.optionalDependencies));
    return needs ? 'npm install' : '';
  },
  testCommand: (repo) => {
    const script = packageJson(repo)?.scripts?.test;
    if (script && !NPM_PLACEHOLDER.test(script)) return 'npm test';
    // node's own runner finds *.test.js, *-test.js, *_test.js and test/**/*.js by itself.
    return anyFile(repo, /(^|\/)test\/.*\.(c|m)?js$|[._-]test\.(c|m)?js$/) ? 'node --test' : '';
  },
  ranBy: /\bnpm\b|\bnode\b|\bnpx\b|\bjest\b|\bvitest\b|\bmocha\b/,
};

const CMAKE_TEST = 'cmake -S . -B /tmp/bugbench-build -DCMAKE_BUILD_TYPE=Debug > /dev/null && cmake --build /tmp/bugbench-build -j 2 && ctest --test-dir /tmp/bugbench-build --output-on-failure';
const cmakeTests = (repo: RepoFiles) => /\b(enable_testing|add_test|gtest_discover_tests|catch_discover_tests|CTest)\b/.test(repo.read('CMakeLists.txt') ?? '');

/**
 * C and C++ built with CMake and tested by CTest (GoogleTest and Catch2 from
 * Debian's packages, found by find_package). Nothing is fetched: C and C++
 * have no registry, and a project that downloads its test framework at
 * configure time (FetchContent) does so while the image is built, in the
 * warm step, when the network is on.
 */
const cpp: Language = {
  id: 'cpp',
  name: 'C/C++',
  base: {
    tag: 'bugbench/base-cpp:bookworm',
    packages: ['g++', 'make', 'cmake', 'ccache', 'googletest', 'libgtest-dev', 'libgmock-dev', 'catch2', 'pkg-config'],
    // Every check starts from a fresh checkout, whose files are all newer than the objects compiled while the image
    // was built, so make would compile everything again each run; ccache knows the objects by content instead.
    env: { CMAKE_C_COMPILER_LAUNCHER: 'ccache', CMAKE_CXX_COMPILER_LAUNCHER: 'ccache', CCACHE_DIR: '/var/cache/ccache' },
    holds: 'GCC 12 (g++) with ccache, CMake 3.25 with CTest, GoogleTest 1.12 and Catch2 2.13',
  },
  recognise: (repo) => (has(repo, 'CMakeLists.txt') ? 2 : anyFile(repo, /\.(c|cc|cpp|cxx|h|hh|hpp)$/) ? 1 : 0),
  dependencyStep: () => '',
  // Configures and compiles once while the image is built, so the first test run only rebuilds what changed.
  warmStep: (repo) => (cmakeTests(repo) ? 'cmake -S . -B /tmp/bugbench-build -DCMAKE_BUILD_TYPE=Debug > /dev/null && cmake --build /tmp/bugbench-build -j 2 > /dev/null' : ''),
  testCommand: (repo) => (cmakeTests(repo) ? CMAKE_TEST : ''),
  ranBy: /\bctest\b|\bcmake\b|gtest|catch2/i,
};

const gemfileSays = (repo: RepoFiles, gem: string) => new RegExp(`gem\\s+['"]${gem}['"]`).test(repo.read('Gemfile') ?? '');
const rspecSays = (repo: RepoFiles) => has(repo, '.rspec') || anyFile(repo, /(^|\/)spec\/.*_spec\.rb$/) || gemfileSays(repo, 'rspec');
const minitestSays = (repo: RepoFiles) => anyFile(repo, /(^|\/)test\/(.*\/)?(test_[^/]*|[^/]*_test)\.rb$/);

/**
 * Ruby with RSpec or minitest from Debian's packages. Bundler would fetch the
 * Gemfile's gems from rubygems.org, a registry, so no dependency step is run;
 * a repository whose tests need gems Debian does not ship needs an image of
 * its own (images adopt).
 */
const ruby: Language = {
  id: 'ruby',
  name: 'Ruby',
  base: {
    tag: 'bugbench/base-ruby:bookworm',
    packages: ['ruby', 'ruby-rspec', 'ruby-minitest', 'rake'],
    env: { LANG: 'C.UTF-8' },
    holds: 'Ruby 3.1, RSpec 3.12, minitest 5 and rake',
  },
  recognise: (repo) => (has(repo, 'Gemfile') || has(repo, 'Rakefile') || has(repo, '.rspec') || anyFile(repo, /\.gemspec$/) ? 2 : anyFile(repo, /\.rb$/) ? 1 : 0),
  dependencyStep: () => '',
  testCommand: (repo) =>
    rspecSays(repo)
      ? 'rspec --format documentation'
      : minitestSays(repo)
        ? "ruby -Ilib -Itest -e 'Dir.glob(\"./test/**/{test_*,*_test}.rb\").sort.each { |f| require f }' -- --verbose"
        : '',
  ranBy: /\brspec\b|\bruby\b|\brake\b|minitest/,
};

/**
 * PHP with PHPUnit from Debian's package. Composer would fetch from
 * Packagist, a registry, so no dependency step is run; a repository's
 * autoloading comes from its phpunit.xml's bootstrap.
 */
const php: Language = {
  id: 'php',
  name: 'PHP',
  base: {
    tag: 'bugbench/base-php:bookworm',
    packages: ['php-cli', 'phpunit'],
    holds: 'PHP 8.2 and PHPUnit 9.6',
  },
  recognise: (repo) => (has(repo, 'composer.json') || has(repo, 'phpunit.xml') || has(repo, 'phpunit.xml.dist') ? 2 : anyFile(repo, /\.php$/) ? 1 : 0),
  dependencyStep: () => '',
  testCommand: (repo) =>
    has(repo, 'phpunit.xml') || has(repo, 'phpunit.xml.dist') ? 'phpunit --testdox --colors=never' : anyFile(repo, /(^|\/)tests?\/.*Test\.php$/) ? 'phpunit --testdox --colors=never tests' : '',
  ranBy: /\bphpunit\b|\bphp\b/,
};

/**
 * Every language, in the order that settles ties: a repository with both a
 * pytest suite and a package.json is a Python one (as bugbench always read
 * it), one with go.mod and package.json a Go one. Rails and Laravel
 * applications carry a package.json for their assets, so Ruby and PHP come
 * before JavaScript; a CMakeLists.txt builds native parts of projects in
 * every language, so C/C++ comes last.
 */
export const LANGUAGES: readonly Language[] = [python, go, rust, java, ruby, php, node, cpp];

/** The language a repository is written in: the first with a manifest, else the first with source files; undefined for neither. */
export function detectLanguage(repo: RepoFiles): Language | undefined {
  const scored = LANGUAGES.map((language) => ({ language, score: language.recognise(repo) }));
  return (scored.find((s) => s.score === 2) ?? scored.find((s) => s.score === 1))?.language;
}

export function languageById(id: string): Language | undefined {
  return LANGUAGES.find((l) => l.id === id);
}

/** The language of an image from its labels: `bugbench.language`, else guessed from its test command (images built before the label). */
export function languageOfImage(labelled: string | undefined, testCommand: string): string {
  if (labelled !== undefined) return labelled;
  return LANGUAGES.find((l) => testCommand !== '' && l.ranBy.test(testCommand))?.id ?? '';
}
