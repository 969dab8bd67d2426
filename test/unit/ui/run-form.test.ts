import { describe, expect, it } from 'vitest';
import { DEFAULT_CONCURRENCY, runConcurrency } from '../../../src/pipeline/inject.js';
import { FIELDS, focusedField, formErrors, formNotes, formSettings, newRunForm, reduceForm, type FieldId, type FormKey, type RunForm } from '../../../src/ui/run-form.js';

function press(form: RunForm, ...keys: FormKey[]): RunForm {
  return keys.reduce(reduceForm, form);
}

function focus(form: RunForm, id: FieldId): RunForm {
  let next = form;
  while (focusedField(next) !== id) next = reduceForm(next, { type: 'focus', delta: 1 });
  return next;
}

const type = (text: string): FormKey[] => [...text].map((char) => ({ type: 'type', char }));
const erase = (times: number): FormKey[] => Array.from({ length: times }, () => ({ type: 'erase' }));

describe('the run form', () => {
  it('starts from the check defaults and the given seed, and describes that run', () => {
    expect(formSettings(newRunForm(42))).toEqual({
      strategy: 'removal',
      policy: 'offline',
      n: 3,
      concurrency: 2,
      seed: 42,
      params: { minPassingTests: 10, minChangedFiles: 1, minFailingTests: 1, testTimeoutSec: 90, buggyRuns: 5 },
    });
  });

  it('takes typed numbers for every threshold and the seed, and an optional limit on weakened tests', () => {
    let form = focus(newRunForm(), 'seed');
    form = press(form, ...erase(5), ...type('1234'));
    form = press(focus(form, 'minPassingTests'), ...erase(3), ...type('25'));
    form = press(focus(form, 'testTimeoutSec'), ...erase(3), ...type('30'));
    form = press(focus(form, 'buggyRuns'), { type: 'step', delta: 2 });
    form = press(focus(form, 'maxWeakenedTests'), ...type('3'));
    expect(formSettings(form)).toMatchObject({
      seed: 1234,
      params: { minPassingTests: 25, testTimeoutSec: 30, buggyRuns: 7, maxWeakenedTests: 3, minChangedFiles: 1 },
    });
    // letters are not numbers; the strategy takes no digits
    expect(press(form, { type: 'type', char: 'x' })).toEqual(form);
    const atStrategy = focus(form, 'strategy');
    expect(press(atStrategy, { type: 'type', char: '7' })).toEqual(atStrategy);
  });

  it('marks each wrong value in place and describes no run until they are fixed', () => {
    let form = press(focus(newRunForm(), 'n'), ...erase(1));
    expect(formErrors(form)).toEqual({ n: 'needs a value' });
    expect(formSettings(form)).toBeUndefined();
    form = press(form, ...type('1'));
    expect(formErrors(form)).toEqual({});
    form = press(focus(form, 'testTimeoutSec'), ...erase(2), ...type('0'));
    expect(formErrors(form)).toMatchObject({ testTimeoutSec: 'must be 1–3600' });
    form = press(focus(form, 'testTimeoutSec'), { type: 'step', delta: 1 });
    expect(formErrors(form)).toEqual({});
    expect(formSettings(form)).toMatchObject({ n: 1, params: { testTimeoutSec: 1 } });
  });

  it('runs 1 bug with 2 at a time as the CLI does, one rollout at a time, and says so', () => {
    const form = press(focus(newRunForm(), 'n'), ...type('1'));
    expect(form.values).toMatchObject({ n: '1', concurrency: String(DEFAULT_CONCURRENCY) });
    expect(formErrors(form)).toEqual({});
    expect(formNotes(form)).toEqual({ concurrency: 'runs 1: one rollout a bug' });
    expect(formSettings(form)).toMatchObject({ n: 1, concurrency: 1 });
    // The core's rule, which a run from the CLI follows too.
    expect(runConcurrency({ n: 1, concurrency: 2 })).toBe(1);
    expect(runConcurrency({ n: 5, concurrency: 2 })).toBe(2);
  });

  it('replaces the value with the first digit typed after a field is reached, then adds digits', () => {
    let form = focus(newRunForm(), 'n');
    expect(form.values.n).toBe('3');
    form = press(form, ...type('4'));
    expect(form.values.n).toBe('4');
    form = press(form, ...type('5'));
    expect(form.values.n).toBe('45');
    // Leaving and coming back: the next digit replaces again; a step or an erase first keeps the value to edit.
    form = press(focus(form, 'concurrency'), ...type('3'));
    expect(form.values.concurrency).toBe('3');
    form = press(focus(form, 'n'), { type: 'step', delta: 1 }, ...type('0'));
    expect(form.values.n).toBe('460');
    form = press(focus(form, 'seed'), ...erase(1), ...type('7'));
    expect(form.values.seed).toBe('7');
  });

  it('does not start a strategy that needs a model without ANTHROPIC_API_KEY, and does with it', () => {
    let form = newRunForm();
    while (form.strategy !== 'featadd') form = press(form, { type: 'step', delta: 1 });
    expect(formErrors(form).strategy).toMatch(/needs a model: set ANTHROPIC_API_KEY/);
    expect(formSettings(form)).toBeUndefined();
    expect(formSettings({ ...form, policy: 'anthropic' })).toMatchObject({ strategy: 'featadd', policy: 'anthropic' });
  });

  it('moves round the fields both ways', () => {
    expect(focusedField(press(newRunForm(), { type: 'focus', delta: -1 }))).toBe(FIELDS.at(-1)!.id);
    expect(focusedField(press(newRunForm(), { type: 'focus', delta: FIELDS.length }))).toBe('strategy');
  });
});
