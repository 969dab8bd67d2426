import { describe, expect, it } from 'vitest';
import { StepLines } from '../../../src/sandbox/docker-api/build-output.js';
import { stepScript } from '../../../src/sandbox/docker-api/dependency-step.js';
import { detectLanguage, languageById, languageOfImage, LANGUAGES, type RepoFiles } from '../../../src/sandbox/languages.js';
import { buildSteps, detectTestCommand } from '../../../src/sandbox/docker-api/repo-image.js';
import { listSamples, sampleDigest } from '../../../src/sandbox/docker-api/samples.js';
import { baseDockerfile, recipeDigest } from '../../../src/sandbox/docker-api/toolchain-base.js';

const repo = (files: Record<string, string>): RepoFiles => ({ files: Object.keys(files), read: (p) => files[p] });

describe('detectLanguage', () => {
  it('recognises each language by its manifest', () => {
    expect(detectLanguage(repo({ 'go.mod': 'module x', 'a.go': '' }))?.id).toBe('go');
    expect(detectLanguage(repo({ 'Cargo.toml': '[package]' }))?.id).toBe('rust');
    expect(detectLanguage(repo({ 'pom.xml': '<project/>' }))?.id).toBe('java');
    expect(detectLanguage(repo({ 'build.gradle.kts': '' }))?.id).toBe('java');
    expect(detectLanguage(repo({ 'package.json': '{}' }))?.id).toBe('node');
    expect(detectLanguage(repo({ 'tests/test_a.py': '' }))?.id).toBe('python');
  });

  it('prefers a manifest to loose source files, and a pytest suite to package.json, as before', () => {
    expect(detectLanguage(repo({ 'go.mod': '', 'tools/gen.py': '' }))?.id).toBe('go');
    expect(detectLanguage(repo({ 'package.json': '{"scripts":{"test":"jest"}}', 'tests/test_x.py': '' }))?.id).toBe('python');
    expect(detectLanguage(repo({ 'src/main/java/A.java': '' }))?.id).toBe('java');
    expect(detectLanguage(repo({ 'README.md': '', 'main.hs': '' }))).toBeUndefined();
    expect(detectLanguage(repo({ 'README.md': '', 'main.c': '' }))?.id).toBe('cpp');
    expect(detectLanguage(repo({ 'Gemfile': '', 'package.json': '{}' }))?.id).toBe('ruby');
    expect(detectLanguage(repo({ 'composer.json': '{}', 'package.json': '{}' }))?.id).toBe('php');
    expect(detectLanguage(repo({ 'package.json': '{}', 'CMakeLists.txt': '' }))?.id).toBe('node');
    expect(detectLanguage(repo({ 'pyproject.toml': '', 'tests/test_a.py': '', 'CMakeLists.txt': '' }))?.id).toBe('python');
  });

  it('proposes each language its own test command', () => {
    const command = (files: Record<string, string>) => detectTestCommand(Object.keys(files), (p) => files[p]);
    expect(command({ 'go.mod': '' })).toBe('go test -count=1 -v ./...');
    expect(command({ 'Cargo.toml': '' })).toBe('cargo test');
    expect(command({ 'pom.xml': '' })).toBe('mvn -o -B test');
    expect(command({ 'package.json': '{"scripts":{"test":"vitest run"}}' })).toBe('npm test');
    expect(command({ 'package.json': '{"scripts":{"test":"echo \\"Error: no test specified\\" && exit 1"}}', 'test/a.test.js': '' })).toBe('node --test');
    expect(command({ 'src/A.java': '', 'src/ATest.java': '' })).toMatch(/^rm -rf \/tmp\/bugbench-java .* --scan-class-path$/);
    // C/C++: CMake with CTest builds outside the repository and runs every test; without add_test nothing says how.
    expect(command({ 'CMakeLists.txt': 'enable_testing()\nadd_test(NAME a COMMAND a)' })).toMatch(/^cmake -S \. -B \/tmp\/bugbench-build .* && ctest --test-dir \/tmp\/bugbench-build --output-on-failure$/);
    expect(command({ 'CMakeLists.txt': 'add_executable(app main.cc)' })).toBe('');
    expect(command({ Gemfile: "gem 'rspec'", 'spec/a_spec.rb': '' })).toBe('rspec --format documentation');
    expect(command({ Rakefile: '', 'test/a_test.rb': '' })).toMatch(/^ruby -Ilib -Itest -e .* -- --verbose$/);
    expect(command({ 'composer.json': '{}', 'phpunit.xml.dist': '' })).toBe('phpunit --testdox --colors=never');
    expect(command({ 'composer.json': '{}', 'tests/ATest.php': '' })).toBe('phpunit --testdox --colors=never tests');
  });

  it('fetches nothing for C/C++, Ruby or PHP (Bundler and Composer would use a registry) and compiles CMake projects ahead', () => {
    expect(languageById('ruby')!.dependencyStep(repo({ Gemfile: "gem 'rspec'" }))).toBe('');
    expect(languageById('php')!.dependencyStep(repo({ 'composer.json': '{}' }))).toBe('');
    const cpp = languageById('cpp')!;
    expect(buildSteps(cpp, repo({ 'CMakeLists.txt': 'enable_testing()' }), undefined)).toEqual({ setup: '', warm: expect.stringMatching(/^cmake -S \. -B \/tmp\/bugbench-build .*> \/dev\/null$/) });
    expect(cpp.base?.env).toMatchObject({ CMAKE_CXX_COMPILER_LAUNCHER: 'ccache' });
  });
});

