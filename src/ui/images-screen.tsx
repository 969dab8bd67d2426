/** The list of repo images, their bugs counted by status, and the selected one's details. */
import { Box, Text } from 'ink';
import { describeCounts } from '../store/queries.js';
import type { ViewState } from './state.js';

export function ImagesScreen({ state, columns }: { state: ViewState; columns: number }) {
  const selected = state.images[state.cursor];
  const policy = state.report?.anthropicKey ? 'anthropic (ANTHROPIC_API_KEY set)' : 'offline (no ANTHROPIC_API_KEY)';
  const tagWidth = Math.min(40, Math.max(8, ...state.images.map((i) => i.tag.length)));
  const repoWidth = Math.min(16, Math.max(4, ...state.images.map((i) => i.repo.length)));
  const fit = (text: string, width: number) => (text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width));
  return (
    <Box flexDirection="column">
      <Text bold>Repo images ({state.images.length})</Text>
      {state.images.length === 0 ? <Text dimColor>none yet: `bugbench images build DIR` adds one</Text> : null}
      {state.images.map((image, i) => (
        <Text key={`${image.id}-${image.tag}`} inverse={i === state.cursor} wrap="truncate-end">
          {i === state.cursor ? '›' : ' '} {fit(image.tag, tagWidth)} {fit(image.repo, repoWidth)} {image.commit.slice(0, 10)} {describeCounts(image.bugCounts)}
        </Text>
      ))}
      {selected ? (
        <Box flexDirection="column" marginTop={1} borderStyle="round" paddingX={1} width={Math.min(columns, 100)}>
          <Text wrap="truncate-end">
            <Text bold>{selected.repo}</Text> at {selected.commit}
          </Text>
          <Text wrap="truncate-end">tests: {selected.testCommand || 'no test command detected'}</Text>
          <Text wrap="truncate-end">
            size {(selected.sizeBytes / 1024 ** 2).toFixed(0)} MB · created {selected.created.slice(0, 19).replace('T', ' ')}
          </Text>
        </Box>
      ) : null}
      <Text dimColor>policy: {policy}</Text>
    </Box>
  );
}
