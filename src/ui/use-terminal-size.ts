/**
 * The terminal's size, followed as it changes, and the screen drawn again
 * whole after a resize.
 *
 * Ink lays its frame out again on a resize but does not render the
 * components again: the workbench kept the height and the wrapping of the old
 * size (a frame taller than the terminal scrolls the tab bar off). And a
 * terminal reflows the old frame's lines when it narrows, so Ink's erasing of
 * the lines it wrote misses some: frames stacked up, tab bar over tab bar.
 * So the size is state, and once a resize has settled the screen is cleared
 * and the latest frame written again (what gemini-cli's refreshStatic does
 * for its Static area; the workbench has none, its frame is the whole screen).
 */
import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

/** Erase the screen, cursor to the top left. */
export const CLEAR_SCREEN = '\u001B[2J\u001B[H';
/** How long the size must stay put before the screen is drawn again: a drag sends many resizes. */
export const RESIZE_SETTLE_MS = 100;

export interface TerminalSize {
  columns: number;
  rows: number;
}

function sizeOf(stdout: NodeJS.WriteStream): TerminalSize {
  // Without a terminal (piped, tests) there is no size: a roomy default.
  return { columns: stdout.columns || 100, rows: stdout.rows || 40 };
}

export function useTerminalSize(): TerminalSize {
  const { stdout, write } = useStdout();
  const [size, setSize] = useState(() => sizeOf(stdout));
  useEffect(() => {
    let settle: NodeJS.Timeout | undefined;
    const resized = () => {
      setSize(sizeOf(stdout));
      clearTimeout(settle);
      // Ink's write erases its frame, writes this, then its latest frame (by now, the one of the new size).
      settle = setTimeout(() => write(CLEAR_SCREEN), RESIZE_SETTLE_MS);
    };
    stdout.on('resize', resized);
    return () => {
      clearTimeout(settle);
      stdout.off('resize', resized);
    };
  }, [stdout, write]);
  return size;
}
