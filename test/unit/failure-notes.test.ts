import { describe, expect, it } from 'vitest';
import { failureNotes, formatFailureNotes } from '../../src/bugs/failure-notes.js';

const LOG = `============================= test session starts ==============================
collected 3 items

tests/test_a.py F.F                                                      [100%]

=================================== FAILURES ===================================
_________________________________ test_sum _________________________________

    def test_sum():
>       assert add(2, 2) == 4
E       assert 0 == 4
E        +  where 0 = add(2, 2)

tests/test_a.py:3: AssertionError
_______________________________ test_parse[x-1] _______________________________

    def test_parse(text, value):
>       assert parse(text) == value
E       TypeError: argument of type 'NoneType' is not iterable

tests/test_a.py:9: TypeError
=========================== short test summary info ============================
PASSED tests/test_a.py::test_ok
FAILED tests/test_a.py::test_sum - assert 0 == 4
FAILED tests/test_a.py::test_parse[x-1] - TypeError: argument of type 'NoneT...
========================= 2 failed, 1 passed in 0.05s ==========================
`;

describe('failure notes', () => {
  it('take each failing test message, whole, with the error lines of its section', () => {
    const notes = failureNotes(LOG, ['tests/test_a.py::test_sum', 'tests/test_a.py::test_parse[x-1]', 'tests/test_a.py::test_gone']);
    expect(notes).toEqual([
      { test: 'tests/test_a.py::test_sum', message: 'assert 0 == 4', details: ['+  where 0 = add(2, 2)'] },
      { test: 'tests/test_a.py::test_parse[x-1]', message: "TypeError: argument of type 'NoneType' is not iterable", details: [] },
      { test: 'tests/test_a.py::test_gone', message: 'did not run: the run stopped before it, or it is gone', details: [] },
    ]);
    expect(formatFailureNotes(notes, 2)).toBe(
      "- tests/test_a.py::test_sum: assert 0 == 4\n    +  where 0 = add(2, 2)\n- tests/test_a.py::test_parse[x-1]: TypeError: argument of type 'NoneType' is not iterable\n- … and 1 more",
    );
  });
});
