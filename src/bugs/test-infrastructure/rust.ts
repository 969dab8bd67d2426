/**
 * Rust: Cargo's integration tests (tests/, found by the shared test-folder
 * rule), benchmarks (benches/) and examples, which `cargo test` builds, and
 * inside source files the parts compiled or run only by tests (rust-syntax.ts).
 *
 * A `#[cfg(test)] mod tests;` declaration points at another file. By name
 * alone that file is known when it is called tests.rs (or lies in a tests/
 * folder); any other file is known only when it says so itself with an inner
 * `#![cfg(test)]`, since the declaration lives in its parent.
 */
import { baseName, foldersOf, type TestConvention } from './convention.js';
import { loadRustGrammar, rustTestParts } from './rust-syntax.js';

const isRust = (path: string) => path.endsWith('.rs');

export const RUST_CONVENTION: TestConvention = {
  name: 'rust',
  byPath(path) {
    const folders = foldersOf(path);
    if (folders.includes('benches')) return 'under benches/ (Cargo benchmarks)';
    if (!isRust(path)) return undefined;
    if (folders.includes('examples')) return 'a Cargo example (cargo test builds it)';
    if (baseName(path) === 'tests.rs') return 'a Rust test module (tests.rs)';
    return undefined;
  },
  isTestModule(path) {
    if (!isRust(path)) return false;
    const folders = foldersOf(path);
    const base = baseName(path);
    // Cargo makes a test target of each tests/*.rs and tests/*/main.rs; tests/common/mod.rs and the like are helpers.
    return base === 'tests.rs' || folders.at(-1) === 'tests' || (base === 'main.rs' && folders.at(-2) === 'tests');
  },
  mayHoldTests: isRust,
  load: loadRustGrammar,
  testParts: (_path, text) => rustTestParts(text),
};
