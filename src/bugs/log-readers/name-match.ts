/**
 * Which of a log's tests an agent's parser means by a name. The agent chooses
 * how its parser names tests; bugbench only asks that a name be made of the
 * test's own components, as the reader found them (test-ids.ts), in order,
 * joined by any of the usual separators: "example.com/m/calc::TestA/sub",
 * "calc.TestA/sub" and "TestA/sub" all name the go test
 * "example.com/m/calc/TestA/sub"; "test_a.TestX.test_y" and
 * "test_a.py::TestX::test_y" the pytest test "tests/test_a.py::TestX::test_y";
 * "CalcTest#adds" and "CalcTest > adds()" the JUnit test
 * "com.example.CalcTest.adds()". Leading components (package, file, class,
 * describe block) may be left out; the test and its subtests may not.
 *
 * A name stands for the test whose id it is; otherwise for the tests it
 * spells keeping the most components, and of those the ones it spells leaving
 * out the fewest groups. When that is several tests, the name is ambiguous: the parser audit counts it a disagreement, since it cannot say
 * which test it reports.
 */
import type { NamePart } from './types.js';

/** What may stand between two components of a name. */
export const SEPARATORS = [' > ', ' › ', '::', '/', '.', '#', ' '];

interface Entry {
  id: string;
  parts: NamePart[];
}

/** A spelling's worth: each part kept counts this much, each group left out one less. */
const KEPT = 1024;

/**
 * The tests of a reading, found by any name made of their components. The
 * components are kept in a trie read from the last one back (the test, then
 * its groups, then its scope), so that finding a name's tests costs a few
 * look-ups per separator in the name, however many tests the log holds.
 */
export class NameIndex {
  private readonly ids = new Set<string>();
  /** Trie edges, by form and then by the node they leave (the root is 0): most forms a name could hold are no part's, and a miss costs one look-up. */
  private readonly edges = new Map<string, Map<number, number>>();
  private nodes = 1;
  /** The tests a name may end at each node with (every part before it left out), and how close that spelling is. */
  private readonly ends = new Map<number, Map<string, number>>();

  /** Tests added since the trie was last grown: most names a parser prints are ids, which need no trie, so it is grown only when a name is not. */
  private pending: Entry[] = [];

  add(id: string, parts: NamePart[] | undefined): void {
    if (this.ids.has(id)) return;
    this.ids.add(id);
    if (parts && parts.length > 0) this.pending.push({ id, parts });
  }

  private grow(): void {
    for (const { id, parts } of this.pending) this.insertAll(id, parts);
    this.pending = [];
  }

  private insertAll(id: string, parts: NamePart[]): void {
    // Before each part: whether all the parts may be left out, and how many groups they hold.
    const droppable: boolean[] = [true];
    const groups: number[] = [0];
    for (const part of parts) {
      droppable.push(droppable[droppable.length - 1]! && part.drop !== undefined);
      groups.push(groups[groups.length - 1]! + (part.drop === 'group' ? 1 : 0));
    }
    /** Adds the spellings of parts[0..i] above `node`, `kept` parts after them already written. */
    const insert = (i: number, node: number, kept: number): void => {
      if (i < 0) return;
      const part = parts[i]!;
      for (const form of new Set(part.forms)) {
        if (form === '') continue;
        const child = this.edge(node, form);
        if (droppable[i]) this.end(child, id, (kept + 1) * KEPT - groups[i]!);
        insert(i - 1, child, kept + 1);
      }
      if (part.drop === 'any' && kept > 0) insert(i - 1, node, kept);
    };
    insert(parts.length - 1, 0, 0);
  }

  private edge(node: number, form: string): number {
    let from = this.edges.get(form);
    if (!from) this.edges.set(form, (from = new Map()));
    let child = from.get(node);
    if (child === undefined) from.set(node, (child = this.nodes++));
    return child;
  }

  private end(node: number, id: string, worth: number): void {
    let tests = this.ends.get(node);
    if (!tests) this.ends.set(node, (tests = new Map()));
    tests.set(id, Math.max(tests.get(id) ?? 0, worth));
  }

  /** The ids `name` stands for: none, one, or several (ambiguous). */
  resolve(name: string): string[] {
    if (this.ids.has(name)) return [name];
    if (this.pending.length > 0) this.grow();
    // Where each separator in the name starts, by where it ends.
    const seps = new Map<number, number[]>();
    for (const sep of SEPARATORS) {
      for (let at = name.indexOf(sep); at !== -1; at = name.indexOf(sep, at + 1)) {
        const list = seps.get(at + sep.length);
        if (list) list.push(at);
        else seps.set(at + sep.length, [at]);
      }
    }
    const starts = [0, ...seps.keys()].sort((a, b) => a - b);
    let best = 0;
    let found = new Set<string>();
    const seen = new Set<number>();
    // The parts read so far end the name; the one before them ends at `end`.
    const walk = (node: number, end: number) => {
      const state = node * (name.length + 1) + end;
      if (seen.has(state)) return;
      seen.add(state);
      for (const start of starts) {
        if (start >= end) break;
        const child = this.edges.get(name.slice(start, end))?.get(node);
        if (child === undefined) continue;
        if (start === 0) {
          for (const [id, worth] of this.ends.get(child) ?? []) {
            if (worth < best) continue;
            if (worth > best) [best, found] = [worth, new Set()];
            found.add(id);
          }
        } else for (const sepStart of seps.get(start)!) walk(child, sepStart);
      }
    };
    walk(0, name.length);
    return [...found];
  }
}
