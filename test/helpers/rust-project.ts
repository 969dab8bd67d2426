/**
 * A small Rust library made on the spot: `ringstat`, a fixed-size ring of
 * samples with running statistics. Unit tests live in a `#[cfg(test)] mod
 * tests` inside the source, integration tests in `tests/`; no dependencies,
 * no Cargo.lock committed (as libraries often do), and a history of four
 * commits of which one is a fix that came with its test.
 */
import { makeGitRepo } from './git-repo.js';

const CARGO_TOML = `[package]
name = "ringstat"
version = "0.1.0"
edition = "2021"

[dependencies]
`;

const LIB_V1 = `//! A fixed-size ring of samples and statistics over what it holds.

/// Keeps the last \`capacity\` samples pushed.
pub struct Ring {
    slots: Vec<f64>,
    next: usize,
    len: usize,
}

impl Ring {
    /// A ring holding at most \`capacity\` samples; a capacity of zero is raised to one.
    pub fn new(capacity: usize) -> Ring {
        Ring { slots: vec![0.0; capacity.max(1)], next: 0, len: 0 }
    }

    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds a sample, dropping the oldest when the ring is full.
    pub fn push(&mut self, value: f64) {
        self.slots[self.next] = value;
        self.next = (self.next + 1) % self.slots.len();
        self.len = (self.len + 1).min(self.slots.len());
    }

    /// The samples from oldest to newest.
    pub fn values(&self) -> Vec<f64> {
        let start = (self.next + self.slots.len() - self.len) % self.slots.len();
        (0..self.len).map(|i| self.slots[(start + i) % self.slots.len()]).collect()
    }

    pub fn mean(&self) -> Option<f64> {
        if self.len == 0 {
            return None;
        }
        Some(self.values().iter().sum::<f64>() / self.len as f64)
    }

    pub fn max(&self) -> Option<f64> {
        self.values().into_iter().reduce(f64::max)
    }
}
`;

const LIB_TESTS_V1 = `
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_capacity_holds_one() {
        assert_eq!(Ring::new(0).capacity(), 1);
    }

    #[test]
    fn push_wraps_around() {
        let mut ring = Ring::new(3);
        for v in [1.0, 2.0, 3.0, 4.0] {
            ring.push(v);
        }
        assert_eq!(ring.values(), vec![2.0, 3.0, 4.0]);
    }

    #[test]
    fn empty_ring_has_no_mean() {
        assert_eq!(Ring::new(4).mean(), None);
    }
}
`;

const MEDIAN_V1 = `
    /// The middle sample once sorted (the mean of the two middle ones for an even count).
    pub fn median(&self) -> Option<f64> {
        let mut sorted = self.values();
        if sorted.is_empty() {
            return None;
        }
        sorted.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let mid = sorted.len() / 2;
        Some(sorted[mid])
    }
}
`;

const MEDIAN_V2 = MEDIAN_V1.replace(
  '        Some(sorted[mid])\n',
  '        if sorted.len() % 2 == 0 {\n            return Some((sorted[mid - 1] + sorted[mid]) / 2.0);\n        }\n        Some(sorted[mid])\n',
);

const withMedian = (median: string) => LIB_V1.replace(/}\n$/, '') + median;

const LIB_TESTS_V2 = LIB_TESTS_V1.replace(
  /}\n$/,
  `
    #[test]
    fn median_of_odd_count() {
        let mut ring = Ring::new(5);
        for v in [9.0, 1.0, 5.0] {
            ring.push(v);
        }
        assert_eq!(ring.median(), Some(5.0));
    }
}
`,
);

const LIB_TESTS_V3 = LIB_TESTS_V2.replace(
  /}\n$/,
  `
    #[test]
    fn median_of_even_count_is_mean_of_middle_two() {
        let mut ring = Ring::new(4);
        for v in [4.0, 1.0, 3.0, 2.0] {
            ring.push(v);
        }
        assert_eq!(ring.median(), Some(2.5));
    }
}
`,
);

const API_TEST = `use ringstat::Ring;

#[test]
fn mean_of_last_samples_only() {
    let mut ring = Ring::new(2);
    for v in [100.0, 1.0, 3.0] {
        ring.push(v);
    }
    assert_eq!(ring.mean(), Some(2.0));
}

#[test]
fn max_of_negative_samples() {
    let mut ring = Ring::new(3);
    ring.push(-5.0);
    ring.push(-2.0);
    assert_eq!(ring.max(), Some(-2.0));
}

#[test]
fn len_stops_at_capacity() {
    let mut ring = Ring::new(2);
    for v in 0..5 {
        ring.push(v as f64);
    }
    assert_eq!(ring.len(), 2);
    assert!(!ring.is_empty());
}
`;

/** The tests `cargo test` reports at the last commit: unit tests by module path, integration tests by name. */
export const RUST_TESTS = [
  'tests::zero_capacity_holds_one',
  'tests::push_wraps_around',
  'tests::empty_ring_has_no_mean',
  'tests::median_of_odd_count',
  'tests::median_of_even_count_is_mean_of_middle_two',
  'mean_of_last_samples_only',
  'max_of_negative_samples',
  'len_stops_at_capacity',
];

export function makeRustProject(name = 'ringstat'): Promise<string> {
  return makeGitRepo(name, [
    { message: 'Add a ring of samples with mean and max', files: { 'Cargo.toml': CARGO_TOML, '.gitignore': '/target\n', 'src/lib.rs': LIB_V1 + LIB_TESTS_V1 } },
    { message: 'Add integration tests of the public API', files: { 'tests/api.rs': API_TEST } },
    { message: 'Add median', files: { 'src/lib.rs': withMedian(MEDIAN_V1) + LIB_TESTS_V2 } },
    { message: 'Fix median of an even number of samples', files: { 'src/lib.rs': withMedian(MEDIAN_V2) + LIB_TESTS_V3 } },
  ]);
}
