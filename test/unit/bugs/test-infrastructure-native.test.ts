import { describe, expect, it } from 'vitest';
import { isTestModulePath, mayHoldTestConfig, testConfigChange, testInfrastructureReason } from '../../../src/bugs/test-infrastructure.js';
import { cmakeCommands } from '../../../src/bugs/test-infrastructure/cmake-commands.js';
import { removedInDiff } from '../../../src/bugs/weakening.js';

const CMAKE = `cmake_minimum_required(VERSION 3.16)
project(tally CXX)
add_library(tally src/stats.cc) # the library
target_compile_definitions(tally PRIVATE TALLY_FAST=1)

enable_testing()
find_package(GTest REQUIRED)
include(GoogleTest)
add_executable(stats_test tests/stats_test.cc)
target_link_libraries(stats_test PRIVATE tally GTest::gtest_main)
target_compile_definitions(stats_test PRIVATE TALLY_EPSILON=1e-9)
gtest_discover_tests(stats_test)
add_executable(smoke tools/smoke.cc)
add_test(NAME smoke COMMAND smoke --quick)
set_target_properties(smoke PROPERTIES OUTPUT_NAME "smoke check")
#[[ a bracket comment: add_test(NAME fake COMMAND fake) ]]
`;

describe('C/C++ test infrastructure', () => {
  it.each([
    ['tests/stats_test.cc', 'a C/C++ test source (*_test.cc, test_*.c, …)'],
    ['tests/helpers.h', 'under a test folder (tests/)'],
    ['src/stats_test.cc', 'a C/C++ test source (*_test.cc, test_*.c, …)'],
    ['lib/parser_unittest.cpp', 'a C/C++ test source (*_test.cc, test_*.c, …)'],
    ['src/test_parser.c', 'a C/C++ test source (*_test.cc, test_*.c, …)'],
    ['CTestCustom.cmake', 'CTest configuration'],
  ])('%s is %s', (path, reason) => {
    expect(testInfrastructureReason(path)).toBe(reason);
  });

  it.each(['src/stats.cc', 'src/latest.cc', 'include/tally/testing.h', 'CMakeLists.txt'])('%s is not, by name', (path) => {
    expect(testInfrastructureReason(path)).toBeUndefined();
  });

  it('splits CMake into commands, quoted and bracket arguments and comments as CMake reads them', () => {
    const commands = cmakeCommands('set(A "x ) y" [=[z]=]) # add_test(no)\nIF(A)\n  message(STATUS "(nested)")\nendif()\n');
    expect(commands.map((c) => [c.name, c.args])).toEqual([
      ['set', ['A', 'x ) y', 'z']],
      ['if', ['A']],
      ['message', ['STATUS', '(nested)']],
      ['endif', []],
    ]);
  });

  it("finds CMakeLists.txt's test setup: a change to it is named, a change to the library's build is not", async () => {
    expect(mayHoldTestConfig('CMakeLists.txt')).toBe(true);
    expect(mayHoldTestConfig('cmake/Tests.cmake')).toBe(true);
    const reason = 'CMake test setup: enable_testing, add_test, test discovery, test executables';
    expect(await testConfigChange('CMakeLists.txt', CMAKE, CMAKE.replace('TALLY_EPSILON=1e-9', 'TALLY_EPSILON=0'))).toBe(reason);
    expect(await testConfigChange('CMakeLists.txt', CMAKE, CMAKE.replace('--quick', '--slow'))).toBe(reason);
    expect(await testConfigChange('CMakeLists.txt', CMAKE, CMAKE.replace('"smoke check"', '"smoke"'))).toBe(reason);
    expect(await testConfigChange('CMakeLists.txt', CMAKE, CMAKE.replace('gtest_discover_tests(stats_test)', ''))).toBe(reason);
    expect(await testConfigChange('CMakeLists.txt', CMAKE, CMAKE.replace('TALLY_FAST=1', 'TALLY_FAST=0'))).toBeUndefined();
    expect(await testConfigChange('CMakeLists.txt', CMAKE, CMAKE.replace('a bracket comment', 'a comment'))).toBeUndefined();
  });

  it('names test sources as test modules', () => {
    expect(isTestModulePath('tests/stats_test.cc')).toBe(true);
    expect(isTestModulePath('src/stats.cc')).toBe(false);
  });
});

