"""Which test functions a test-weakening patch deletes, changes or adds, read from Python syntax trees.

usage: python3 weakening.py BASE DIFF PATH...

Applies DIFF to commit BASE in a scratch index (the work tree and the real
index are left alone) and compares the two versions of every PATH. Prints one
JSON object:

  {"files": [{"path", "parsed", "deleted", "changed", "added", "other"}]}

A test function is a function named test* at module level or in a class; it is
named "Class.function". A class also has the test functions it inherits from
classes of the same module that it does not define itself, so deleting a test
from a base class deletes it from every subclass that ran it. "changed" compares syntax trees, so formatting and
comments do not count. "other" is true when anything outside the test
functions changed (imports, fixtures, helpers, parameter lists of classes).
"parsed" is false for files that are not Python or do not parse; nothing else
is said of them.
"""
import ast
import copy
import json
import os
import subprocess
import sys
import tempfile


def show(spec, env=None):
    done = subprocess.run(["git", "show", spec], capture_output=True, env=env)
    return done.stdout.decode("utf-8", "replace") if done.returncode == 0 else None


def is_test(node):
    return isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test")


def own_tests(body):
    return {node.name: ast.dump(node) for node in body if is_test(node)}


def base_names(node):
    names = []
    for base in node.bases:
        if isinstance(base, ast.Name):
            names.append(base.id)
        elif isinstance(base, ast.Attribute):
            names.append(base.attr)
    return names


def tests_of(body, prefix=""):
    """Module-level tests, and each class's tests with those it inherits from classes of the module."""
    found = {}
    classes = {node.name: node for node in body if isinstance(node, ast.ClassDef)}

    def class_tests(name, seen):
        node = classes[name]
        tests = {}
        # Bases first, so the class's own definitions override what it inherits (Python's order, simplified).
        for base in reversed(base_names(node)):
            if base in classes and base not in seen:
                tests.update(class_tests(base, seen | {base}))
        tests.update(own_tests(node.body))
        return tests

    for node in body:
        if is_test(node):
            found[prefix + node.name] = ast.dump(node)
        elif isinstance(node, ast.ClassDef):
            for name, dump in class_tests(node.name, {node.name}).items():
                found[prefix + node.name + "." + name] = dump
            # Classes nested in a class keep their own names.
            for inner in node.body:
                if isinstance(inner, ast.ClassDef):
                    found.update(tests_of([inner], prefix + node.name + "."))
    return found


def strip_tests(body):
    kept = []
    for node in body:
        if is_test(node):
            continue
        if isinstance(node, ast.ClassDef):
            node = copy.copy(node)
            node.body = strip_tests(node.body)
        kept.append(node)
    return kept


def parse(text):
    if text is None:
        return ast.Module(body=[], type_ignores=[])
    return ast.parse(text)


def compare(path, old, new):
    entry = {"path": path, "parsed": False, "deleted": [], "changed": [], "added": [], "other": True}
    if not path.endswith(".py"):
        return entry
    try:
        before, after = parse(old), parse(new)
    except (SyntaxError, ValueError):
        return entry
    old_tests, new_tests = tests_of(before.body), tests_of(after.body)
    entry["parsed"] = True
    entry["deleted"] = sorted(n for n in old_tests if n not in new_tests)
    entry["added"] = sorted(n for n in new_tests if n not in old_tests)
    entry["changed"] = sorted(n for n in old_tests if n in new_tests and old_tests[n] != new_tests[n])
    rest = lambda tree: ast.dump(ast.Module(body=strip_tests(tree.body), type_ignores=[]))
    entry["other"] = rest(before) != rest(after)
    return entry


def main(base, diff, paths):
    with tempfile.TemporaryDirectory() as scratch:
        env = dict(os.environ, GIT_INDEX_FILE=os.path.join(scratch, "index"))
        subprocess.run(["git", "read-tree", base], check=True, env=env, capture_output=True)
        applied = subprocess.run(["git", "apply", "--cached", diff], env=env, capture_output=True)
        if applied.returncode != 0:
            print(json.dumps({"error": applied.stderr.decode("utf-8", "replace").strip()[:500]}))
            return
        files = [compare(p, show("%s:%s" % (base, p)), show(":%s" % p, env)) for p in paths]
    print(json.dumps({"files": files}, sort_keys=True))


if __name__ == "__main__":
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
