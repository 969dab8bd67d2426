"""bugbench's verifier for a Harbor task: it judges the repository the agent left.

Harbor copies the task's tests/ folder to /tests after the agent's turn and
runs tests/test.sh, which runs this file. In order:

1. The tests are put back. Every file that configures or holds the tests
   (spec.json "files") gets its version back: the oracle test files of
   test_files.txt their original version, the rest of the test
   infrastructure the version the agent started from. Test infrastructure
   the agent added (a conftest.py, a pytest.ini, a module under a test
   folder) is deleted. Editing, deleting or hiding tests thus gains nothing.
2. The artifact's test script runs at the repository's root (spec.json
   "repo_dir": /repo in bugbench's images, an adopted image's own root such
   as /testbed) under its time limit, its output in /logs/verifier/test.log.
3. The artifact's parser reads the log; its map goes to
   /logs/verifier/test_map.json.
4. Solved iff every FAIL_TO_PASS and PASS_TO_PASS test is in the map as
   "passed" (a test missing from the run counts as failed), the run ended
   within its limit and the parser gave a valid map. The reward (1 or 0) goes
   to /logs/verifier/reward.txt, the verdict with the failing tests to
   /logs/verifier/results.json.

Only the Python standard library is used: it runs with the image's python3,
as the image's user (Harbor's default), who owns the repository.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import time

TESTS = os.path.dirname(os.path.abspath(__file__))
LOGS = "/logs/verifier"

# Files that belong to the tests by their name. This is the pytest convention of
# bugbench's src/bugs/test-infrastructure.ts (byPath and configFiles), in Python.
RUNNER_FILES = {"conftest.py", "pytest.ini", ".pytest.ini", "tox.ini"}
CONFIG_FILES = {"setup.cfg", "pyproject.toml"}
TEST_FOLDERS = {"test", "tests", "testing"}
TEST_MODULE = re.compile(r"^test_.*\.py$|^.+_test\.py$")


def is_test_infrastructure(rel):
    parts = rel.split("/")
    base = parts[-1]
    if base in RUNNER_FILES or base in CONFIG_FILES:
        return True
    if any(part in TEST_FOLDERS for part in parts[:-1]):
        return True
    return bool(TEST_MODULE.match(base))


def remove(path):
    if os.path.islink(path) or (os.path.lexists(path) and not os.path.isdir(path)):
        os.unlink(path)
    elif os.path.isdir(path):
        shutil.rmtree(path)


def remove_in(repo, rel):
    """Removes repo/rel; a link or file where one of its folders should be is removed instead (nothing outside repo is touched)."""
    here = repo
    for part in rel.split("/")[:-1]:
        here = os.path.join(here, part)
        if os.path.islink(here) or (os.path.lexists(here) and not os.path.isdir(here)):
            os.unlink(here)
            return
        if not os.path.lexists(here):
            return
    remove(os.path.join(repo, rel))


def make_parents(repo, rel):
    """Creates the folders above `rel`, replacing any file or link in their place (no write leaves repo)."""
    here = repo
    for part in rel.split("/")[:-1]:
        here = os.path.join(here, part)
        if os.path.islink(here) or (os.path.exists(here) and not os.path.isdir(here)):
            os.unlink(here)
        if not os.path.isdir(here):
            os.mkdir(here)


def work_tree_files(repo):
    """Every file and link under repo but .git, as paths relative to it."""
    found = []
    for folder, dirs, files in os.walk(repo):
        rel_folder = os.path.relpath(folder, repo)
        if rel_folder == ".":
            rel_folder = ""
            dirs[:] = [d for d in dirs if d != ".git"]
        for name in files + [d for d in dirs if os.path.islink(os.path.join(folder, d))]:
            found.append(name if rel_folder == "" else rel_folder + "/" + name)
    return found


def put_tests_back(spec, repo):
    files = {f["path"]: f for f in spec["files"]}
    known = set(files) | set(spec["keep"])
    removed = []
    for rel in work_tree_files(repo):
        if rel not in known and is_test_infrastructure(rel):
            remove_in(repo, rel)
            removed.append(rel)
    for rel in spec["clear"]:
        remove_in(repo, rel)
    for rel, entry in files.items():
        target = os.path.join(repo, rel)
        make_parents(repo, rel)
        remove(target)
        if "link" in entry:
            os.symlink(entry["link"], target)
        else:
            shutil.copyfile(os.path.join(TESTS, "oracle", rel), target)
            os.chmod(target, int(entry["mode"], 8))
    return removed


def run_tests(spec, repo):
    limit = spec["test_timeout_sec"]
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    started = time.monotonic()
    with open(os.path.join(LOGS, "test.log"), "wb") as log:
        code = subprocess.call(
            ["timeout", "-s", "KILL", str(limit), "bash", os.path.join(TESTS, "test_script.sh")],
            cwd=repo, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
        )
    elapsed = time.monotonic() - started
    return code, elapsed, code == 137 and elapsed >= limit - 1


def parse_log(spec, repo):
    """The parser's map, or (None, why) when it gave none that can be trusted."""
    with open(os.path.join(LOGS, "test.log"), "rb") as log:
        done = subprocess.run(
            ["timeout", "-s", "KILL", str(spec["parser_timeout_sec"]), "python3", os.path.join(TESTS, "test_parser.py")],
            cwd=repo, stdin=log, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
    if done.returncode != 0:
        return None, "the parser exited with %d: %s" % (done.returncode, done.stderr.decode("utf-8", "replace")[-400:])
    try:
        parsed = json.loads(done.stdout.decode("utf-8"))
    except ValueError:
        return None, "the parser's output is not JSON"
    if not isinstance(parsed, dict) or not parsed:
        return None, "the parser printed no map of tests"
    if any(status not in ("passed", "failed") for status in parsed.values()):
        return None, 'the parser gave a status other than "passed" or "failed"'
    return parsed, None


def write(name, text):
    with open(os.path.join(LOGS, name), "w", encoding="utf-8") as out:
        out.write(text)


def main():
    os.makedirs(LOGS, exist_ok=True)
    write("reward.txt", "0\n")  # until the run says otherwise
    with open(os.path.join(TESTS, "spec.json"), encoding="utf-8") as f:
        spec = json.load(f)
    repo = spec["repo_dir"]
    required = spec["fail_to_pass"] + spec["pass_to_pass"]
    verdict = {"solved": False, "reason": "", "failing": required, "removed_test_files": []}
    try:
        verdict["removed_test_files"] = put_tests_back(spec, repo)
        code, elapsed, timed_out = run_tests(spec, repo)
        verdict.update(test_exit_code=code, test_seconds=round(elapsed, 1), timed_out=timed_out)
        results, problem = parse_log(spec, repo)
        if results is not None:
            write("test_map.json", json.dumps(results, indent=2, sort_keys=True) + "\n")
            verdict["failing"] = [t for t in required if results.get(t) != "passed"]
        if timed_out:
            verdict["reason"] = "the tests ran past their %d s limit" % spec["test_timeout_sec"]
        elif problem:
            verdict["reason"] = problem
        elif not required:
            verdict["reason"] = "the task names no test to pass"
        elif verdict["failing"]:
            verdict["reason"] = "%d of the %d required tests did not pass" % (len(verdict["failing"]), len(required))
        else:
            verdict["solved"] = True
            verdict["reason"] = "every FAIL_TO_PASS and PASS_TO_PASS test passed"
    except Exception as error:  # a verifier that breaks must still leave reward 0 and say why
        verdict["reason"] = "the verifier failed: %s" % error
    write("results.json", json.dumps(verdict, indent=2) + "\n")
    write("reward.txt", "1\n" if verdict["solved"] else "0\n")
    print("bugbench verifier: %s (reward %d)" % (verdict["reason"], 1 if verdict["solved"] else 0))


if __name__ == "__main__":
    sys.exit(main())
