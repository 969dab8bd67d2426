/**
 * C and C++ built with CMake: test sources by name (stats_test.cc,
 * parser_unittest.cpp, test_parser.c; test/ and tests/ folders are the shared
 * rule's), CTest's own configuration files, and in CMakeLists.txt (or a
 * *.cmake file) the commands that set up the tests: enable_testing,
 * include(CTest|GoogleTest|Catch), add_test, set_tests_properties, the
 * frameworks' discovery (gtest_discover_tests, catch_discover_tests, …),
 * find_package of a test framework, and every command on a test target (the
 * executables those commands run: compile definitions, libraries, options).
 *
 * CMake's syntax is small: commands `name(arguments)` with quoted and
 * bracket arguments, line and bracket comments; cmake-commands.ts splits a
 * file into its commands.
 */
import { addPart, baseName, type TestConvention, type TestParts } from './convention.js';
import { cmakeCommands, type CMakeCommand } from './cmake-commands.js';

const CXX = /\.(?:c|cc|cpp|cxx|c\+\+)$/;
const TEST_SOURCE = /^(?:.+_(?:test|tests|unittest)|test_.+|.+Test|.+Tests)\.(?:c|cc|cpp|cxx|c\+\+)$/;
const CTEST_FILES = new Set(['CTestConfig.cmake', 'CTestCustom.cmake', 'CTestCustom.ctest', 'CTestTestfile.cmake']);

/** Commands that belong to the tests whatever their arguments. */
const TEST_COMMANDS = new Set([
  'enable_testing',
  'add_test',
  'set_tests_properties',
  'gtest_discover_tests',
  'gtest_add_tests',
  'catch_discover_tests',
  'doctest_discover_tests',
]);
/** Commands whose first argument names the test executable they register. */
const REGISTERS_TARGET = new Set(['gtest_discover_tests', 'gtest_add_tests', 'catch_discover_tests', 'doctest_discover_tests']);
const TEST_MODULES = /^(?:CTest|GoogleTest|Catch|ParseAndAddCatchTests|doctest)$/;
const TEST_PACKAGES = /^(?:GTest|GMock|googletest|Catch2|doctest|Boost\.Test|CppUTest|UnitTest\+\+)$/i;
/** Commands whose first argument is a target they configure. */
const ON_TARGET = /^(?:target_\w+|set_target_properties|add_dependencies)$/;

const isCMake = (path: string) => baseName(path) === 'CMakeLists.txt' || path.endsWith('.cmake');

/** The executables that tests run: those the discovery commands name, add_test's COMMAND, and executables built from test sources. */
function testTargets(commands: CMakeCommand[]): Set<string> {
  const targets = new Set<string>();
  for (const { name, args } of commands) {
    if (REGISTERS_TARGET.has(name) && args[0]) targets.add(args[0]);
    if (name === 'add_test') {
      const at = args.indexOf('COMMAND');
      // add_test(NAME n COMMAND target …), or the old form add_test(name target …).
      const target = at >= 0 ? args[at + 1] : args[1];
      if (target) targets.add(target);
    }
  }
  for (const { name, args } of commands) {
    if (name === 'add_executable' && args[0] && args.slice(1).some((source) => TEST_SOURCE.test(baseName(source)))) targets.add(args[0]);
  }
  return targets;
}

export function cmakeTestParts(text: string): TestParts {
  const parts: TestParts = new Map();
  const commands = cmakeCommands(text);
  const targets = testTargets(commands);
  for (const command of commands) {
    const { name, args, text: source } = command;
    const first = args[0] ?? '';
    const isTest =
      TEST_COMMANDS.has(name) ||
      (name === 'include' && TEST_MODULES.test(first)) ||
      (name === 'find_package' && TEST_PACKAGES.test(first)) ||
      (name === 'fetchcontent_declare' && TEST_PACKAGES.test(first)) ||
      ((name === 'add_executable' || ON_TARGET.test(name)) && targets.has(first));
    if (isTest) addPart(parts, 'CMake test setup: enable_testing, add_test, test discovery, test executables', source);
  }
  return parts;
}

export const CMAKE_CONVENTION: TestConvention = {
  name: 'cmake',
  byPath(path) {
    const base = baseName(path);
    if (CTEST_FILES.has(base)) return 'CTest configuration';
    if (TEST_SOURCE.test(base)) return 'a C/C++ test source (*_test.cc, test_*.c, …)';
    return undefined;
  },
  isTestModule: (path) => CXX.test(path) && TEST_SOURCE.test(baseName(path)),
  mayHoldTests: isCMake,
  testParts: (_path, text) => cmakeTestParts(text),
};
