"""Helper the offline injector writes into the container and drives from bash.

Every command prints one line "RESULT <json>" that the agent reads back.

  functions [--limit N --seed S] FILE...   functions and methods with a body worth removing
  blank FILE QUALNAME                      remove a function's body (its docstring stays)
  mutations [--limit N --seed S] FILE...   single-token changes: comparisons, operators, constants, conditions
  mutate FILE LINE COL OLD NEW             apply one of them
  summary RESULTS.json                     how many tests passed, in all and per file
  results RESULTS.json                     the whole map of test id to status, on one line
  compare BEFORE.json AFTER.json           which tests passed before and do not pass after
  drop-tests FILE NAME...                  delete test functions (and their decorators)
  drop-broken BEFORE.json AFTER.json [--spare FILE]... [TESTFILE...]
                                           delete every test that passed before and does not after (but those of
                                           a spared file), unless other code in the test files uses one (then
                                           delete nothing, say which)

Results stay short (lists are sampled or cut) so they fit in a tool's output.
"""
import ast
import json
import random
import sys

LIST_LIMIT = 60


def result(value):
    print("RESULT " + json.dumps(value, sort_keys=True))


def read(path):
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def write(path, text):
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def has_docstring(node):
    first = node.body[0] if node.body else None
    return isinstance(first, ast.Expr) and isinstance(getattr(first, "value", None), ast.Constant) and isinstance(first.value.value, str)


def trivial(node):
    body = node.body[1:] if has_docstring(node) else node.body
    if not body:
        return True
    if len(body) == 1:
        only = body[0]
        if isinstance(only, ast.Pass) or (isinstance(only, ast.Expr) and isinstance(getattr(only, "value", None), ast.Constant)):
            return True
        if isinstance(only, ast.Raise) and "NotImplementedError" in ast.dump(only):
            return True
    return False


def walk_functions(tree):
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node.name, node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    yield node.name + "." + item.name, item


def body_range(node):
    """First and last line (1-based) of the statements after the docstring."""
    statements = node.body[1:] if has_docstring(node) else node.body
    if not statements:
        return None
    return statements[0].lineno, node.end_lineno


def sample(items, limit, seed):
    """At most `limit` items, chosen by `seed`, so a large repository still gives a short answer."""
    if limit is None or len(items) <= limit:
        return items
    return random.Random(seed).sample(items, limit)


def take_options(args):
    limit, seed, rest = None, 0, []
    i = 0
    while i < len(args):
        if args[i] == "--limit":
            limit, i = int(args[i + 1]), i + 2
        elif args[i] == "--seed":
            seed, i = int(args[i + 1]), i + 2
        else:
            rest.append(args[i])
            i += 1
    return limit, seed, rest


def cmd_functions(paths, limit=None, seed=0):
    found = []
    for path in paths:
        try:
            tree = ast.parse(read(path))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for qualname, node in walk_functions(tree):
            if trivial(node):
                continue
            span = body_range(node)
            if span is None:
                continue
            decorators = [ast.unparse(d) for d in node.decorator_list]
            if any(d.endswith("abstractmethod") for d in decorators):
                continue
            found.append({"file": path, "name": qualname, "start": span[0], "end": span[1], "lines": span[1] - span[0] + 1})
    result(sample(found, limit, seed))


def find_function(tree, qualname):
    for name, node in walk_functions(tree):
        if name == qualname:
            return node
    raise SystemExit("no function %s" % qualname)


def cmd_blank(path, qualname):
    text = read(path)
    lines = text.splitlines(keepends=True)
    node = find_function(ast.parse(text), qualname)
    span = body_range(node)
    if span is None:
        raise SystemExit("%s has nothing to remove" % qualname)
    start, end = span
    indent = lines[start - 1][: len(lines[start - 1]) - len(lines[start - 1].lstrip())]
    replacement = [] if has_docstring(node) else [indent + "pass\n"]
    lines[start - 1 : end] = replacement
    write(path, "".join(lines))
    ast.parse(read(path))
    result({"file": path, "name": qualname, "removed_lines": end - start + 1})


