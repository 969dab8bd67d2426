/** The help overlay on small terminals: descriptions wrap whole, nothing is drawn over a heading, and the keys of every screen stay. */
import React from 'react';
import { Box } from 'ink';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { HelpOverlay } from '../../src/ui/chrome.js';
import { SCREENS } from '../../src/ui/screens.js';

/** The overlay as the workbench draws it: in a body of `rows` that clips. */
function frame(screen: (typeof SCREENS)[number], columns: number, rows: number): string[] {
  const { lastFrame } = render(
    <Box flexDirection="column" width={columns} height={rows} overflow="hidden">
      <HelpOverlay screen={screen.id} columns={columns} rows={rows} />
    </Box>,
  );
  return lastFrame()!.split('\n');
}

describe('the help overlay', () => {
  for (const screen of SCREENS) {
    it(`shows the ${screen.title} keys whole at 80×24, and at 100×30 the keys of everywhere under their heading`, () => {
      // 24 rows less the header, the footer and the line the workbench leaves free.
      const small = frame(screen, 80, 21);
      const text = small.join('\n');
      for (const [key, what] of screen.keys) {
        expect(text).toContain(key);
        expect(text.replace(/[│\s]+/g, ' ')).toContain(what.replace(/\s+/g, ' '));
      }
      expect(text).toContain('? or esc closes this');
      // A wrapped description's lines start under its first, none with the space it broke at.
      for (const line of small.filter((l) => /^│ {17}/.test(l))) expect(line).not.toMatch(/^│ {18}/);
      for (const line of small) expect(line.length).toBeLessThanOrEqual(80);
      const large = frame(screen, 100, 27);
      const heading = large.find((l) => l.includes('Everywhere'))!;
      expect(heading.replace(/[│\s]/g, '')).toBe('Everywhere');
      expect(large.join('\n')).toContain('ctrl-c');
    });
  }
});
