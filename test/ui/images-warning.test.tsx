/** Issue 34, item 24: the Images screen shows what the build found wrong with an image (package.json's engines field not met). */
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import type { RepoImage } from '../../src/sandbox/repo-images.js';
import { ImagesScreen } from '../../src/ui/images-screen.js';
import { initialImageBuild } from '../../src/ui/use-image-build.js';
import { initialState } from '../../src/ui/state.js';

const IMAGE: RepoImage = {
  id: 'sha256:aa',
  tag: 'bugbench/repo-conv:latest',
  repo: 'conv',
  commit: '3f59834aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
  created: '2026-11-26T14:00:00.000Z',
  sizeBytes: 300 * 1024 ** 2,
  bugs: 0,
  bugCounts: {},
  testCommand: 'npm test',
  language: 'node',
};
const BUILD = initialImageBuild;

describe('the Images screen', () => {
  it("shows the selected image's build warning, whole, and nothing for an image without one", () => {
    const warning = "package.json's engines field needs Node >=20, but the image has Node 18.20.4: its tests may crash on load; build --from an image with such a Node";
    const screen = (image: RepoImage) => render(<ImagesScreen state={{ ...initialState, images: [image], cursor: 0 }} build={BUILD} rows={24} columns={200} />);
    const warned = screen({ ...IMAGE, warning });
    // Wrapped inside the details box (at most 100 columns), every word of it there.
    const shown = warned.lastFrame()!.split('\n').map((l) => l.replace(/^[│ ]+|[│ ]+$/g, '')).join(' ');
    expect(shown.replace(/\s+/g, ' ')).toContain(`warning: ${warning}`);
    warned.unmount();
    const plain = screen(IMAGE);
    expect(plain.lastFrame()).not.toContain('warning:');
    plain.unmount();
  });
});
