import { describe, expect, it } from 'vitest';
import { availablePolicies, defaultPolicy } from '../../../src/agent/policies.js';
import { policySettings } from '../../../src/commands/policy-flags.js';
import { rolloutLine } from '../../../src/commands/rollout-lines.js';
import type { RolloutEvent } from '../../../src/agent/events.js';
import { rolloutRow } from '../../../src/ui/rollouts-screen.js';
import { newRunView } from '../../../src/ui/run-state.js';
import { focusedField, formSettings, newRunForm, reduceForm, type RunForm } from '../../../src/ui/run-form.js';

const NO_CONFIG = { BUGBENCH_HOME: '/nonexistent-bugbench-home' };

describe('the policies this machine offers', () => {
  it('offers openai when OPENAI_BASE_URL is set, and defaults to anthropic, then openai, then offline', () => {
    expect(availablePolicies(NO_CONFIG)).toEqual(['offline']);
    expect(availablePolicies({ ...NO_CONFIG, OPENAI_BASE_URL: 'http://gpu:8000/v1' })).toEqual(['openai', 'offline']);
    expect(defaultPolicy({ ...NO_CONFIG, OPENAI_BASE_URL: 'http://gpu:8000/v1' })).toBe('openai');
    expect(defaultPolicy({ ...NO_CONFIG, OPENAI_BASE_URL: 'http://gpu:8000/v1', ANTHROPIC_API_KEY: 'k' })).toBe('anthropic');
  });

  it('keeps a key given on the command line out of the settings a run stores', () => {
    const env: NodeJS.ProcessEnv = { ...NO_CONFIG };
    const settings = policySettings('inject', { policy: 'openai', model: 'm', 'base-url': 'http://gpu:8000/v1', 'api-key': 'sk-secret', 'price-in': '0.2' }, env);
    expect(settings).toEqual({ policy: 'openai', model: 'm', baseUrl: 'http://gpu:8000/v1', priceIn: 0.2 });
    expect(JSON.stringify(settings)).not.toContain('sk-secret');
    expect(env.OPENAI_API_KEY).toBe('sk-secret');
    expect(() => policySettings('solve', { policy: 'anthropic', 'api-key': 'k' }, env)).toThrow('solve: --api-key goes with --policy openai');
    expect(() => policySettings('solve', { policy: 'gpt' }, env)).toThrow('solve: --policy must be one of anthropic, openai, offline, got "gpt"');
    expect(() => policySettings('solve', { policy: 'openai', 'price-out': '-1' }, env)).toThrow(/--price-out must be dollars per million tokens/);
  });

  it('lets the Run form choose among them with ←/→ on its last field', () => {
    let form: RunForm = newRunForm(0, ['openai', 'offline']);
    expect(formSettings(form)).toMatchObject({ policy: 'openai' });
    while (focusedField(form) !== 'policy') form = reduceForm(form, { type: 'focus', delta: 1 });
    form = reduceForm(form, { type: 'step', delta: 1 });
    expect(form.policy).toBe('offline');
    expect(reduceForm(form, { type: 'type', char: '1' })).toEqual(form);
    expect(reduceForm(form, { type: 'step', delta: 1 }).policy).toBe('openai');
    // featadd needs a model: with openai chosen it may start
    while (form.strategy !== 'featadd') form = reduceForm({ ...form, focus: 0 }, { type: 'step', delta: 1 });
    expect(formSettings(form)).toBeUndefined();
    expect(formSettings({ ...form, policy: 'openai' })).toMatchObject({ strategy: 'featadd', policy: 'openai' });
  });
});

describe('spend of a model priced at 0', () => {
  it('is shown as tokens, marked when bugbench counted them, and as dollars once there is a price', () => {
    const view = { ...newRunView('img', 'removal', 'openai', 1).rollouts.r1!, status: 'running' as const, step: 2, startedAt: 0, tokens: 15_200, costUsd: 0, estimated: true };
    const row = rolloutRow(view, false, 'openai', 80, 5_000);
    expect(row).toMatch(/~15\.2k tok/);
    expect(row).not.toMatch(/\$/);
    expect(rolloutRow({ ...view, costUsd: 0.5, estimated: false }, false, 'openai', 80, 5_000)).toMatch(/\$0\.500 15\.2k/);
    const finished = (costUsd: number, extra: object = {}) =>
      rolloutLine('r1', { type: 'finished', reason: 'submitted', steps: 3, costUsd, durationMs: 1200, tokens: 4321, ...extra, seq: 9, t: 1200 } as RolloutEvent);
    expect(finished(0, { estimatedTokens: true })).toBe('[r1] finished: submitted after 3 step(s), 4321 tokens (estimated), 1.2 s');
    expect(finished(0)).toBe('[r1] finished: submitted after 3 step(s), 4321 tokens, 1.2 s');
    expect(finished(0.0123)).toBe('[r1] finished: submitted after 3 step(s), $0.0123, 1.2 s');
  });
});