SWAPS = {
    ast.Lt: ("<", "<="), ast.LtE: ("<=", "<"), ast.Gt: (">", ">="), ast.GtE: (">=", ">"),
    ast.Eq: ("==", "!="), ast.NotEq: ("!=", "=="),
    ast.Add: ("+", "-"), ast.Sub: ("-", "+"), ast.Mult: ("*", "//"), ast.FloorDiv: ("//", "*"),
    ast.Mod: ("%", "//"),
}


def cmd_mutations(paths, limit=None, seed=0):
    found = []
    for path in paths:
        text = read(path)
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        lines = text.splitlines()

        def between(a, b, token, new, kind):
            if a.end_lineno != b.lineno:
                return
            line = lines[a.end_lineno - 1]
            segment = line[a.end_col_offset : b.col_offset]
            offset = segment.find(token)
            if offset < 0 or segment.count(token) != 1:
                return
            found.append({"file": path, "line": a.end_lineno, "col": a.end_col_offset + offset, "old": token, "new": new, "kind": kind})

        docstrings = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Module)) and node.body and has_docstring(node):
                docstrings.add(id(node.body[0].value))
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in SWAPS:
                old, new = SWAPS[type(node.ops[0])]
                between(node.left, node.comparators[0], old, new, "comparison")
            elif isinstance(node, ast.BinOp) and type(node.op) in SWAPS:
                old, new = SWAPS[type(node.op)]
                between(node.left, node.right, old, new, "operator")
            elif isinstance(node, ast.BoolOp) and len(node.values) == 2:
                old, new = ("and", "or") if isinstance(node.op, ast.And) else ("or", "and")
                between(node.values[0], node.values[1], " " + old + " ", " " + new + " ", "condition")
            elif isinstance(node, ast.Constant) and type(node.value) is int and id(node) not in docstrings:
                if node.lineno == node.end_lineno and 0 <= node.value <= 1000:
                    literal = lines[node.lineno - 1][node.col_offset : node.end_col_offset]
                    if literal == str(node.value):
                        found.append({"file": path, "line": node.lineno, "col": node.col_offset, "old": literal, "new": str(node.value + 1), "kind": "constant"})
    result(sample(found, limit, seed))


def cmd_mutate(path, line, col, old, new):
    lines = read(path).splitlines(keepends=True)
    line, col = int(line), int(col)
    target = lines[line - 1]
    if target[col : col + len(old)] != old:
        raise SystemExit("line %d does not have %r at column %d" % (line, old, col))
    lines[line - 1] = target[:col] + new + target[col + len(old) :]
    write(path, "".join(lines))
    ast.parse(read(path))
    result({"file": path, "line": line, "old": old, "new": new})


def load_map(path):
    try:
        return json.loads(read(path))
    except (OSError, ValueError):
        return {}


def file_of(test_id):
    return test_id.split("::")[0]


def count_by_file(test_ids):
    counts = {}
    for test_id in test_ids:
        counts[file_of(test_id)] = counts.get(file_of(test_id), 0) + 1
    return counts


def cmd_summary(path):
    results = load_map(path)
    passed = [t for t, s in results.items() if s == "passed"]
    result({"passed": len(passed), "failed": len(results) - len(passed), "passed_by_file": count_by_file(passed)})


def broken_tests(before, after):
    return sorted(t for t, s in before.items() if s == "passed" and after.get(t) != "passed")


def cmd_compare(before_path, after_path):
    before, after = load_map(before_path), load_map(after_path)
    broken = broken_tests(before, after)
    missing = [t for t in broken if t not in after]
    result({
        "passed_before": sum(1 for s in before.values() if s == "passed"),
        "broken_count": len(broken),
        "broken": broken[:LIST_LIMIT],
        "broken_files": count_by_file(broken),
        "missing": len(missing),
        "ran": len(after),
    })


