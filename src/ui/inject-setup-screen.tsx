/** The Run screen: the injection form for the selected image, each wrong value marked where it is. */
import { Box, Text } from 'ink';
import { OFFLINE_LANGUAGES, offlineOffer } from '../agent/offline/kit.js';
import { MODEL_STRATEGIES } from '../pipeline/injectors.js';
import { focusMark } from './focus.js';
import { engineLabel, FIELDS, formErrors, formNotes, type FieldId } from './run-form.js';
import { runImages, type ViewState } from './state.js';
import type { PolicyName } from '../agent/policies.js';

const POLICY_NOTE: Record<PolicyName, string> = {
  anthropic: 'ANTHROPIC_API_KEY is set',
  openai: 'the server at OPENAI_BASE_URL, model OPENAI_MODEL',
  offline: 'no model (set ANTHROPIC_API_KEY or OPENAI_BASE_URL)',
};

const LABEL_WIDTH = Math.max(...FIELDS.map((f) => f.label.length)) + 1;

export function InjectSetupScreen({ state, running }: { state: ViewState; running: boolean }) {
  const images = runImages(state);
  const image = state.images.find((i) => i.tag === images[0]);
  const { form } = state;
  const errors = formErrors(form);
  const notes = formNotes(form);
  const wrong = Object.keys(errors).length;
  const language = image?.language ?? '';
  const offlineWorks = language in OFFLINE_LANGUAGES;
  const value = (id: FieldId): string => (id === 'strategy' ? `‹ ${form.strategy} ›` : id === 'policy' ? `‹ ${form.policy} ›` : id === 'engine' ? `‹ ${engineLabel(form.engine)} ›` : form.values[id]);
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text bold wrap="truncate-end">
        {images.length > 1 ? `New injection run on ${images.length} images, rollouts spread over them from the seed` : image ? `New injection run on ${image.tag}` : 'No image: pick one on Images (1)'}
      </Text>
      {images.length > 1 ? (
        <Text color="cyan" wrap="truncate-end">
          {`  ${images.join(', ')}`}
        </Text>
      ) : null}
      {FIELDS.map((field, i) => {
        const focused = i === form.focus;
        const error = errors[field.id];
        return (
          <Text key={field.id} wrap="truncate-end">
            {`${focusMark(focused)} `}
            {field.label.padEnd(LABEL_WIDTH)}
            <Text color={error ? 'red' : 'cyan'} inverse={focused}>
              {value(field.id) || ' '}
            </Text>
            {field.id === 'strategy' && MODEL_STRATEGIES.includes(form.strategy) && !error ? <Text dimColor> (a model)</Text> : null}
            {field.id === 'strategy' && form.policy === 'offline' && image && !error ? (
              <Text dimColor={offlineWorks} color={offlineWorks ? undefined : 'yellow'}>
                {' '}
                {offlineOffer(language)}
              </Text>
            ) : null}
            {field.hint && !error ? <Text dimColor> {field.hint}</Text> : null}
            {field.id === 'policy' ? <Text dimColor> {POLICY_NOTE[form.policy]}</Text> : null}
            {field.id === 'engine' && form.engine === 'slurm' ? <Text dimColor> a job array on the Slurm cluster; each task uses its node's engine</Text> : null}
            {notes[field.id] ? <Text dimColor> {notes[field.id]}</Text> : null}
            {error ? <Text color="red"> {error}</Text> : null}
          </Text>
        );
      })}
      <Text dimColor={wrong === 0 && !running} color={wrong > 0 || running ? 'yellow' : undefined} wrap="truncate-end">
        {running
          ? 'A run is going: see Rollouts (3); a new one can start when it ends.'
          : wrong > 0
            ? `Fix ${wrong === 1 ? 'the value' : `the ${wrong} values`} in red to start.`
            : 'enter starts the run'}
      </Text>
    </Box>
  );
}
