/** The workbench's frame: a header naming the screens, a footer with the current screen's keys, the `?` overlay. */
import { Box, Text } from 'ink';
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

export function Footer({ screen, confirmQuit, extra, columns }: { screen: ScreenId; confirmQuit: boolean; extra?: string; columns: number }) {
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

export function HelpOverlay({ screen }: { screen: ScreenId }) {
  const info = screenInfo(screen);
  const width = Math.max(...[...info.keys, ...GLOBAL_KEYS].map(([k]) => k.length));
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text bold>Keys of {info.title}</Text>
      {[...info.keys, ...GLOBAL_KEYS].map(([k, what], i) => (
        <Box key={k} flexDirection="column">
          {i === info.keys.length ? <Text bold>Everywhere</Text> : null}
          <Box>
            <Box flexShrink={0} width={width + 1}>
              <Text color="cyan">{k}</Text>
            </Box>
            {/* A long description wraps under itself, whole words, instead of being cut. */}
            <Text wrap="wrap">{what}</Text>
          </Box>
        </Box>
      ))}
      <Text dimColor>? or esc closes this</Text>
    </Box>
  );
}