def test_spans(path, names):
    """The lines (first, last, name) of the test functions of a file named in `names` (qualified or short)."""
    spans = []
    for name, node in walk_functions(ast.parse(read(path))):
        short = name.split(".")[-1]
        if name in names or short in names:
            start = min([node.lineno] + [d.lineno for d in node.decorator_list])
            spans.append((start, node.end_lineno, name))
    return spans


def uses(paths, names, spans):
    """Where the names are used (called, passed, imported) in the files, outside the spans being deleted: {name: ["file:line"]}."""
    found = {}
    for path in sorted(paths):
        try:
            tree = ast.parse(read(path))
        except (OSError, SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                used = node.id
            elif isinstance(node, ast.Attribute):
                used = node.attr
            elif isinstance(node, ast.alias):
                used = node.name.split(".")[-1]
            else:
                continue
            line = getattr(node, "lineno", 0)
            if used in names and not any(start <= line <= end for start, end, _ in spans.get(path, [])):
                found.setdefault(used, []).append("%s:%d" % (path, line))
    return found


def drop_tests(path, names):
    text = read(path)
    lines = text.splitlines(keepends=True)
    spans = test_spans(path, names)
    for start, end, _ in sorted(spans, reverse=True):
        del lines[start - 1 : end]
        # Leave at most two blank lines where the test was.
        while start - 1 < len(lines) and start >= 3 and lines[start - 1].strip() == "" and lines[start - 2].strip() == "" and lines[start - 3].strip() == "":
            del lines[start - 1]
    write(path, "".join(lines))
    ast.parse(read(path))
    return sorted(name for _, _, name in spans)


def function_of(test_id):
    """"tests/t.py::TestX::test_y[1]" -> "TestX.test_y"."""
    return ".".join(test_id.split("::")[1:]).split("[")[0]


def cmd_drop_broken(before_path, after_path, *args):
    spare, test_files = set(), []
    args = list(args)
    while args:
        arg = args.pop(0)
        if arg == "--spare" and args:
            spare.add(args.pop(0))
        else:
            test_files.append(arg)
    by_file = {}
    for test_id in broken_tests(load_map(before_path), load_map(after_path)):
        if file_of(test_id) not in spare:
            by_file.setdefault(file_of(test_id), set()).add(function_of(test_id))
    # A test that other tests call as a helper cannot go: they would fail with a NameError, bug or no bug.
    spans = {path: test_spans(path, names) for path, names in by_file.items()}
    short = {name.split(".")[-1] for found in spans.values() for _, _, name in found}
    used = uses(set(test_files) | set(by_file), short, spans)
    if used:
        result({"files": {}, "dropped": 0, "used": {name: places[:3] for name, places in sorted(used.items())}})
        return
    dropped = {path: drop_tests(path, names) for path, names in sorted(by_file.items())}
    result({"files": {path: len(names) for path, names in dropped.items()}, "dropped": sum(len(n) for n in dropped.values())})


def main(argv):
    if not argv:
        raise SystemExit(__doc__)
    command, args = argv[0], argv[1:]
    if command == "functions":
        limit, seed, files = take_options(args)
        cmd_functions(files, limit, seed)
    elif command == "blank":
        cmd_blank(*args)
    elif command == "mutations":
        limit, seed, files = take_options(args)
        cmd_mutations(files, limit, seed)
    elif command == "mutate":
        cmd_mutate(*args)
    elif command == "summary":
        cmd_summary(*args)
    elif command == "results":
        result(load_map(args[0]))
    elif command == "compare":
        cmd_compare(*args)
    elif command == "drop-tests":
        result({"file": args[0], "dropped": drop_tests(args[0], set(args[1:]))})
    elif command == "drop-broken":
        cmd_drop_broken(*args)
    else:
        raise SystemExit("unknown command %s" % command)


if __name__ == "__main__":
    main(sys.argv[1:])
