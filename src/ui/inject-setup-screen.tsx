/** Setting up an injection run on the selected image. */
import { Box, Text } from 'ink';
import { needsModel as strategyNeedsModel } from '../pipeline/injectors.js';
import type { ViewState } from './state.js';

export function InjectSetupScreen({ state }: { state: ViewState }) {
  const image = state.images[state.cursor];
  const { form } = state;
  const needsModel = form.policy === 'offline' && strategyNeedsModel(form.strategy);
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text bold>{image ? `New injection run on ${image.tag}` : 'No image: pick one on Images (1)'}</Text>
      <Text>
        strategy    <Text color="cyan">‹ {form.strategy} ›</Text>
      </Text>
      <Text>
        bugs        <Text color="cyan">{form.n}</Text>
      </Text>
      <Text>
        at a time   <Text color="cyan">{form.concurrency}</Text>
      </Text>
      <Text>policy      {form.policy === 'anthropic' ? 'anthropic (ANTHROPIC_API_KEY is set)' : 'offline (no ANTHROPIC_API_KEY)'}</Text>
      <Text dimColor>checks      at least 10 passing, 1 changed file, 1 failing test; 90 s per run</Text>
      {needsModel ? <Text color="yellow">{form.strategy} needs a model; set ANTHROPIC_API_KEY or pick removal, history or direct</Text> : null}
    </Box>
  );
}
