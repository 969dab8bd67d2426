/** The one place a run's defaults are applied (issue 32, item 2): a front end passes what the user chose and nothing else. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHECK_PARAMS } from '../../../src/bugs/meta.js';
import { INJECT_DEFAULTS, injectSettings, runConcurrency } from '../../../src/pipeline/inject-settings.js';
import { newRunForm, formSettings } from '../../../src/ui/run-form.js';

describe('injectSettings', () => {
  it('fills in every default a request leaves out', () => {
    const settings = injectSettings({ image: 'bugbench/repo-knotcfg:latest', strategy: 'removal', policy: 'offline' });
    expect(settings).toEqual({ image: 'bugbench/repo-knotcfg:latest', strategy: 'removal', policy: 'offline', n: 1, concurrency: 2, seed: 0, maxSteps: 100, params: DEFAULT_CHECK_PARAMS });
  });

  it('keeps what was asked, one check parameter among the defaults of the others, and no undefined keys', () => {
    const settings = injectSettings({ image: 'i', strategy: 'history', policy: 'offline', n: 4, maxSteps: 7, params: { minFailingTests: 3 }, budgetUsd: undefined });
    expect(settings).toMatchObject({ n: 4, maxSteps: 7, concurrency: INJECT_DEFAULTS.concurrency, params: { ...DEFAULT_CHECK_PARAMS, minFailingTests: 3 } });
    expect(Object.keys(settings)).not.toContain('budgetUsd');
  });

  it('is where the workbench form takes its concurrency from, and the form sends only what it shows', () => {
    const form = newRunForm(5, ['offline']);
    expect(form.values.concurrency).toBe(String(INJECT_DEFAULTS.concurrency));
    const request = formSettings(form)!;
    expect(request).not.toHaveProperty('maxSteps');
    expect(injectSettings({ image: 'i', ...request }).maxSteps).toBe(INJECT_DEFAULTS.maxSteps);
    expect(runConcurrency({ n: 1, concurrency: 2 })).toBe(1);
  });
});