describe('dependency steps', () => {
  const node = languageById('node')!;
  it('uses npm ci with a lockfile, npm install with dependencies, nothing without', () => {
    expect(node.dependencyStep(repo({ 'package.json': '{}', 'package-lock.json': '{}' }))).toBe('npm ci');
    expect(node.dependencyStep(repo({ 'package.json': '{"devDependencies":{"vitest":"1"}}' }))).toBe('npm install');
    expect(node.dependencyStep(repo({ 'package.json': '{"name":"x"}' }))).toBe('');
  });

  it('lets --setup replace the detected step and keeps compiling ahead', () => {
    const go = languageById('go')!;
    const files = repo({ 'go.mod': '' });
    expect(buildSteps(go, files, undefined)).toEqual({ setup: 'go mod download', warm: "go test -count=1 -run '^$' ./... > /dev/null" });
    expect(buildSteps(go, files, 'make deps').setup).toBe('make deps');
    expect(buildSteps(go, files, '').setup).toBe('');
    expect(buildSteps(languageById('python'), repo({ 'tests/test_a.py': '' }), undefined)).toEqual({ setup: '', warm: '' });
  });

  it('writes no script when there is nothing to do, else one that hides what the step made from git', () => {
    expect(stepScript({ setup: '', warm: '' })).toBe('');
    const script = stepScript({ setup: 'npm ci', warm: '' });
    expect(script).toMatch(/^set -e$/m);
    expect(script).toMatch(/^npm ci$/m);
    expect(script).toMatch(/ls-files --others --directory --exclude-standard .*>> \.git\/info\/exclude/);
  });
});

describe('toolchain base recipes', () => {
  it('installs each base with apt from the Python base, without recommends, and labels its language', () => {
    for (const language of LANGUAGES.filter((l) => l.base)) {
      const dockerfile = baseDockerfile(language.id, language.base!);
      expect(dockerfile).toMatch(/^FROM bugbench\/base:bookworm$/m);
      expect(dockerfile).toMatch(new RegExp(`apt-get install -y .*--no-install-recommends ${language.base!.packages.join(' ').replace(/[+.]/g, '\\$&')};`));
      expect(dockerfile).toMatch(new RegExp(`^LABEL bugbench.toolchain=${language.id}$`, 'm'));
      expect(dockerfile).not.toMatch(/deb\.debian\.org|https?:\/\//);
    }
  });

  it('has a digest that follows the recipe', () => {
    const go = languageById('go')!;
    expect(recipeDigest('go', go.base!)).toBe(recipeDigest('go', { ...go.base! }));
    expect(recipeDigest('go', { ...go.base!, packages: ['golang-go', 'gcc'] })).not.toBe(recipeDigest('go', go.base!));
  });
});

describe('samples', () => {
  it('knows the language of each bundled sample from its patch series', () => {
    const languages = Object.fromEntries(listSamples().map((s) => [s.name, s.language]));
    expect(languages).toMatchObject({ knotcfg: 'python', slotsmith: 'python', ratekit: 'go', vercraft: 'node' });
  });

  it('leaves the Python samples digest as it was (the series alone) and adds the base recipe for the others', async () => {
    const { createHash } = await import('node:crypto');
    const { readFileSync } = await import('node:fs');
    for (const sample of listSamples()) {
      const series = createHash('sha256');
      for (const patch of sample.patches) series.update(readFileSync(patch));
      const seriesOnly = series.digest('hex').slice(0, 16);
      if (sample.language === 'python') expect(sampleDigest(sample)).toBe(seriesOnly);
      else expect(sampleDigest(sample)).not.toBe(seriesOnly);
    }
  });
});

describe('languageOfImage', () => {
  it('reads the label, else the test command of an image built before the label', () => {
    expect(languageOfImage('rust', 'anything')).toBe('rust');
    expect(languageOfImage(undefined, 'python3 -m pytest -rA')).toBe('python');
    expect(languageOfImage(undefined, 'go test ./...')).toBe('go');
    expect(languageOfImage(undefined, '')).toBe('');
  });
});

describe('StepLines', () => {
  it('shows each apt phase once and then every n-th line, hides dpkg chatter, keeps errors', () => {
    const lines = new StepLines(3, 5, /^\s+\S/);
    const shown = [
      'Step 3/5 : RUN apt-get update',
      '\x1b[91mdebconf: delaying package configuration\x1b[0m',
      '(Reading database ... 45%',
      ...['a', 'b', 'c', 'd', 'e'].map((p) => `Unpacking ${p} (1.0) ...`),
      '  golang-go libfoo',
      'E: Unable to locate package nope',
    ]
      .map((l) => lines.filter(l))
      .filter((l) => l !== undefined);
    expect(shown).toEqual(['Step 3/5 : RUN apt-get update', 'Unpacking a (1.0) ...', 'Unpacking d (1.0) ...', 'E: Unable to locate package nope']);
    expect(lines.lastLines()).toContain('E: Unable to locate package nope');
  });
});
