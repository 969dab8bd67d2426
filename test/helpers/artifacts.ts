import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../src/paths.js';

export const ARTIFACTS = join(PACKAGE_ROOT, 'test', 'fixtures', 'artifacts');
export const artifactPath = (name: string) => join(ARTIFACTS, name);

/** What breaks when floats with exponents and non-ASCII keys regress (the valid-two-files bug). */
export const VALID_FAIL_TO_PASS = [
  'tests/test_lexer.py::test_numbers[-1e+20-Kind.FLOAT--1e+20]',
  'tests/test_lexer.py::test_numbers[1e3-Kind.FLOAT-1000.0]',
  'tests/test_lexer.py::test_numbers[2.5E-2-Kind.FLOAT-0.025]',
  'tests/test_serializer.py::test_dashed_key_stays_bare',
  'tests/test_serializer.py::test_non_ascii_key_is_quoted',
  'tests/test_serializer.py::test_round_trip_of_floats_written_with_exponent',
];
