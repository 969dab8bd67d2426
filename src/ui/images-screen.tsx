/** The list of repo images with the selected one's details. */
import { Box, Text } from 'ink';
import type { ViewState } from './state.js';

export function ImagesScreen({ state }: { state: ViewState }) {
  const selected = state.images[state.cursor];
  const anthropic = state.report?.anthropicKey ? 'anthropic (ANTHROPIC_API_KEY set)' : 'offline (no ANTHROPIC_API_KEY)';
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text bold>Repo images ({state.images.length})</Text>
      {state.images.length === 0 ? <Text dimColor>none yet: `bugbench images build DIR` adds one</Text> : null}
      {state.images.map((image, i) => (
        <Text key={`${image.id}-${image.tag}`} inverse={i === state.cursor}>
          {i === state.cursor ? '›' : ' '} {image.tag.padEnd(36)} {image.repo.padEnd(14)} {image.commit.slice(0, 10)}{' '}
          {String(image.bugs).padStart(3)} bugs
        </Text>
      ))}
      {selected ? (
        <Box flexDirection="column" marginTop={1} borderStyle="round" paddingX={1}>
          <Text>
            <Text bold>{selected.repo}</Text> at {selected.commit}
          </Text>
          <Text>tests: {selected.testCommand || 'no test command detected'}</Text>
          <Text>
            size {(selected.sizeBytes / 1024 ** 2).toFixed(0)} MB · created {selected.created.slice(0, 19).replace('T', ' ')}
          </Text>
        </Box>
      ) : null}
      <Text dimColor>policy: {anthropic}</Text>
      <Text dimColor>↑/↓ select · i inject bugs · q quit</Text>
    </Box>
  );
}
