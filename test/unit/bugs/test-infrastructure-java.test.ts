import { describe, expect, it } from 'vitest';
import { isTestModulePath, mayHoldTestConfig, testConfigChange, testInfrastructureReason } from '../../../src/bugs/test-infrastructure.js';

describe('Java test infrastructure by name', () => {
  it.each([
    ['src/test/java/com/acme/SpanTest.java', 'under src/test/ (test sources)'],
    ['src/test/resources/logback-test.xml', 'under src/test/ (test sources)'],
    ['core/src/test/kotlin/SpanTest.kt', 'under src/test/ (test sources)'],
    ['src/integrationTest/java/com/acme/DbIT.java', 'under src/integrationTest/ (test sources)'],
    ['src/testFixtures/java/com/acme/Spans.java', 'under src/testFixtures/ (test sources)'],
    ['src/it/simple/pom.xml', 'under src/it/ (test sources)'],
  ])('%s is %s', (path, reason) => {
    expect(testInfrastructureReason(path)).toBe(reason);
  });

  it.each(['src/main/java/com/acme/Span.java', 'src/main/java/com/acme/SpanTest.java', 'src/main/java/com/acme/Contest.java', 'src/main/resources/test.properties', 'pom.xml', 'build.gradle', 'testsrc.java'])(
    '%s is not',
    (path) => {
      expect(testInfrastructureReason(path)).toBeUndefined();
    },
  );

  it('names the classes Surefire and Failsafe run as test modules', () => {
    for (const path of ['src/test/java/a/SpanTest.java', 'src/test/java/a/SpanTests.java', 'src/test/java/a/TestSpan.java', 'src/test/java/a/SpanTestCase.java', 'src/test/java/a/SpanIT.java', 'src/test/kotlin/a/SpanTest.kt']) {
      expect(isTestModulePath(path)).toBe(true);
    }
    for (const path of ['src/test/java/a/Spans.java', 'src/testFixtures/java/a/SpanTest.java', 'src/main/java/a/SpanTest.java', 'src/test/resources/SpanTest.txt']) {
      expect(isTestModulePath(path)).toBe(false);
    }
  });

  it('reads pom.xml and the Gradle build scripts for their test parts', () => {
    expect(mayHoldTestConfig('pom.xml')).toBe(true);
    expect(mayHoldTestConfig('core/build.gradle.kts')).toBe(true);
    expect(mayHoldTestConfig('settings.gradle')).toBe(false);
  });
});

const POM = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.acme</groupId>
  <artifactId>spans</artifactId>
  <version>1.0.0</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <junit.version>5.10.2</junit.version>
    <skipTests>false</skipTests>
  </properties>
  <dependencies>
    <dependency>
      <groupId>com.google.guava</groupId>
      <artifactId>guava</artifactId>
      <version>33.0.0-jre</version>
    </dependency>
    <dependency>
      <groupId>org.junit.jupiter</groupId>
      <artifactId>junit-jupiter</artifactId>
      <version>\${junit.version}</version>
      <scope>test</scope>
    </dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin>
        <artifactId>maven-compiler-plugin</artifactId>
        <version>3.12.1</version>
      </plugin>
      <plugin>
        <artifactId>maven-surefire-plugin</artifactId>
        <version>3.2.5</version>
        <configuration>
          <!-- run everything -->
          <excludes><exclude>**/SlowTest.java</exclude></excludes>
        </configuration>
      </plugin>
    </plugins>
  </build>
