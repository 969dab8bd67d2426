/**
 * The Run screen's form as pure state: a strategy, the policy (among those
 * this machine is set up for), where the run goes (this machine's engines or
 * a Slurm job array) and the run's numbers, kept
 * as the text typed so that a wrong value stays on screen, next to what is
 * wrong with it, until it is fixed. Nothing starts while any field is wrong.
 */
import { DEFAULT_CHECK_PARAMS, DEFAULT_BUGGY_RUNS, type CheckParams } from '../bugs/meta.js';
import { INJECT_DEFAULTS, runConcurrency, type PolicyName } from '../pipeline/inject.js';
import { needsModel, STRATEGIES, type InjectStrategy } from '../pipeline/injectors.js';

export const MAX_BUGS = 200;
export const MAX_CONCURRENCY = 16;

export type NumberField = 'n' | 'concurrency' | 'seed' | 'minPassingTests' | 'minChangedFiles' | 'minFailingTests' | 'testTimeoutSec' | 'buggyRuns' | 'maxWeakenedTests';
export type FieldId = 'strategy' | 'policy' | 'engine' | NumberField;

/** Where a run goes: this machine's engines, or a Slurm job array (pipeline/start-injection.ts). */
export type RunEngineChoice = 'here' | 'slurm';
export const ENGINE_CHOICES: RunEngineChoice[] = ['here', 'slurm'];

/** The engine row's words. */
export function engineLabel(engine: RunEngineChoice): string {
  return engine === 'here' ? 'this machine' : `Slurm, ${INJECT_DEFAULTS.tasks} tasks`;
}

export interface FieldInfo {
  id: FieldId;
  label: string;
  /** Shown after the value: the unit or what an empty value means. */
  hint?: string;
}

export const FIELDS: FieldInfo[] = [
  { id: 'strategy', label: 'strategy' },
  { id: 'n', label: 'bugs' },
  { id: 'concurrency', label: 'at a time' },
  { id: 'seed', label: 'seed' },
  { id: 'minPassingTests', label: 'min passing tests' },
  { id: 'minChangedFiles', label: 'min changed files' },
  { id: 'minFailingTests', label: 'min failing tests' },
  { id: 'testTimeoutSec', label: 'test run limit', hint: 's' },
  { id: 'buggyRuns', label: 'buggy-state runs' },
  { id: 'maxWeakenedTests', label: 'max weakened tests', hint: 'empty: no limit' },
  { id: 'policy', label: 'policy' },
  { id: 'engine', label: 'engine' },
];

/** The fields ←/→ choose a value of (the others take numbers). */
const CHOICE_FIELDS: FieldId[] = ['strategy', 'policy', 'engine'];

export function isChoiceField(field: FieldId): boolean {
  return CHOICE_FIELDS.includes(field);
}

export interface RunForm {
  strategy: InjectStrategy;
  policy: PolicyName;
  /** The policies ←/→ choose from: those set up here (ANTHROPIC_API_KEY, OPENAI_BASE_URL), and offline. */
  policies: PolicyName[];
  engine: RunEngineChoice;
  /** Index into FIELDS. */
  focus: number;
  /** The focused number field was just reached: the first digit typed replaces its value. */
  fresh: boolean;
  values: Record<NumberField, string>;
}

export function newRunForm(seed = 0, policies: PolicyName[] = ['offline']): RunForm {
  const p = DEFAULT_CHECK_PARAMS;
  return {
    strategy: 'removal',
    policy: policies[0] ?? 'offline',
    policies,
    engine: 'here',
    focus: 0,
    fresh: true,
    values: {
      n: '3',
      concurrency: String(INJECT_DEFAULTS.concurrency),
      seed: String(seed),
      minPassingTests: String(p.minPassingTests),
      minChangedFiles: String(p.minChangedFiles),
      minFailingTests: String(p.minFailingTests),
      testTimeoutSec: String(p.testTimeoutSec),
      buggyRuns: String(p.buggyRuns ?? DEFAULT_BUGGY_RUNS),
      maxWeakenedTests: '',
    },
  };
}

export type FormKey =
  | { type: 'focus'; delta: number }
  /** ←/→: the next strategy, or one more or less. */
  | { type: 'step'; delta: number }
  | { type: 'type'; char: string }
  | { type: 'erase' };

/** The smallest and largest value of each number field; `optional` ones may be left empty. */
const BOUNDS: Record<NumberField, { min: number; max: number; optional?: boolean }> = {
  n: { min: 1, max: MAX_BUGS },
  concurrency: { min: 1, max: MAX_CONCURRENCY },
  seed: { min: 0, max: 2 ** 31 - 1 },
  minPassingTests: { min: 0, max: 100_000 },
  minChangedFiles: { min: 1, max: 1000 },
  minFailingTests: { min: 1, max: 100_000 },
  testTimeoutSec: { min: 1, max: 3600 },
  buggyRuns: { min: 1, max: 50 },
  maxWeakenedTests: { min: 0, max: 100_000, optional: true },
};

