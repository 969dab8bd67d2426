/** The workbench's frame: a header naming the screens, a footer with the current screen's keys, the `?` overlay. */
import { Box, Text } from 'ink';
import { GLOBAL_KEYS, SCREENS, screenInfo, type ScreenId } from './screens.js';

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

export function Footer({ screen, confirmQuit, extra }: { screen: ScreenId; confirmQuit: boolean; extra?: string }) {
  if (confirmQuit) {
    return (
      <Text color="yellow" wrap="truncate-end">
        A run is going. q again cancels it (its containers are removed) and quits; any other key stays.
      </Text>
    );
  }
  // The screen's keys give way (cut with an ellipsis) before the two keys that explain the rest.
  return (
    <Box>
      <Box flexShrink={1} overflow="hidden">
        <Text dimColor wrap="truncate-end">
          {[...(extra ? [extra] : []), screenInfo(screen).footer].join(' · ')}
        </Text>
      </Box>
      <Box flexShrink={0}>
        <Text dimColor> · ? help · q quit</Text>
      </Box>
    </Box>
  );
}

export function HelpOverlay({ screen }: { screen: ScreenId }) {
  const info = screenInfo(screen);
  const width = Math.max(...[...info.keys, ...GLOBAL_KEYS].map(([k]) => k.length));
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text bold>Keys of {info.title}</Text>
      {info.keys.map(([k, what]) => (
        <Text key={k} wrap="truncate-end">
          <Text color="cyan">{k.padEnd(width)}</Text> {what}
        </Text>
      ))}
      <Text bold>Everywhere</Text>
      {GLOBAL_KEYS.map(([k, what]) => (
        <Text key={k} wrap="truncate-end">
          <Text color="cyan">{k.padEnd(width)}</Text> {what}
        </Text>
      ))}
      <Text dimColor>? or esc closes this</Text>
    </Box>
  );
}
