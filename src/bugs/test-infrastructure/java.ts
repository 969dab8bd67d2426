/**
 * Java (and Kotlin, Groovy, Scala on the JVM): Maven's and Gradle's test
 * source sets (src/test/, src/integrationTest/, src/testFixtures/, src/it/…),
 * and the parts of pom.xml and the Gradle build scripts that configure test
 * tasks and test dependencies.
 */
import { baseName, foldersOf, type TestConvention } from './convention.js';
import { gradleTestParts } from './gradle.js';
import { pomTestParts } from './maven.js';

/** Source sets of tests: Maven's test and it, Gradle's test, testFixtures and any *Test (integrationTest, functionalTest). */
const TEST_SOURCE_SET = /^(?:test|it|testFixtures|[a-z]\w*Test)$/;
/** Classes Surefire and Failsafe run by default. */
const TEST_CLASS = /^(?:Test\w*|\w+(?:Test|Tests|TestCase|IT|ITCase)|IT\w+)\.(?:java|kt|groovy|scala)$/;
const BUILD_SCRIPTS = new Set(['build.gradle', 'build.gradle.kts']);

/** The test source set `path` lies in, or undefined. */
function sourceSet(path: string): string | undefined {
  const folders = foldersOf(path);
  const at = folders.findIndex((f, i) => f === 'src' && TEST_SOURCE_SET.test(folders[i + 1] ?? ''));
  return at < 0 ? undefined : folders[at + 1];
}

export const JAVA_CONVENTION: TestConvention = {
  name: 'java',
  byPath(path) {
    const set = sourceSet(path);
    return set ? `under src/${set}/ (test sources)` : undefined;
  },
  isTestModule(path) {
    const set = sourceSet(path);
    return set !== undefined && set !== 'testFixtures' && TEST_CLASS.test(baseName(path));
  },
  mayHoldTests: (path) => baseName(path) === 'pom.xml' || BUILD_SCRIPTS.has(baseName(path)),
  testParts: (path, text) => (baseName(path) === 'pom.xml' ? pomTestParts(text) : gradleTestParts(path, text)),
};
