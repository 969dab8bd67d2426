import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fillTemplate, injectionPrompts, renderPrompt } from '../../../src/agent/prompts.js';
import { PROMPTS_DIR } from '../../../src/paths.js';
import { STRATEGIES } from '../../../src/pipeline/inject.js';

describe('prompt templates', () => {
  it('fill named placeholders and keep escaped braces', () => {
    expect(fillTemplate('at least {n} tests, JSON like {{"a": 1}}', { n: 10 })).toBe('at least 10 tests, JSON like {"a": 1}');
  });

  it('refuse a placeholder without a value', () => {
    expect(() => fillTemplate('need {min_passing_tests}', {})).toThrow(/\{min_passing_tests\} has no value/);
  });

  it.each(STRATEGIES)('render the %s injection prompt with every parameter', (strategy) => {
    const { system, task } = injectionPrompts(strategy, { repoRoot: '/repo', minPassingTests: 12, minChangedFiles: 2, minFailingTests: 3, testTimeoutSec: 90 });
    expect(system).toContain('/repo');
    expect(task).toContain('test_weaken.diff');
    expect(task).toMatch(/12/);
    expect(task).not.toMatch(/\{[a-z_]+\}/);
  });

  it('render the solver prompts', () => {
    expect(renderPrompt('solver-spec', { oracle_test_patch: '+def test_x(): pass' })).toContain('+def test_x(): pass');
    expect(renderPrompt('solver-task', { issue: 'Parsing 1e3 fails' })).toContain('Parsing 1e3 fails');
    expect(readdirSync(PROMPTS_DIR).filter((f) => f.endsWith('.md')).length).toBeGreaterThanOrEqual(10);
  });
});
