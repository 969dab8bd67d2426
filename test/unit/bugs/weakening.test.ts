import { describe, expect, it } from 'vitest';
import { describeWeakening, splitTestId, summarizeWeakening, weakenedCount, weakeningScope, removedInDiff, mentionedInDiff, sourceNames, type WeakenedFile } from '../../../src/bugs/weakening.js';

const file = (over: Partial<WeakenedFile>): WeakenedFile => ({ path: 'tests/test_s.py', parsed: true, deleted: [], changed: [], added: [], other: false, ...over });
const suite = [
  'tests/test_s.py::test_a',
  'tests/test_s.py::test_b[1]',
  'tests/test_s.py::test_b[2]',
  'tests/test_s.py::TestK::test_c',
  'tests/test_s.py::test_d',
  'tests/test_l.py::test_x',
];

describe('test ids', () => {
  it('split into file and function', () => {
    expect(splitTestId('tests/t.py::TestA::test_b[1-a::b]')).toEqual({ file: 'tests/t.py', fn: 'TestA.test_b' });
    expect(splitTestId('tests/t.py')).toEqual({ file: 'tests/t.py' });
  });
});

describe('what a weakening deletes and changes', () => {
  it('counts tests of the suite, parameters included, by their functions', () => {
    const analysis = { files: [file({ deleted: ['test_b', 'test_gone'], changed: ['TestK.test_c'] })] };
    const summary = summarizeWeakening(['tests/test_s.py'], analysis, suite, undefined);
    expect(summary).toMatchObject({ files: 1, deletedTests: 3, changedTests: 1, suiteTests: 6, infrastructure: [], method: 'syntax' });
    expect(summary.examples.deleted).toEqual(['tests/test_s.py::test_b[1]', 'tests/test_s.py::test_b[2]']);
    expect(weakenedCount(summary)).toBe(4);
    expect(describeWeakening(summary)).toBe('the weakening deletes 3 and changes 1 of the 6 tests, in 1 file(s)');
  });

  it('counts every test of a module changed outside its test functions as changed', () => {
    const summary = summarizeWeakening(['tests/test_s.py'], { files: [file({ deleted: ['test_a'], other: true })] }, suite, undefined);
    expect(summary).toMatchObject({ deletedTests: 1, changedTests: 4 });
  });

  it('counts every test as changed when the weakening changes infrastructure', () => {
    const analysis = { files: [file({ path: 'tests/conftest.py', other: true }), file({ deleted: ['test_a'] })] };
    const summary = summarizeWeakening(['tests/conftest.py', 'tests/test_s.py'], analysis, suite, undefined);
    expect(summary).toMatchObject({ deletedTests: 1, changedTests: 5, infrastructure: ['tests/conftest.py'] });
    expect(describeWeakening(summary)).toMatch(/it changes tests\/conftest\.py, which every test may depend on/);
  });

  it('falls back to the runs without the syntax trees', () => {
    const weakened = suite.filter((id) => !id.includes('test_b'));
    const summary = summarizeWeakening(['tests/test_s.py'], undefined, suite, weakened);
    expect(summary).toMatchObject({ deletedTests: 2, changedTests: 0, method: 'runs' });
    expect(describeWeakening(summary)).toMatch(/changes an unknown number of the 6 tests.*counted from the runs/);
  });
});

describe('which tests the weakened run may be compared on', () => {
  it('leaves out the tests the weakening touches, and only those', () => {
    const scope = weakeningScope(['tests/test_s.py'], { files: [file({ deleted: ['test_a'], changed: ['test_b'], added: ['test_new'] })] });
    expect(scope.everything).toBe(false);
    expect(suite.filter(scope.touched)).toEqual(['tests/test_s.py::test_a', 'tests/test_s.py::test_b[1]', 'tests/test_s.py::test_b[2]']);
    expect(scope.touched('tests/test_s.py::test_new')).toBe(true);
    // A changed parametrized test may lose cases with its parameters; a changed plain one removes nothing.
    expect(suite.filter(scope.removed)).toEqual(['tests/test_s.py::test_a', 'tests/test_s.py::test_b[1]', 'tests/test_s.py::test_b[2]']);
    const plain = weakeningScope(['tests/test_s.py'], { files: [file({ changed: ['test_a'] })] });
    expect(suite.filter(plain.removed)).toEqual([]);
  });

  it('leaves out a whole module changed outside its tests, and everything when infrastructure changes', () => {
    expect(suite.filter(weakeningScope(['tests/test_s.py'], { files: [file({ other: true })] }).touched)).toHaveLength(5);
    expect(weakeningScope(['tests/conftest.py'], { files: [file({ path: 'tests/conftest.py' })] }).everything).toBe(true);
  });

  it('works by file without the syntax trees', () => {
    const scope = weakeningScope(['tests/test_s.py'], undefined);
    expect(scope.everything).toBe(false);
    expect(suite.filter((id) => !scope.touched(id))).toEqual(['tests/test_l.py::test_x']);
    expect(weakeningScope(['tests/helpers.py'], undefined).everything).toBe(true);
  });

  it('matches ids given relative to a folder below the repository root', () => {
    const scope = weakeningScope(['tests/test_s.py'], { files: [file({ deleted: ['test_a'] })] });
    expect(scope.touched('test_s.py::test_a')).toBe(true);
    expect(scope.touched('test_s.py::test_d')).toBe(false);
  });
});

describe('tests a weakening removes by name (other languages)', () => {
  const goDiff = ['--- a/pkg/a_test.go', '+++ b/pkg/a_test.go', '@@ -1,6 +1,2 @@', '-func TestParse(t *testing.T) {', '-\tt.Run("empty", func(t *testing.T) {})', '-}', ' func TestKeep(t *testing.T) {}'].join('\n');
  it('names a test by its own name and, in Go, its test function', () => {
    expect(sourceNames('example.com/m/pkg/TestParse/empty')).toEqual(['empty', 'TestParse']);
    expect(sourceNames('tests/t.py::TestA::test_b[1-2]')).toEqual(['test_b', 'TestA']);
    expect(sourceNames('src/a.test.js > parse > handles empty input')).toEqual(['handles empty input']);
  });

  it('finds a test whose function the diff deletes, not one it keeps or only mentions on both sides', () => {
    expect(removedInDiff('example.com/m/pkg/TestParse/empty', goDiff)).toBe(true);
    expect(removedInDiff('example.com/m/pkg/TestParse', goDiff)).toBe(true);
    expect(removedInDiff('example.com/m/pkg/TestKeep', goDiff)).toBe(false);
    const moved = ['-func TestMove(t *testing.T) {', '+func TestMove(t *testing.T) { // moved'].join('\n');
    expect(removedInDiff('pkg/TestMove', moved)).toBe(false);
    // A longer name that contains another is not that other.
    expect(removedInDiff('pkg/TestParseAll', goDiff)).toBe(false);
  });

  it('tells which tests a weakening names anywhere, for the runs that observe the others', () => {
    const diff = ['--- a/lru/lru_test.go', '+++ b/lru/lru_test.go', '@@ -111,15 +111,3 @@ func TestPutRefreshesRecency(t *testing.T) {', '-func TestKeysMostRecentFirst(t *testing.T) {', '-}'].join('\n');
    expect(mentionedInDiff('lru/TestKeysMostRecentFirst', diff)).toBe(true);
    expect(mentionedInDiff('lru/TestPutRefreshesRecency', diff)).toBe(true);
    expect(mentionedInDiff('lru/TestGetMissing', diff)).toBe(false);
    expect(mentionedInDiff('lru/TestKeys', diff)).toBe(false);
  });
});