describe('Ruby test infrastructure', () => {
  it.each([
    ['.rspec', 'RSpec options (.rspec)'],
    ['spec/spec_helper.rb', 'a test helper (spec_helper.rb)'],
    ['spec/rails_helper.rb', 'a test helper (rails_helper.rb)'],
    ['test/test_helper.rb', 'a test helper (test_helper.rb)'],
    ['spec/support/money.rb', 'under spec/ (RSpec)'],
    ['spec/ledger_spec.rb', 'under spec/ (RSpec)'],
    ['lib/ledger/parse_spec.rb', 'a Ruby test file (*_spec.rb, *_test.rb, test_*.rb)'],
    ['test/ledger_test.rb', 'a Ruby test file (*_spec.rb, *_test.rb, test_*.rb)'],
  ])('%s is %s', (path, reason) => {
    expect(testInfrastructureReason(path)).toBe(reason);
  });

  it.each(['lib/ledger.rb', 'lib/spec.rb', 'Gemfile', 'Rakefile'])('%s is not, by name', (path) => {
    expect(testInfrastructureReason(path)).toBeUndefined();
  });

  it("finds the Rakefile's test tasks and default task", async () => {
    const rakefile = "require 'rake/testtask'\n\nRake::TestTask.new(:test) do |t|\n  t.libs << 'test'\n  t.pattern = 'test/**/*_test.rb'\nend\n\ntask default: :test\n\ntask :release do\n  sh 'gem build'\nend\n";
    expect(await testConfigChange('Rakefile', rakefile, rakefile.replace("'test/**/*_test.rb'", "'test/**/nothing.rb'"))).toBe('Rake test task');
    expect(await testConfigChange('Rakefile', rakefile, rakefile.replace('task default: :test', 'task default: :release'))).toBe('Rake default task');
    expect(await testConfigChange('Rakefile', rakefile, rakefile.replace("sh 'gem build'", "sh 'gem build --strict'"))).toBeUndefined();
  });
});

describe('PHP test infrastructure', () => {
  it.each([
    ['phpunit.xml.dist', 'PHPUnit configuration (phpunit.xml.dist)'],
    ['phpunit.xml', 'PHPUnit configuration (phpunit.xml)'],
    ['tests/bootstrap.php', 'a PHPUnit bootstrap (bootstrap.php)'],
    ['tests/Unit/SlugTest.php', 'a PHPUnit test class (*Test.php)'],
    ['src/SlugTest.php', 'a PHPUnit test class (*Test.php)'],
  ])('%s is %s', (path, reason) => {
    expect(testInfrastructureReason(path)).toBe(reason);
  });

  it.each(['src/Slug.php', 'bootstrap.php', 'src/Testing.php', 'composer.json'])('%s is not, by name', (path) => {
    expect(testInfrastructureReason(path)).toBeUndefined();
  });

  it("finds composer.json's autoload-dev, require-dev and test script", async () => {
    const composer = JSON.stringify({ autoload: { 'psr-4': { 'A\\': 'src/' } }, 'autoload-dev': { 'psr-4': { 'A\\Tests\\': 'tests/' } }, scripts: { test: 'phpunit' } });
    const change = (f: (m: Record<string, any>) => void) => {
      const m = JSON.parse(composer);
      f(m);
      return JSON.stringify(m);
    };
    expect(await testConfigChange('composer.json', composer, change((m) => (m.scripts.test = 'phpunit --filter none')))).toBe("composer.json's test script");
    expect(await testConfigChange('composer.json', composer, change((m) => (m['autoload-dev']['psr-4']['A\\Tests\\'] = 'spec/')))).toBe("composer.json's autoload-dev");
    expect(await testConfigChange('composer.json', composer, change((m) => (m.autoload['psr-4']['A\\'] = 'lib/')))).toBeUndefined();
  });
});

describe('tests of C/C++, Ruby and PHP deleted by a weakening, by name', () => {
  const diff = (removed: string, added = '') => `--- a/x\n+++ b/x\n${removed.split('\n').map((l) => `-${l}`).join('\n')}\n${added ? added.split('\n').map((l) => `+${l}`).join('\n') : ''}\n`;

  it("finds an RSpec example or a Catch2 case by the title its full name ends with, and not when the title stays", () => {
    expect(removedInDiff('Ledger.format keeps the sign of small negatives', diff("    it 'keeps the sign of small negatives' do"))).toBe(true);
    expect(removedInDiff('Ledger#balance sums every entry', diff("    it 'sums every entry' do"))).toBe(true);
    expect(removedInDiff('Ledger#balance sums every entry', diff("    it 'sums every entry' do", "    it 'sums every entry', :slow do"))).toBe(false);
    expect(removedInDiff('trims spaces around keys and values', diff('TEST_CASE("trims spaces around keys and values", "[parse]") {'))).toBe(true);
    expect(removedInDiff('Ledger#balance sums every entry', diff("    it 'is zero when empty' do"))).toBe(false);
  });

  it('finds a PHPUnit test by the method testdox spelled out, and GoogleTest and minitest tests by their names', () => {
    expect(removedInDiff('Slugkit\\Tests\\Slug::Truncates at a word boundary', diff('    public function testTruncatesAtAWordBoundary(): void'))).toBe(true);
    expect(removedInDiff('Slugkit\\Tests\\Slug::Keeps short slugs', diff('    public function testTruncatesAtAWordBoundary(): void'))).toBe(false);
    expect(removedInDiff('StatsTest.MeanOfTenths', diff('TEST(StatsTest, MeanOfTenths) {'))).toBe(true);
    expect(removedInDiff('LedgerCentsTest#test_whole_amounts', diff('  def test_whole_amounts'))).toBe(true);
  });
});