</project>
`;

describe("pom.xml's test parts", () => {
  const change = (from: string, to: string) => {
    if (!POM.includes(from)) throw new Error(`no ${from} in the pom`);
    return testConfigChange('pom.xml', POM, POM.replace(from, to));
  };

  it('ignores the rest of the build, comments and layout', async () => {
    expect(await change('<version>1.0.0</version>', '<version>1.0.1</version>')).toBeUndefined();
    expect(await change('<version>33.0.0-jre</version>', '<version>32.0.0-jre</version>')).toBeUndefined();
    expect(await change('<version>3.12.1</version>', '<version>3.13.0</version>')).toBeUndefined();
    expect(await change('<maven.compiler.release>17', '<maven.compiler.release>21')).toBeUndefined();
    expect(await change('<!-- run everything -->', '<!-- run it all -->')).toBeUndefined();
    expect(await change('<excludes><exclude>', '<excludes>\n            <exclude>')).toBeUndefined();
  });

  it('sees the Surefire and Failsafe plugins', async () => {
    expect(await change('**/SlowTest.java', '**/SpanTest.java')).toBe('the Surefire plugin');
    expect(await change('<artifactId>maven-surefire-plugin</artifactId>', '<artifactId>maven-surefire-plugin</artifactId><configuration><skip>true</skip></configuration>')).toBe(
      'the Surefire plugin',
    );
    expect(await change('</plugins>', '<plugin><artifactId>maven-failsafe-plugin</artifactId></plugin></plugins>')).toBe('the Failsafe plugin');
  });

  it('sees test-scoped dependencies, the properties they use and those the plugins read', async () => {
    expect(await change('<artifactId>junit-jupiter</artifactId>', '<artifactId>junit-jupiter-api</artifactId>')).toBe('test-scoped dependencies');
    expect(await change('<junit.version>5.10.2', '<junit.version>4.13.2')).toBe('test properties');
    expect(await change('<skipTests>false', '<skipTests>true')).toBe('test properties');
    expect(await change('</properties>', '<maven.test.failure.ignore>true</maven.test.failure.ignore></properties>')).toBe('test properties');
  });

  it("sees the build's test folders", async () => {
    expect(await change('<build>', '<build><testSourceDirectory>src/check/java</testSourceDirectory>')).toBe('<testSourceDirectory>');
  });

  it('counts any change to a pom that does not parse', async () => {
    expect(await change('</project>', '')).toMatch(/; pom.xml, which does not parse as XML$/);
    expect(await testConfigChange('pom.xml', '<project>', '<project><x>')).toBe('pom.xml, which does not parse as XML');
  });
});

const GROOVY = `plugins {
    id 'java'
}

description = "spans { for tests"
// test { useJUnitPlatform() }
/* tasks.withType(Test) { } */
version = '1.0.0'

dependencies {
    implementation 'com.google.guava:guava:33.0.0-jre'
    testImplementation platform('org.junit:junit-bom:5.10.2')
    testImplementation 'org.junit.jupiter:junit-jupiter'
    testRuntimeOnly 'org.junit.platform:junit-platform-launcher'
}

sourceSets {
    main { java.srcDirs = ['src/main/java'] }
    test { java.srcDirs = ['src/test/java'] }
}

test {
    useJUnitPlatform()
    exclude '**/SlowTest.class'
    systemProperty 'greeting', "\${description} }"
}

tasks.withType(Test)
    .configureEach {
        maxParallelForks = 1
    }

task integrationTest(type: Test) {
    shouldRunAfter test
}

jacocoTestReport {
    reports { xml.required = true }
}

