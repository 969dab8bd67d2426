"""Reads pytest output (run with -rA) on stdin and prints {test_id: "passed"|"failed"} as JSON.

Only pytest's short test summary counts: the result lines between a "short test
summary info" header and the counts line that ends the session ("PASSED
tests/test_x.py::test_y", "FAILED tests/test_x.py::test_z - AssertionError"),
so what the tests print cannot pose as a result. Test ids are pytest's node ids
as printed. Errors during setup, teardown or collection count as failures;
skipped and xfailed tests are left out.
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

HEADER = re.compile(r"^=+ short test summary info =+$")
COUNTS = re.compile(r"^(?:=+ )?(?:\d+ [a-z]+(?:, \d+ [a-z]+)*|no tests ran) in \d+(?:\.\d+)?s(?: \(\d+:\d{2}:\d{2}\))?(?: =+)?$")
LINE = re.compile(r"^(PASSED|FAILED|ERROR|XPASS) (.+)$")
COLOURS = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")


def node_id(word, rest):
    """The id at the start of a result line: PASSED lines hold only the id; others may add " - message" or a reason."""
    if word == "PASSED":
        return rest.strip()
    for i, ch in enumerate(rest):
        if ch != " ":
            continue
        candidate = rest[:i]
        whole = candidate.endswith("]") if "[" in candidate else " " not in candidate
        if candidate and whole:
            return candidate
    return rest.strip()


def parse(log: str) -> dict:
    results = {}
    summary = None
    for raw in log.splitlines():
        line = COLOURS.sub("", raw).rstrip("\r")
        if HEADER.match(line):
            summary = {}
            continue
        if summary is None:
            continue
        if COUNTS.match(line):
            for test_id, status in summary.items():
                if results.get(test_id) != "failed":
                    results[test_id] = status
            summary = None
            continue
        match = LINE.match(line)
        if not match:
            continue
        word, rest = match.groups()
        test_id = node_id(word, rest)
        # A test that errors in teardown after passing still counts as failed.
        if summary.get(test_id) != "failed":
            summary[test_id] = OUTCOMES[word]
    return results


if __name__ == "__main__":
    json.dump(parse(sys.stdin.read()), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
