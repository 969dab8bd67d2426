/** The list of repo images, their bugs counted by status, the selected one's details, and building a new one. */
import { Box, Text } from 'ink';
import { describeCounts } from '../pipeline/workbench-core.js';
import type { EngineStatus } from '../sandbox/engines.js';
import { focusMark } from './focus.js';
import { expandTabs, fit } from './line-fit.js';
import type { ViewState } from './state.js';
import type { ImageBuildState } from './use-image-build.js';

/** Rows the screen keeps for the title, the details box, the policy and engines lines and the build panel. */
const FIXED_ROWS = 10;

function BuildPanel({ build }: { build: ImageBuildState }) {
  if (build.typing !== null) {
    return (
      <Text wrap="truncate-start">
        build an image from the git repository at: <Text color="cyan">{build.typing}</Text>
        <Text inverse> </Text>
        <Text dimColor> (enter builds, esc closes)</Text>
      </Text>
    );
  }
  if (build.building) {
    return (
      <Box flexDirection="column">
        <Text color="yellow" wrap="truncate-end">
          building {build.building}…
        </Text>
        {build.log.map((line, i) => (
          <Text key={i} dimColor wrap="truncate-end">
            {expandTabs(line)}
          </Text>
        ))}
      </Box>
    );
  }
  if (build.error) {
    return (
      <Text color="red" wrap="truncate-end">
        The build failed: {build.error}
      </Text>
    );
  }
  if (build.built) {
    return (
      <Box flexDirection="column">
        <Text color="green" wrap="truncate-end">
          built {build.built}; it is selected
        </Text>
        {build.kept ? (
          <Text color="yellow" wrap="truncate-end">
            old image kept as {build.kept.tag} for its {build.kept.bugs} bug(s)
          </Text>
        ) : null}
      </Box>
    );
  }
  return null;
}

/** "engines: e1 ✓ 20.10.24, 2 slots · e2 ✗ not answering": where runs place their rollouts. */
export function enginesLine(engines: readonly EngineStatus[]): string {
  const each = engines.map((e) => (e.ok ? `${e.name} ✓ ${e.version ?? '?'}, ${e.slots ?? '?'} slot${e.slots === 1 ? '' : 's'}` : `${e.name} ✗ not answering`));
  return `engine${engines.length === 1 ? '' : 's'}: ${each.join(' · ')}`;
}

/** "on e1, e2" / "on e1; e2 gets a copy when a run starts": which engines hold the image (said only when there are several). */
export function imageEngines(tag: string, id: string, engines: readonly EngineStatus[]): string {
  if (engines.length < 2) return '';
  const holds = (e: EngineStatus) => e.images.some((i) => i.tag === tag && i.id === id);
  const on = engines.filter(holds).map((e) => e.name);
  const missing = engines.filter((e) => e.ok && !holds(e)).map((e) => e.name);
  const copy = missing.length > 0 ? `; ${missing.join(', ')} ${missing.length === 1 ? 'gets a copy' : 'get copies'} when a run starts` : '';
  return ` · on ${on.length > 0 ? on.join(', ') : 'no engine'}${copy}`;
}

export function ImagesScreen({ state, build, rows, columns }: { state: ViewState; build: ImageBuildState; rows: number; columns: number }) {
  const selected = state.images[state.cursor];
  const policy = state.report?.anthropicKey
    ? 'anthropic (ANTHROPIC_API_KEY set)'
    : state.report?.policies?.includes('openai')
      ? 'openai (OPENAI_BASE_URL set)'
      : 'offline (no ANTHROPIC_API_KEY or OPENAI_BASE_URL)';
  const tagWidth = Math.min(40, Math.max(8, ...state.images.map((i) => i.tag.length)));
  const repoWidth = Math.min(16, Math.max(4, ...state.images.map((i) => i.repo.length)));
  // A long list shows a window that keeps the selection in view.
  const buildRows = build.building ? build.log.length + 1 : build.kept ? 2 : 1;
  // The details box is at most 100 columns, inside its border and padding; a warning there wraps, whole.
  const detailWidth = Math.min(columns, 100);
  const warningRows = selected?.warning ? Math.ceil(`warning: ${selected.warning}`.length / Math.max(1, detailWidth - 4)) : 0;
  const listRows = Math.max(1, rows - FIXED_ROWS - buildRows - warningRows);
  const first = Math.min(Math.max(0, state.cursor - Math.floor(listRows / 2)), Math.max(0, state.images.length - listRows));
  const shown = state.images.slice(first, first + listRows);
  return (
    <Box flexDirection="column">
      <Text bold>
        Repo images ({state.images.length})
        {state.images.length > listRows ? <Text dimColor>{` · ${first + 1}–${first + shown.length} shown`}</Text> : null}
      </Text>
      {state.images.length === 0 ? <Text dimColor>none yet: b builds one from a git repository</Text> : null}
      {shown.map((image, i) => (
        <Text key={`${image.id}-${image.tag}`} inverse={first + i === state.cursor} wrap="truncate-end">
          {focusMark(first + i === state.cursor)} {fit(image.tag, tagWidth)} {fit(image.repo, repoWidth)} {fit(image.language || '?', 6)} {image.commit.slice(0, 10)} {describeCounts(image.bugCounts)}
        </Text>
      ))}
      {selected ? (
        <Box flexDirection="column" marginTop={1} borderStyle="round" paddingX={1} width={detailWidth}>
          <Text wrap="truncate-end">
            <Text bold>{selected.repo}</Text> at {selected.commit}
          </Text>
          <Text wrap="truncate-end">
            language: {selected.language || 'not recognised'} · tests: {selected.testCommand || 'no test command detected'}
          </Text>
          <Text wrap="truncate-end">
            size {(selected.sizeBytes / 1024 ** 2).toFixed(0)} MB · created {selected.created.slice(0, 19).replace('T', ' ')}
            {imageEngines(selected.tag, selected.id, state.engines)}
          </Text>
          {selected.warning ? (
            <Text color="yellow" wrap="wrap">
              warning: {selected.warning}
            </Text>
          ) : null}
        </Box>
      ) : null}
      <Text dimColor>policy: {policy}</Text>
      {state.engines.length > 0 ? (
        <Text dimColor wrap="truncate-end">
          {enginesLine(state.engines)}
        </Text>
      ) : null}
      <BuildPanel build={build} />
    </Box>
  );
}
