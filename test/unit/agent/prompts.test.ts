import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fillTemplate, injectionPrompts, renderPrompt } from '../../../src/agent/prompts.js';
import { PROMPTS_DIR } from '../../../src/paths.js';
import { STRATEGIES } from '../../../src/pipeline/inject.js';

describe('prompt templates', () => {
  it('fill named placeholders and keep escaped braces', () => {
    expect(fillTemplate('at least {n} tests, JSON like {{"a": 1}}', { n: 10 })).toBe('at least 10 tests, JSON like {"a": 1}');
  });

  it('tell the injector the image\'s own test command when it has one', () => {
    const params = { repoRoot: '/testbed', minPassingTests: 12, minChangedFiles: 2, minFailingTests: 3, testTimeoutSec: 90 };
    expect(injectionPrompts('removal', { ...params, testCommand: 'SLOTSMITH_MODE=test python3 -m pytest -rA' }).system).toMatch(/The image's own test command is `SLOTSMITH_MODE=test python3 -m pytest -rA`: start from it/);
    expect(injectionPrompts('removal', { ...params, testCommand: ' ' }).system).not.toMatch(/own test command/);
    expect(injectionPrompts('removal', params).system).not.toMatch(/own test command/);
  });

  it('refuse a placeholder without a value', () => {
    expect(() => fillTemplate('need {min_passing_tests}', {})).toThrow(/\{min_passing_tests\} has no value/);
  });

  it.each(STRATEGIES.filter((s) => s !== 'featadd' && s !== 'removal+history'))('render the %s injection prompt with every parameter', (strategy) => {
    const { system, task } = injectionPrompts(strategy, { repoRoot: '/repo', minPassingTests: 12, minChangedFiles: 2, minFailingTests: 3, testTimeoutSec: 90 });
    expect(system).toContain('/repo');
    expect(task).toContain('test_weaken.diff');
    expect(task).toMatch(/12/);
    expect(task).not.toMatch(/\{[a-z_]+\}/);
  });

  it('render the solver prompts', () => {
    expect(renderPrompt('solver-spec', { oracle_test_patch: '+def test_x(): pass' })).toContain('+def test_x(): pass');
    expect(renderPrompt('solver-task', { repo_root: '/repo', issue: 'Parsing 1e3 fails' })).toContain('Parsing 1e3 fails');
    expect(readdirSync(PROMPTS_DIR).filter((f) => f.endsWith('.md')).length).toBeGreaterThanOrEqual(10);
  });

  it('ask FeatAdd for a working feature only: no hint that breakage is wanted, no diff to write', () => {
    const { task } = injectionPrompts('featadd', { repoRoot: '/repo', minPassingTests: 12, minChangedFiles: 2, minFailingTests: 3, testTimeoutSec: 90 });
    expect(task).toMatch(/Everything the project does today must keep working/);
    expect(task).toMatch(/do not edit or remove existing tests/);
    expect(task).toMatch(/at least two related changes, in at least 2 different code files/);
    expect(task).toMatch(/test_files\.txt[\s\S]*test_script\.sh[\s\S]*test_parser\.py/);
    expect(task).not.toMatch(/test_weaken|bug_inject|breakage|collect|keep (going|developing) until/i);
    expect(task).not.toMatch(/\{[a-z_]+\}/);
  });

  it('draw removal or history per rollout from the seed, both over a run', async () => {
    const { promptOf } = await import('../../../src/pipeline/injectors.js');
    const drawn = Array.from({ length: 6 }, (_, i) => promptOf('removal+history', 11, i));
    expect(new Set(drawn)).toEqual(new Set(['removal', 'history']));
    expect(Array.from({ length: 6 }, (_, i) => promptOf('removal+history', 11, i))).toEqual(drawn);
    expect(promptOf('direct', 11, 3)).toBe('direct');
  });
});
