/**
 * Ruby: RSpec's spec/ folder, its .rspec options and helpers (spec_helper.rb,
 * rails_helper.rb), minitest's test_helper.rb, specs and tests by name
 * (*_spec.rb, *_test.rb, test_*.rb; the test/ folder is the shared rule's),
 * and in a Rakefile the tasks that run the tests (Rake::TestTask,
 * RSpec::Core::RakeTask, Minitest::TestTask, the default task).
 */
import { addPart, baseName, foldersOf, type TestConvention, type TestParts } from './convention.js';

const HELPERS = new Set(['spec_helper.rb', 'rails_helper.rb', 'test_helper.rb']);
const TEST_FILE = /^(?:.+_spec|.+_test|test_.+)\.rb$/;
const TASK = /^(\s*)(?:Rake::TestTask|RSpec::Core::RakeTask|Minitest::TestTask)\.(?:new|create)\b/;
const DEFAULT_TASK = /^\s*task\s*\(?\s*(?:default|:default\s*=>)/;
const OPENS_BLOCK = /\bdo\s*(?:\|[^|]*\|)?\s*(?:#.*)?$|\{\s*(?:\|[^|]*\|)?\s*$/;

/** The Rakefile's test tasks: each task definition with its block (up to the `end` at its indentation), and the default task. */
export function rakeTestParts(text: string): TestParts {
  const parts: TestParts = new Map();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const task = TASK.exec(line);
    if (task) {
      const kept = [line.trimEnd()];
      if (OPENS_BLOCK.test(line)) {
        const indent = task[1]!;
        while (++i < lines.length) {
          kept.push(lines[i]!.trimEnd());
          if (new RegExp(`^${indent}(?:end|\\})\\b`).test(lines[i]!)) break;
        }
      }
      addPart(parts, 'Rake test task', kept.join('\n'));
    } else if (DEFAULT_TASK.test(line)) {
      addPart(parts, 'Rake default task', line.trim());
    }
  }
  return parts;
}

export const RUBY_CONVENTION: TestConvention = {
  name: 'ruby',
  byPath(path) {
    const base = baseName(path);
    if (base === '.rspec' || base === '.rspec-local') return 'RSpec options (.rspec)';
    if (HELPERS.has(base)) return `a test helper (${base})`;
    if (foldersOf(path)[0] === 'spec') return 'under spec/ (RSpec)';
    if (TEST_FILE.test(base)) return 'a Ruby test file (*_spec.rb, *_test.rb, test_*.rb)';
    return undefined;
  },
  isTestModule: (path) => TEST_FILE.test(baseName(path)),
  mayHoldTests: (path) => baseName(path) === 'Rakefile' || baseName(path).endsWith('.rake'),
  testParts: (_path, text) => rakeTestParts(text),
};
