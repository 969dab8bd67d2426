import { describe, expect, it } from 'vitest';
import { DiffParseError, parseDiff, touchedPaths, unsafePathReason } from '../../../src/bugs/diff.js';
import { BugbenchError } from '../../../src/errors.js';

const modify = `diff --git a/pkg/core.py b/pkg/core.py
index 1111111..2222222 100644
--- a/pkg/core.py
+++ b/pkg/core.py
@@ -1,3 +1,3 @@
 def f():
-    return 1
+    return 2
 
`;

describe('parseDiff', () => {
  it('reads modified, created, deleted and renamed files', () => {
    const text = `${modify}diff --git a/new.py b/new.py
new file mode 100644
--- /dev/null
+++ b/new.py
@@ -0,0 +1,2 @@
+x = 1
+y = 2
diff --git a/old.py b/old.py
deleted file mode 100644
--- a/old.py
+++ /dev/null
@@ -1 +0,0 @@
-z = 3
diff --git a/a.py b/b.py
similarity index 100%
rename from a.py
rename to b.py
`;
    expect(parseDiff(text)).toEqual([
      { oldPath: 'pkg/core.py', newPath: 'pkg/core.py', added: 1, removed: 1, binary: false },
      { oldPath: undefined, newPath: 'new.py', added: 2, removed: 0, binary: false },
      { oldPath: 'old.py', newPath: undefined, added: 0, removed: 1, binary: false },
      { oldPath: 'a.py', newPath: 'b.py', added: 0, removed: 0, binary: false },
    ]);
  });

  it('keeps a removed line that starts with dashes inside a hunk', () => {
    const text = `--- a/x.md\n+++ b/x.md\n@@ -1,2 +1,1 @@\n--- a rule\n keep\n`;
    expect(parseDiff(text)).toEqual([{ oldPath: 'x.md', newPath: 'x.md', added: 0, removed: 1, binary: false }]);
  });

  it('unquotes paths git quoted', () => {
    const text = `diff --git "a/caf\\303\\251.py" "b/caf\\303\\251.py"\n--- "a/caf\\303\\251.py"\n+++ "b/caf\\303\\251.py"\n@@ -1 +1 @@\n-a\n+b\n`;
    expect(touchedPaths(parseDiff(text))).toEqual(['café.py']);
  });

  it('is empty for an empty diff', () => {
    expect(parseDiff('  \n')).toEqual([]);
  });

  it('refuses text that is not a diff and hunks cut short', () => {
    expect(() => parseDiff('just some words\n')).toThrow(DiffParseError);
    // A typed error of bugbench's own: the CLI prints it as it is (not as an "unexpected error").
    expect(() => parseDiff('just some words\n')).toThrow(BugbenchError);
    expect(() => parseDiff('--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b\n')).toThrow(/cut short/);
    expect(() => parseDiff('--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\nnot a hunk line\n')).toThrow(/hunk ends early/);
  });
});

describe('unsafePathReason', () => {
  it('refuses absolute paths, parent escapes and .git', () => {
    expect(unsafePathReason('/etc/passwd')).toMatch(/absolute/);
    expect(unsafePathReason('src/../../x')).toMatch(/leaves the repository/);
    expect(unsafePathReason('.git/config')).toMatch(/inside \.git/);
    expect(unsafePathReason('src/a..b/c.py')).toBeUndefined();
  });
});
