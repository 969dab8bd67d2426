/** The list of repo images, built and adopted, their bugs counted by status, the selected one's details, and building or adopting one. */
import { Box, Text } from 'ink';
import { describeCounts } from '../pipeline/workbench-core.js';
import type { EngineStatus } from '../sandbox/engines.js';
import { focusMark } from './focus.js';
import { expandTabs, fit, wrap } from './line-fit.js';
import type { RepoImage } from '../sandbox/repo-images.js';
import type { ViewState } from './state.js';
import { adoptPanelLines, initialImageAdopt, type AdoptLine, type ImageAdoptState } from './use-image-adopt.js';
import type { ImageBuildState } from './use-image-build.js';

/** Rows the screen keeps for the title, the details box (less its origin and warning), the policy and engines lines and the build panel. */
const FIXED_ROWS = 10;

/** Columns a row keeps for its bug counts before the tag gives way. */
const COUNTS_COLUMNS = 8;

/** Where an image's repository is, on its row: said for adopted images ("adopted /testbed"); built ones have it at /repo. */
export function originLabel(image: RepoImage): string {
  return image.adopted ? `adopted ${image.root ?? '?'}` : '';
}

/** "adopted TAG as it is: repository at /testbed, runs as root", or that bugbench built it. */
export function originLine(image: RepoImage): string {
  if (!image.adopted) return `built ${image.tag} by bugbench: repository at ${image.root ?? '/repo'}`;
  const user = !image.user || image.user === 'root' ? 'root' : /^\d+$/.test(image.user) ? `uid ${image.user}` : image.user;
  return `adopted ${image.tag} as it is: repository at ${image.root ?? '?'}, runs as ${user}`;
}

/** One row of the list: the tag, repository, language, where an adopted image has its repository, commit and bugs. */
function imageRow(image: RepoImage, selected: boolean, marked: boolean | undefined, widths: { tag: number; repo: number; origin: number }): string {
  const origin = widths.origin > 0 ? [fit(originLabel(image), widths.origin)] : [];
  // The column of marks is there only while some image is marked.
  return [`${focusMark(selected)}${marked === undefined ? '' : marked ? '✓' : ' '}`, fit(image.tag, widths.tag), fit(image.repo, widths.repo), fit(image.language || '?', 6), ...origin, image.commit.slice(0, 10), describeCounts(image.bugCounts)].join(' ');
}

const ADOPT_TONES: Record<AdoptLine['tone'], { color?: string; dimColor?: boolean }> = {
  field: {},
  working: { color: 'yellow' },
  log: { dimColor: true },
  error: { color: 'red' },
  hint: { dimColor: true },
  done: { color: 'green' },
};

function AdoptPanel({ lines }: { lines: AdoptLine[] }) {
  const [first] = lines;
  if (first?.tone === 'field') {
    return (
      <Text wrap="truncate-start">
        adopt the image named: <Text color="cyan">{first.text}</Text>
        <Text inverse> </Text>
        <Text dimColor> (enter adopts, esc closes)</Text>
      </Text>
    );
  }
  return (
    <Box flexDirection="column">
      {lines.map((line, i) => (
        <Text key={i} {...ADOPT_TONES[line.tone]} wrap="truncate-end">
          {line.text}
        </Text>
      ))}
    </Box>
  );
}

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

export function ImagesScreen({ state, build, adopt = initialImageAdopt, rows, columns }: { state: ViewState; build: ImageBuildState; adopt?: ImageAdoptState; rows: number; columns: number }) {
  const selected = state.images[state.cursor];
  const policy = state.report?.anthropicKey
    ? 'anthropic (ANTHROPIC_API_KEY set)'
    : state.report?.policies?.includes('openai')
      ? 'openai (OPENAI_BASE_URL set)'
      : 'offline (no ANTHROPIC_API_KEY or OPENAI_BASE_URL)';
  const repoWidth = Math.min(16, Math.max(4, ...state.images.map((i) => i.repo.length)));
  // Adopted images say so, and where their repository is; the column is there only when one is listed.
  const originWidth = Math.max(0, ...state.images.map((i) => originLabel(i).length));
  const rest = (state.marked.length > 0 ? 3 : 2) + 1 + repoWidth + 1 + 6 + 1 + 10 + 1 + (originWidth > 0 ? originWidth + 1 : 0) + COUNTS_COLUMNS;
  const tagWidth = Math.max(8, Math.min(40, columns - rest, Math.max(8, ...state.images.map((i) => i.tag.length))));
  // A long list shows a window that keeps the selection in view.
  const buildRows = build.building ? build.log.length + 1 : build.kept ? 2 : 1;
  const adoptLines = adoptPanelLines(adopt, columns);
  // The details box is at most 100 columns, inside its border and padding; a warning there wraps, whole.
  const detailWidth = Math.min(columns, 100);
  const warningRows = selected?.warning ? Math.ceil(`warning: ${selected.warning}`.length / Math.max(1, detailWidth - 4)) : 0;
  // Which image it is and whether bugbench built it, whole: an adopted image's name is long.
  const origin = selected ? wrap(originLine(selected), Math.max(20, detailWidth - 4), '  ') : [];
  const listRows = Math.max(1, rows - FIXED_ROWS - origin.length - buildRows - adoptLines.length - warningRows);
  const first = Math.min(Math.max(0, state.cursor - Math.floor(listRows / 2)), Math.max(0, state.images.length - listRows));
  const shown = state.images.slice(first, first + listRows);
  return (
    <Box flexDirection="column">
      <Text bold>
        Repo images ({state.images.length})
        {state.images.length > listRows ? <Text dimColor>{` · ${first + 1}–${first + shown.length} shown`}</Text> : null}
        {state.marked.length > 0 ? <Text color="cyan">{` · ${state.marked.length} marked for one run (space marks, enter runs on them)`}</Text> : null}
      </Text>
      {state.images.length === 0 ? <Text dimColor>none yet: b builds one from a git repository, a adopts an image by name</Text> : null}
      {shown.map((image, i) => (
        <Text key={`${image.id}-${image.tag}`} inverse={first + i === state.cursor} wrap="truncate-end">
          {imageRow(image, first + i === state.cursor, state.marked.length > 0 ? state.marked.includes(image.tag) : undefined, { tag: tagWidth, repo: repoWidth, origin: originWidth })}
        </Text>
      ))}
      {selected ? (
        <Box flexDirection="column" marginTop={1} borderStyle="round" paddingX={1} width={detailWidth}>
          <Text wrap="truncate-end">
            <Text bold>{selected.repo}</Text> at {selected.commit}
          </Text>
          {origin.map((line, i) => (
            <Text key={i} color={selected.adopted ? 'cyan' : undefined} wrap="truncate-end">
              {line}
            </Text>
          ))}
          <Text wrap="truncate-end">
            language: {selected.language || 'not recognised'} · tests: {selected.testCommand || 'no test command detected'}
          </Text>
          <Text wrap="truncate-end">
            size {(selected.sizeBytes / 1e6).toFixed(0)} MB · created {selected.created.slice(0, 19).replace('T', ' ')}
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
      <AdoptPanel lines={adoptLines} />
    </Box>
  );
}