export function focusedField(form: RunForm): FieldId {
  return FIELDS[form.focus]!.id;
}

export function reduceForm(form: RunForm, key: FormKey): RunForm {
  const field = focusedField(form);
  switch (key.type) {
    case 'focus':
      return { ...form, focus: (form.focus + key.delta + FIELDS.length) % FIELDS.length, fresh: true };
    case 'step': {
      if (field === 'strategy') {
        const i = STRATEGIES.indexOf(form.strategy);
        return { ...form, strategy: STRATEGIES[(i + key.delta + STRATEGIES.length) % STRATEGIES.length]! };
      }
      if (field === 'policy') {
        const choices = form.policies.length > 0 ? form.policies : [form.policy];
        const i = Math.max(0, choices.indexOf(form.policy));
        return { ...form, policy: choices[(i + key.delta + choices.length) % choices.length]! };
      }
      if (field === 'engine') {
        const i = ENGINE_CHOICES.indexOf(form.engine);
        return { ...form, engine: ENGINE_CHOICES[(i + key.delta + ENGINE_CHOICES.length) % ENGINE_CHOICES.length]! };
      }
      const { min, max } = BOUNDS[field as NumberField];
      const text = form.values[field as NumberField];
      const current = /^\d+$/.test(text) ? Number(text) : min;
      return withValue(form, field as NumberField, String(Math.min(max, Math.max(min, current + key.delta))));
    }
    case 'type':
      if (isChoiceField(field) || !/^\d$/.test(key.char)) return form;
      // A field just reached takes the number typed, rather than adding digits to the one shown ("3", then 4, is 4, not 34).
      const number = field as NumberField;
      if (form.fresh || form.values[number] === '0') return withValue(form, number, key.char);
      return withValue(form, number, (form.values[number] + key.char).slice(0, 10));
    case 'erase':
      return isChoiceField(field) ? form : withValue(form, field as NumberField, form.values[field as NumberField].slice(0, -1));
  }
}

function withValue(form: RunForm, field: NumberField, text: string): RunForm {
  return { ...form, fresh: false, values: { ...form.values, [field]: text } };
}

/** What is wrong with each field, in words; empty when the run can start. */
export function formErrors(form: RunForm): Partial<Record<FieldId, string>> {
  const errors: Partial<Record<FieldId, string>> = {};
  if (form.policy === 'offline' && needsModel(form.strategy)) {
    errors.strategy = 'needs a model: set ANTHROPIC_API_KEY or OPENAI_BASE_URL';
  }
  for (const [field, bounds] of Object.entries(BOUNDS) as [NumberField, (typeof BOUNDS)[NumberField]][]) {
    const text = form.values[field];
    if (text === '') {
      if (!bounds.optional) errors[field] = 'needs a value';
    } else if (Number(text) < bounds.min || Number(text) > bounds.max) {
      errors[field] = `must be ${bounds.min}–${bounds.max}`;
    }
  }
  return errors;
}

/** What the run will do with a value that is right but more than it can use: at most one rollout a bug at a time (the CLI's rule). */
export function formNotes(form: RunForm): Partial<Record<FieldId, string>> {
  const errors = formErrors(form);
  const [n, concurrency] = [Number(form.values.n), Number(form.values.concurrency)];
  if (errors.n || errors.concurrency || concurrency <= n) return {};
  return { concurrency: `runs ${runConcurrency({ n, concurrency })}: one rollout a bug` };
}

export interface RunSettings {
  /** A Slurm job array of that many tasks; none: this machine's engines. */
  cluster?: { tasks: number };
  strategy: InjectStrategy;
  policy: PolicyName;
  n: number;
  concurrency: number;
  seed: number;
  params: CheckParams;
}

/** The run the form describes, or undefined while a field is wrong. */
export function formSettings(form: RunForm): RunSettings | undefined {
  if (Object.keys(formErrors(form)).length > 0) return undefined;
  const v = (field: NumberField) => Number(form.values[field]);
  return {
    ...(form.engine === 'slurm' ? { cluster: { tasks: INJECT_DEFAULTS.tasks } } : {}),
    strategy: form.strategy,
    policy: form.policy,
    n: v('n'),
    concurrency: runConcurrency({ n: v('n'), concurrency: v('concurrency') }),
    seed: v('seed'),
    params: {
      minPassingTests: v('minPassingTests'),
      minChangedFiles: v('minChangedFiles'),
      minFailingTests: v('minFailingTests'),
      testTimeoutSec: v('testTimeoutSec'),
      buggyRuns: v('buggyRuns'),
      ...(form.values.maxWeakenedTests === '' ? {} : { maxWeakenedTests: v('maxWeakenedTests') }),
    },
  };
}
