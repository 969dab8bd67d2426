/** The workbench's frame: a header naming the screens, a footer with the current screen's keys, the `?` overlay. */
import { Box, Text } from 'ink';
import { wrap } from './line-fit.js';
import { fitFooter, GLOBAL_KEYS, SCREENS, screenInfo, type ScreenId } from './screens.js';

export function Header({ screen, ready, note }: { screen: ScreenId; ready: boolean; note?: string }) {
  return (
    <Box>
      <Text wrap="truncate-end">
        <Text bold color="cyan">
          bugbench
        </Text>
        {ready
          ? SCREENS.map((s) => (
              <Text key={s.id} inverse={s.id === screen} bold={s.id === screen} dimColor={s.id !== screen}>
                {s.id === screen ? ` [${s.key} ${s.title}]` : `  ${s.key} ${s.title} `}
              </Text>
            ))
          : null}
        {note ? <Text dimColor> {note}</Text> : null}
      </Text>
    </Box>
  );
}

const ALWAYS = ' · ? help · q quit';

/** The question a q asks while work runs, longest first: the widest that fits is shown, and each keeps the way back. */
const QUIT_PROMPTS = [
  'A run is going. q again cancels it (its containers are removed) and quits; any other key stays.',
  'A run is going: q again cancels it and quits; any other key stays.',
  'q again quits; any other key stays.',
];

export function quitPrompt(columns: number): string {
  return QUIT_PROMPTS.find((prompt) => prompt.length <= columns) ?? QUIT_PROMPTS.at(-1)!;
}

export function Footer({ screen, confirmQuit, extra, typing, columns }: { screen: ScreenId; confirmQuit: boolean; extra?: string; typing?: string; columns: number }) {
  if (typing !== undefined) {
    // While text is typed, every key is text: only the keys that end the typing mean anything.
    return (
      <Text color="yellow" wrap="truncate-end">
        {typing}
      </Text>
    );
  }
  if (confirmQuit) {
    return (
      <Text color="yellow" wrap="truncate-end">
        {quitPrompt(columns)}
      </Text>
    );
  }
  // The screen's keys give way (their words first) before the two keys that explain the rest.
  const room = columns - ALWAYS.length - (extra ? extra.length + 3 : 0);
  return (
    <Text dimColor wrap="truncate-end">
      {[...(extra ? [extra] : []), fitFooter(screenInfo(screen).footer, Math.max(0, room))].join(' · ')}
      {ALWAYS}
    </Text>
  );
}

/** The keys that work everywhere, on one line for a terminal too short to list them. */
const GLOBAL_KEYS_LINE = `Everywhere: ${GLOBAL_KEYS.map(([k, what]) => `${k} ${what}`).join(' · ')}`;

/**
 * The keys of a screen, then those that work everywhere (on one line when the
 * list would not fit in `rows`). Rows never shrink: on a terminal too short
 * for them the bottom is cut rather than lines drawn over each other.
 */
export function HelpOverlay({ screen, columns, rows }: { screen: ScreenId; columns: number; rows: number }) {
  const info = screenInfo(screen);
  const width = Math.max(...[...info.keys, ...GLOBAL_KEYS].map(([k]) => k.length));
  // Border and padding take 4 columns; the key column its width and a space.
  const room = Math.max(1, columns - 4 - (width + 1));
  // A long description wraps under itself at whole words, here rather than in Ink, which starts a line with the space it broke at.
  const wrapped = (keys: [string, string][]) => keys.map(([k, what]) => ({ k, lines: wrap(what, room) }));
  const own = wrapped(info.keys);
  const everywhere = wrapped(GLOBAL_KEYS);
  const height = (keys: { lines: string[] }[]) => keys.reduce((sum, key) => sum + key.lines.length, 0);
  const compact = 2 + 1 + height(own) + 1 + height(everywhere) + 1 > rows;
  const keyRow = ({ k, lines }: { k: string; lines: string[] }) => (
    <Box key={k} flexShrink={0}>
      <Box flexShrink={0} width={width + 1}>
        <Text color="cyan">{k}</Text>
      </Box>
      <Box flexDirection="column" flexShrink={0}>
        {lines.map((line, i) => (
          <Text key={i}>{line}</Text>
        ))}
      </Box>
    </Box>
  );
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1} flexShrink={0}>
      <Text bold>Keys of {info.title}</Text>
      {own.map(keyRow)}
      {compact ? (
        <Box flexShrink={0}>
          <Text wrap="wrap">{GLOBAL_KEYS_LINE}</Text>
        </Box>
      ) : (
        <>
          <Text bold>Everywhere</Text>
          {everywhere.map(keyRow)}
        </>
      )}
      <Text dimColor>? or esc closes this</Text>
    </Box>
  );
}
