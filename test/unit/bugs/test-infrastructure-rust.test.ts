import { describe, expect, it } from 'vitest';
import { isTestModulePath, mayHoldTestConfig, testConfigChange, testInfrastructureReason } from '../../../src/bugs/test-infrastructure.js';

describe('Rust test infrastructure by name', () => {
  it.each([
    ['tests/parse.rs', 'under a test folder (tests/)'],
    ['crates/core/tests/common/mod.rs', 'under a test folder (tests/)'],
    ['benches/parse.rs', 'under benches/ (Cargo benchmarks)'],
    ['benches/data/input.txt', 'under benches/ (Cargo benchmarks)'],
    ['examples/demo.rs', 'a Cargo example (cargo test builds it)'],
    ['crates/core/examples/demo/main.rs', 'a Cargo example (cargo test builds it)'],
    ['src/tests.rs', 'a Rust test module (tests.rs)'],
    ['src/parse/tests.rs', 'a Rust test module (tests.rs)'],
  ])('%s is %s', (path, reason) => {
    expect(testInfrastructureReason(path)).toBe(reason);
  });

  // src/test_utils.rs may be `#[cfg(any(test, feature = "test-utils"))]`, compiled for users too: only its content can say.
  it.each(['src/lib.rs', 'src/testament.rs', 'src/contest.rs', 'src/latest.rs', 'src/test_utils.rs', 'src/test.rs', 'examples/README.md', 'build.rs', 'Cargo.toml'])(
    '%s is not',
    (path) => {
      expect(testInfrastructureReason(path)).toBeUndefined();
    },
  );

  it("names Cargo's test targets as test modules, not their helpers", () => {
    expect(isTestModulePath('tests/parse.rs')).toBe(true);
    expect(isTestModulePath('tests/cli/main.rs')).toBe(true);
    expect(isTestModulePath('src/tests.rs')).toBe(true);
    expect(isTestModulePath('tests/common/mod.rs')).toBe(false);
    expect(isTestModulePath('benches/parse.rs')).toBe(false);
    expect(isTestModulePath('src/lib.rs')).toBe(false);
  });

  it('reads every Rust source for its test parts', () => {
    expect(mayHoldTestConfig('src/lib.rs')).toBe(true);
    expect(mayHoldTestConfig('Cargo.toml')).toBe(false);
  });
});

const LIB = `//! A span library.
use std::fmt;

/// Adds one.
///
/// \`\`\`
/// assert_eq!(spans::add_one(1), 2);
/// \`\`\`
///
/// \`\`\`text
/// add_one(x) = x + 1
/// \`\`\`
pub fn add_one(x: i32) -> i32 {
    x + 1
}

pub fn first<'a>(s: &'a str) -> &'a str {
    let open = '{';
    let close = '}';
    let quote = '\\'';
    let marker = "#[cfg(test)] mod tests { }";
    // #[cfg(test)] mod commented { }
    /* a { nested /* } */ comment */
    let raw = r#"}"#;
    let _ = (open, close, quote, marker, raw);
    &s[..1]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brace<'b>(s: &'b str) -> &'b str {
        let c = '}';
        let r = r##"} "# }"##;
        let b = b'}';
        /* } /* { */ } */
        let _ = (c, r, b);
        s
    }

    #[test]
    fn adds() {
        assert_eq!(add_one(1), 2);
        assert_eq!(brace("}"), "}");
    }
}

pub fn last() -> u8 {
    7
}
`;

const edit = (text: string, from: string, to: string) => {
  if (!text.includes(from)) throw new Error(`no ${from} in the text`);
  return text.replace(from, to);
};