tasks.named('test').configure { failFast = true }
tasks.test.testLogging.showStandardStreams = true
`;

describe("build.gradle's test parts", () => {
  const change = (from: string, to: string) => {
    if (!GROOVY.includes(from)) throw new Error(`no ${from} in the script`);
    return testConfigChange('build.gradle', GROOVY, GROOVY.replace(from, to));
  };

  it('ignores the rest of the build, comments and layout', async () => {
    expect(await change("version = '1.0.0'", "version = '1.0.1'")).toBeUndefined();
    expect(await change('guava:33.0.0-jre', 'guava:32.0.0-jre')).toBeUndefined();
    expect(await change("main { java.srcDirs = ['src/main/java'] }", "main { java.srcDirs = ['src'] }")).toBeUndefined();
    expect(await change('// test { useJUnitPlatform() }', '// test { }')).toBeUndefined();
    expect(await change('/* tasks.withType(Test) { } */', '')).toBeUndefined();
    expect(await change('xml.required = true', 'xml.required = false')).toBeUndefined();
    expect(await change('    useJUnitPlatform()\n', '        useJUnitPlatform()\n\n')).toBeUndefined();
  });

  it('sees test task blocks, even after a brace in a string', async () => {
    expect(await change("exclude '**/SlowTest.class'", "exclude '**/SpanTest.class'")).toBe('the test { … } block');
    expect(await change('"${description} }"', '"${description} {"')).toBe('the test { … } block');
    expect(await change('maxParallelForks = 1', 'maxParallelForks = 2')).toBe('the tasks.withType(Test) .configureEach { … } block');
    expect(await change('shouldRunAfter test', 'enabled = false')).toBe('the task integrationTest(type: Test) { … } block');
    expect(await change("test { java.srcDirs = ['src/test/java'] }", "test { java.srcDirs = ['src/none'] }")).toBe('the test { … } block');
    expect(await change('failFast = true', 'failFast = false')).toBe("the tasks.named('test').configure { … } block");
    expect(await change('showStandardStreams = true', 'showStandardStreams = false')).toBe('tasks.test.testLogging.showStandardStreams');
  });

  it('ends a statement at the end of its line even when the line ends in a string', async () => {
    const script = 'group = "com.acme"\ntest { maxParallelForks = 1 }\nversion = "1"\n';
    expect(await testConfigChange('build.gradle', script, script.replace('= 1 }', '= 2 }'))).toBe('the test { … } block');
    expect(await testConfigChange('build.gradle', script, script.replace('"1"', '"2"'))).toBeUndefined();
  });

  it('sees test dependencies', async () => {
    expect(await change("testImplementation 'org.junit.jupiter:junit-jupiter'", "testImplementation 'org.junit.jupiter:junit-jupiter-api'")).toBe('test dependencies');
    expect(await change('junit-bom:5.10.2', 'junit-bom:5.9.0')).toBe('test dependencies');
    expect(await change("    testRuntimeOnly 'org.junit.platform:junit-platform-launcher'\n", '')).toBe('test dependencies');
  });
});

const KOTLIN = `plugins { kotlin("jvm") version "2.0.0" }

val banner = "\${listOf("}").joinToString { it }} {"
val raw = """
    } test {
"""
/* outer /* nested } */ still a comment { */

dependencies {
    implementation(kotlin("stdlib"))
    testImplementation(kotlin("test"))
    "testRuntimeOnly"("org.junit.platform:junit-platform-launcher")
}

tasks.withType<Test> {
    useJUnitPlatform()
}

tasks.named<Test>("test") {
    maxHeapSize = "1g"
}

tasks.register<Test>("integrationTest") {
    description = "integration"
}

testing {
    suites { val test by getting(JvmTestSuite::class) { useJUnitJupiter() } }
}

kotlin { jvmToolchain(17) }
`;

describe("build.gradle.kts's test parts", () => {
  const change = (from: string, to: string) => {
    if (!KOTLIN.includes(from)) throw new Error(`no ${from} in the script`);
    return testConfigChange('build.gradle.kts', KOTLIN, KOTLIN.replace(from, to));
  };

  it('ignores the rest of the build, past templates, raw strings and nested comments holding braces', async () => {
    expect(await change('jvmToolchain(17)', 'jvmToolchain(21)')).toBeUndefined();
    expect(await change('implementation(kotlin("stdlib"))', 'implementation(kotlin("reflect"))')).toBeUndefined();
    expect(await change('version "2.0.0"', 'version "2.0.1"')).toBeUndefined();
  });

  it('sees test task blocks, test suites and test dependencies', async () => {
    expect(await change('    useJUnitPlatform()\n}', '}')).toBe('the tasks.withType<Test> { … } block');
    expect(await change('maxHeapSize = "1g"', 'maxHeapSize = "2g"')).toBe('the tasks.named<Test>("test") { … } block');
    expect(await change('description = "integration"', 'enabled = false')).toBe('the tasks.register<Test>("integrationTest") { … } block');
    expect(await change('useJUnitJupiter()', 'useJUnit()')).toBe('the testing { … } block');
    expect(await change('testImplementation(kotlin("test"))', 'testImplementation(kotlin("test-junit"))')).toBe('test dependencies');
    expect(await change('"testRuntimeOnly"("org', '"testRuntimeOnly"("com')).toBe('test dependencies');
  });
});
