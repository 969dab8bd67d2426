/**
 * Naming is the agent's choice: parsers that name the tests of real logs
 * (test/fixtures/logs) each their own way, in Python, Go, JavaScript, Rust and
 * Java. An honest one agrees whatever its naming; one that lies about a test
 * is refused, named as it names it; one whose name could stand for several
 * tests is refused, with the tests it could mean.
 */
import { describe, expect, it } from 'vitest';
import { readLog, type LogReading, type NamePart } from '../../../src/bugs/log-readers/index.js';
import { NameIndex } from '../../../src/bugs/log-readers/name-match.js';
import { cargoNames, goNames, junitNames, pathNames, pytestNames } from '../../../src/bugs/log-readers/test-ids.js';
import { auditParser } from '../../../src/bugs/parser-audit.js';
import type { TestMap } from '../../../src/bugs/test-results.js';
import { fixtureLog } from './log-reader-fixtures.js';

/** The parts of a pytest id outside its parameters, then the parameters. */
const pytestSplit = (id: string) => {
  const at = id.includes('[') ? id.indexOf('[') : id.length;
  return { path: id.slice(0, at).split('::'), params: id.slice(at) };
};

interface Language {
  log: () => string;
  /** Each way a parser may name the log's tests, from bugbench's ids. */
  namings: Record<string, (id: string) => string>;
  /** A name that stands for two tests of the log, and the tests. */
  shared: { name: string; tests: string[] };
}

