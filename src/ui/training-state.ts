/**
 * The Training screen's view state, as a pure reducer: the focused job, the
 * submission form (format, engine, the trainer's command, typed in place) and
 * what the last action said.
 */
import { DATASET_FORMATS, ENGINE_NAMES, type DatasetFormat, type EngineName } from '../training/types.js';

export const FORM_FIELDS = ['format', 'engine', 'command'] as const;
export type FormField = (typeof FORM_FIELDS)[number];

export interface TrainingForm {
  field: FormField;
  format: DatasetFormat;
  engine: EngineName;
  command: string;
}

export interface TrainingState {
  focus: number;
  form: TrainingForm | null;
  busy: string | null;
  /** The job `x` was pressed on: a second `x` cancels it, any other key keeps it. */
  confirmCancel: string | null;
  message: { text: string; error: boolean } | null;
}

export const initialTraining: TrainingState = { focus: 0, form: null, busy: null, confirmCancel: null, message: null };

export type TrainingEvent =
  | { type: 'focus'; delta: number; count: number }
  | { type: 'open-form'; engine: EngineName; command: string }
  | { type: 'close-form' }
  | { type: 'form-field'; delta: number }
  | { type: 'form-choice'; delta: number }
  | { type: 'form-type'; text: string }
  | { type: 'form-erase' }
  | { type: 'busy'; what: string | null }
  | { type: 'ask-cancel'; id: string | null }
  | { type: 'message'; text: string; error: boolean };

function cycle<T>(values: readonly T[], current: T, delta: number): T {
  const i = values.indexOf(current);
  return values[(i + delta + values.length) % values.length]!;
}

export function reduceTraining(state: TrainingState, event: TrainingEvent): TrainingState {
  const form = state.form;
  switch (event.type) {
    case 'focus':
      return { ...state, focus: Math.min(Math.max(0, event.count - 1), Math.max(0, state.focus + event.delta)) };
    case 'open-form':
      return { ...state, form: { field: 'format', format: 'swebench', engine: event.engine, command: event.command }, message: null };
    case 'close-form':
      return { ...state, form: null };
    case 'form-field':
      return form ? { ...state, form: { ...form, field: cycle(FORM_FIELDS, form.field, event.delta) } } : state;
    case 'form-choice':
      if (!form || form.field === 'command') return state;
      return form.field === 'format'
        ? { ...state, form: { ...form, format: cycle(DATASET_FORMATS, form.format, event.delta) } }
        : { ...state, form: { ...form, engine: cycle(ENGINE_NAMES, form.engine, event.delta) } };
    case 'form-type':
      return form?.field === 'command' ? { ...state, form: { ...form, command: form.command + event.text } } : state;
    case 'form-erase':
      return form?.field === 'command' ? { ...state, form: { ...form, command: form.command.slice(0, -1) } } : state;
    case 'busy':
      return { ...state, busy: event.what, confirmCancel: null };
    case 'ask-cancel':
      return { ...state, confirmCancel: event.id, message: event.id ? { text: `x again cancels ${event.id}; any other key keeps it running`, error: false } : null };
    case 'message':
      return { ...state, message: { text: event.text, error: event.error }, busy: null };
  }
}