describe('Rust test parts', () => {
  it('ignores edits outside the tests, before and after a test module with braces in strings, chars, raw strings and comments', async () => {
    expect(await testConfigChange('src/lib.rs', LIB, edit(LIB, 'x + 1', 'x + 2'))).toBeUndefined();
    expect(await testConfigChange('src/lib.rs', LIB, edit(LIB, '    7\n', '    8\n'))).toBeUndefined();
    expect(await testConfigChange('src/lib.rs', LIB, edit(LIB, '&s[..1]', '&s[..0]'))).toBeUndefined();
  });

  it('sees an edit inside a #[cfg(test)] module, up to its last line', async () => {
    expect(await testConfigChange('src/lib.rs', LIB, edit(LIB, 'assert_eq!(add_one(1), 2);', 'assert_eq!(add_one(1), 3);'))).toBe('#[cfg(test)] mod tests');
    expect(await testConfigChange('src/lib.rs', LIB, edit(LIB, 'assert_eq!(brace("}"), "}");\n    }\n}', 'assert_eq!(brace("}"), "}");\n    }\n    fn more() {}\n}'))).toBe(
      '#[cfg(test)] mod tests',
    );
    // Without the attribute the module's test function is still a test.
    expect(await testConfigChange('src/lib.rs', LIB, edit(LIB, '#[cfg(test)]\nmod tests {', 'mod tests {'))).toBe('#[cfg(test)] mod tests; #[test] fn adds');
  });

  it('does not take #[cfg(test)] inside a string or a comment for an attribute', async () => {
    expect(await testConfigChange('src/lib.rs', LIB, edit(LIB, '"#[cfg(test)] mod tests { }"', '"#[cfg(test)] mod tests { x }"'))).toBeUndefined();
    expect(await testConfigChange('src/lib.rs', LIB, edit(LIB, '// #[cfg(test)] mod commented { }', '// #[cfg(test)] mod commented { x }'))).toBeUndefined();
  });

  it('sees doctests but not the prose around them or other languages', async () => {
    expect(await testConfigChange('src/lib.rs', LIB, edit(LIB, 'assert_eq!(spans::add_one(1), 2);', 'assert_eq!(spans::add_one(1), 3);'))).toBe('a doctest');
    expect(await testConfigChange('src/lib.rs', LIB, edit(LIB, '/// Adds one.', '/// Adds two.'))).toBeUndefined();
    expect(await testConfigChange('src/lib.rs', LIB, edit(LIB, '/// add_one(x) = x + 1', '/// add_one(x) = x + 2'))).toBeUndefined();
    const block = '/**\n * ```\n * assert!(true);\n * ```\n */\npub fn f() {}\n';
    expect(await testConfigChange('src/lib.rs', block, block.replace('true', 'false'))).toBe('a doctest');
  });

  it('sees the file deleted or a test module added', async () => {
    expect(await testConfigChange('src/lib.rs', LIB, undefined)).toMatch(/#\[cfg\(test\)\] mod tests; a doctest|a doctest; #\[cfg\(test\)\] mod tests/);
    expect(await testConfigChange('src/new.rs', undefined, 'pub fn a() {}\n')).toBeUndefined();
    expect(await testConfigChange('src/new.rs', undefined, 'pub fn a() {}\n#[cfg(test)]\nmod tests;\n')).toBe('#[cfg(test)] mod tests');
  });

  it('tells cfg predicates that hold only in tests from the others', async () => {
    const file = (cfg: string) => `pub fn a() {}\n#[cfg(${cfg})]\nfn helper() -> u8 { 1 }\n`;
    const changed = async (cfg: string) => testConfigChange('src/a.rs', file(cfg), file(cfg).replace('{ 1 }', '{ 2 }'));
    expect(await changed('test')).toBe('#[cfg(test)] fn helper');
    expect(await changed('all(unix, test)')).toBe('#[cfg(all(unix, test))] fn helper');
    expect(await changed('any(test, test)')).toBe('#[cfg(any(test, test))] fn helper');
    expect(await changed('any(test, feature = "testing")')).toBeUndefined();
    expect(await changed('not(test)')).toBeUndefined();
    expect(await changed('feature = "test"')).toBeUndefined();
  });

  it('sees test functions, test-only attributes and cfg(test) items wherever they are', async () => {
    const file = `pub struct S;
impl S {
    #[cfg(test)]
    pub fn probe(&self) -> u8 { 1 }
    pub fn real(&self) -> u8 { 2 }
}
mod inner {
    #[cfg(test)]
    mod tests { #[test] fn t() { assert!(true); } }
}
#[tokio::test]
async fn runs() { assert!(true); }
#[cfg_attr(test, derive(Debug))]
pub struct T;
`;
    expect(await testConfigChange('src/a.rs', file, edit(file, '{ 1 }', '{ 3 }'))).toBe('#[cfg(test)] fn probe');
    expect(await testConfigChange('src/a.rs', file, edit(file, '{ 2 }', '{ 3 }'))).toBeUndefined();
    expect(await testConfigChange('src/a.rs', file, edit(file, 'fn t() { assert!(true); }', 'fn t() { assert!(false); }'))).toBe('#[cfg(test)] mod tests');
    expect(await testConfigChange('src/a.rs', file, edit(file, 'async fn runs() { assert!(true); }', 'async fn runs() {}'))).toBe('#[tokio::test] fn runs');
    expect(await testConfigChange('src/a.rs', file, edit(file, 'derive(Debug)', 'derive(Clone)'))).toMatch(/^#\[cfg_attr\(test, derive\(Debug\)\)\] on struct T; /);
    expect(await testConfigChange('src/a.rs', file, edit(file, 'pub struct T;', 'pub struct T(u8);'))).toBeUndefined();
  });

  it('takes a file or module whose inner attribute is #![cfg(test)] as a whole', async () => {
    const file = '#![cfg(test)]\nuse super::*;\nfn helper() -> u8 { 1 }\n';
    expect(await testConfigChange('src/test_utils.rs', file, file.replace('{ 1 }', '{ 2 }'))).toBe('#![cfg(test)] (the whole file)');
    const module = 'pub fn a() {}\nmod checks {\n    #![cfg(test)]\n    fn helper() -> u8 { 1 }\n}\n';
    expect(await testConfigChange('src/a.rs', module, module.replace('{ 1 }', '{ 2 }'))).toBe('#![cfg(test)] mod checks');
    expect(await testConfigChange('src/a.rs', module, module.replace('pub fn a() {}', 'pub fn a() { }'))).toBeUndefined();
  });

  it('reads a file that does not parse without failing', async () => {
    const broken = 'fn a( {\n#[cfg(test)]\nmod tests { fn t() {} }\n';
    expect(await testConfigChange('src/a.rs', broken, `${broken}\n`)).toBeUndefined();
  });
});