const LANGUAGES: Record<string, Language> = {
  Python: {
    log: () => fixtureLog('.', 'pytest-rA-mixed.log'),
    namings: {
      'file::Class::test': (id) => id,
      'module.Class.test': (id) => {
        const { path, params } = pytestSplit(id);
        return `${path.join('.').replace('.py.', '.')}${params}`;
      },
      'Class::test': (id) => {
        const { path, params } = pytestSplit(id);
        return `${path.slice(1).join('::')}${params}`;
      },
      'file Class test': (id) => {
        const { path, params } = pytestSplit(id);
        return `${path.join(' ')}${params}`;
      },
    },
    shared: { name: 'test_param[a b]', tests: [] },
  },
  Go: {
    log: () => fixtureLog('go', 'json-mixed.log'),
    namings: {
      'pkg::Test': (id) => id.replace(/^(example\.com\/rd\/[a-z]+)\//, '$1::'),
      'pkg.Test': (id) => id.replace(/^example\.com\/rd\/([a-z]+)\//, '$1.'),
      'pkg/Test': (id) => id,
      'pkg#Test': (id) => id.replace(/^example\.com\/rd\/([a-z]+)\//, '$1#'),
    },
    shared: { name: 'TestAdd', tests: ['example.com/rd/calc/TestAdd', 'example.com/rd/text/TestAdd'] },
  },
  JavaScript: {
    log: () => fixtureLog('js', 'jest-verbose.log'),
    namings: {
      'Suite > test': (id) => id,
      'file::describe::test': (id) => id.split(' > ').join('::'),
      'file describe test': (id) => id.replace(/^test\//, '').split(' > ').join(' '),
      'file#test': (id) => id.replace(/^test\//, '').replace(' > ', '#'),
    },
    shared: { name: 'math > adds again', tests: ['test/calc.test.js > math > adds again', 'test/other.test.js > math > adds again'] },
  },
  Rust: {
    log: () => fixtureLog('cargo', 'no-fail-fast.log'),
    namings: {
      'target::path': (id) => id,
      'binary::source::path': (id) => id.replace('/', '::'),
      'binary.source.path': (id) => id.replace('/', '.'),
    },
    shared: { name: 'tests::adds', tests: ['calc/src/lib.rs::tests::adds', 'calc/src/main.rs::tests::adds'] },
  },
  Java: {
    log: () => fixtureLog('junit', 'junit5-console-cat.log'),
    namings: {
      'Class#method': (id) => id.replace(/\.([^.]+\(.*)$/, '#$1'),
      'SimpleClass#method': (id) => id.replace(/^com\.example\./, '').replace(/\.([^.]+\(.*)$/, '#$1'),
      'Class > method (Gradle)': (id) => id.replace(/^com\.example\./, '').replace(/\.([^.]+\(.*)$/, ' > $1'),
      'pkg::Class::method': (id) => id.replace(/\.([^.]+\(.*)$/, '::$1').replace(/\./g, '::'),
      'Class.method without parameters': (id) => id.replace(/\(\)$/, ''),
    },
    shared: { name: 'adds()', tests: ['com.example.CalcTest.adds()', 'com.example.OtherTest.adds()'] },
  },
};

/** The log's own results, named `name` by the parser; expected failures reported passed, as SWE-bench does. */
function parserMap(reading: LogReading, name: (id: string) => string): TestMap {
  return Object.fromEntries(Object.entries(reading.results!).map(([id, outcome]) => [name(id), outcome === 'failed' ? 'failed' : 'passed']));
}

describe.each(Object.entries(LANGUAGES))('a parser of a %s log', (_language, { log, namings, shared }) => {
  const reading = readLog(log())!;

  it.each(Object.keys(namings))('naming tests %s agrees when honest, and is refused naming the test it lies about', (naming) => {
    const name = namings[naming]!;
    const honest = parserMap(reading, name);
    expect(Object.keys(honest)).toHaveLength(Object.keys(reading.results!).length);
    expect(auditParser(honest, reading)).toEqual({ status: 'agrees', reader: reading.reader });
    const passing = Object.keys(reading.results!).find((id) => reading.results![id] === 'passed')!;
    const lying = { ...honest, [name(passing)]: 'failed' } as TestMap;
    expect(auditParser(lying, reading)).toEqual({ status: 'disagrees', reader: reading.reader, disagreements: [{ test: name(passing), parser: 'failed', log: 'passed' }] });
  });

  it('refuses a name that stands for several tests, naming them', () => {
    if (shared.tests.length === 0) {
      // No two tests of this log share it: the name stands for its one test.
      const audit = auditParser({ ...parserMap(reading, (id) => id), [shared.name]: 'passed' }, reading);
      expect(audit).toMatchObject({ status: 'disagrees', disagreements: [{ test: shared.name, twice: { also: expect.stringContaining(shared.name) } }] });
      return;
    }
    const named = Object.fromEntries(Object.entries(parserMap(reading, (id) => id)).filter(([id]) => !shared.tests.includes(id)));
    const audit = auditParser({ ...named, [shared.name]: 'passed' }, reading);
    expect(audit).toEqual({ status: 'disagrees', reader: reading.reader, disagreements: [{ test: shared.name, parser: 'passed', log: 'several', candidates: shared.tests }] });
  });
});

describe('finding the test a name stands for', () => {
  const only = (name: { id: string; parts?: NamePart[] }) => {
    const index = new NameIndex();
    index.add(name.id, name.parts);
    return (text: string) => index.resolve(text).length === 1;
  };

  it('takes the parts in order, each written in one of its forms, leading scopes and groups left out', () => {
    const go = only(goNames('example.com/m/calc', 'TestA/sub'));
    for (const name of ['example.com/m/calc/TestA/sub', 'example.com/m/calc::TestA/sub', 'calc.TestA.sub', 'm/calc > TestA > sub', 'TestA/sub']) expect(go(name), name).toBe(true);
    for (const name of ['sub', 'calc::sub', 'TestA/calc/sub', 'calc.TestA', 'calc..TestA/sub', 'calcTestA/sub', 'TestA/sub.']) expect(go(name), name).toBe(false);
    const py = only(pytestNames('tests/test_a.py::TestX::test_y[1.5-a::b]'));
    for (const name of ['tests/test_a.py::TestX::test_y[1.5-a::b]', 'tests.test_a.TestX.test_y[1.5-a::b]', 'test_a::TestX::test_y[1.5-a::b]', 'test_y[1.5-a::b]']) expect(py(name), name).toBe(true);
    expect(py('tests/test_a.py::test_y[1.5-a::b]')).toBe(false);
    expect(only(junitNames('com.example.CalcTest', 'adds()'))('CalcTest#adds')).toBe(true);
    const rust = only(cargoNames({ binary: 'calc', source: 'src/lib.rs' }, 'tests::adds'));
    for (const name of ['calc::tests::adds', 'src/lib.rs::tests::adds', 'calc/src/lib.rs::tests::adds', 'adds']) expect(rust(name), name).toBe(true);
    expect(rust('calc::adds')).toBe(false);
  });

  it('prefers the test the name leaves fewer groups out of', () => {
    const nested = pathNames(['math', 'adds'], 'test/a.test.js');
    const top = pathNames(['adds'], 'test/a.test.js');
    const reading: LogReading = { reader: 'r', results: { [nested.id]: 'failed', [top.id]: 'passed' }, parts: { [nested.id]: nested.parts!, [top.id]: top.parts! } };
    expect(auditParser({ adds: 'passed', 'math > adds': 'failed' }, reading).status).toBe('agrees');
    expect(auditParser({ adds: 'failed', 'math > adds': 'passed' }, reading).status).toBe('disagrees');
  });

  it('finds each of 20,000 tests that share their last parts', () => {
    const results: Record<string, 'passed'> = {};
    const parts: Record<string, NamePart[]> = {};
    const parsed: TestMap = {};
    for (let i = 0; i < 20_000; i++) {
      const name = goNames(`github.com/org/repo/internal/pkg${i % 100}`, `TestX${Math.floor(i / 100) % 20}/case_${Math.floor(i / 2_000)}`);
      results[name.id] = 'passed';
      parts[name.id] = name.parts!;
      parsed[name.id.replace(/\/(TestX)/, '::$1')] = 'passed';
    }
    expect(auditParser(parsed, { reader: 'go test -json', results, parts }).status).toBe('agrees');
    const { [Object.keys(parsed)[7]!]: _dropped, ...dropped } = parsed;
    expect(auditParser(dropped, { reader: 'go test -json', results, parts })).toMatchObject({ disagreements: [{ test: Object.keys(results)[7], parser: 'missing' }] });
  });
});
