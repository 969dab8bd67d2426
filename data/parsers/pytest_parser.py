"""Reads pytest output (run with -rA) on stdin and prints {test_id: "passed"|"failed"} as JSON.

Test ids come from the short summary lines ("PASSED tests/test_x.py::test_y",
"FAILED tests/test_x.py::test_z - AssertionError"). Errors during setup or
collection count as failures; skipped and xfailed tests are left out.
"""
import json
import re
import sys

OUTCOMES = {
    "PASSED": "passed",
    "XPASS": "passed",
    "FAILED": "failed",
    "ERROR": "failed",
}

LINE = re.compile(r"^(PASSED|FAILED|ERROR|XPASS) (.+)$")
# Failures carry " - <message>" after the id; ids with brackets end at their last "]".
FAILURE_ID = re.compile(r"^(.*?\]|[^ ]+)(?: - .*)?$")


def parse(log: str) -> dict:
    results = {}
    for raw in log.splitlines():
        match = LINE.match(raw.strip())
        if not match:
            continue
        outcome, test_id = match.groups()
        if outcome in ("FAILED", "ERROR"):
            test_id = FAILURE_ID.match(test_id).group(1)
        status = OUTCOMES[outcome]
        # A test that errors in teardown after passing still counts as failed.
        if results.get(test_id) == "failed":
            continue
        results[test_id] = status
    return results


if __name__ == "__main__":
    json.dump(parse(sys.stdin.read()), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
