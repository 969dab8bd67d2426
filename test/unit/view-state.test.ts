import { describe, expect, it } from 'vitest';
import { initialState, reduce, SETUP_LOG_LINES } from '../../src/ui/state.js';
import type { RepoImage } from '../../src/sandbox/repo-image.js';

const image = (tag: string): RepoImage => ({ id: tag, tag, repo: 'r', commit: 'c', created: '', sizeBytes: 0, bugs: 0, bugCounts: {}, testCommand: '' });

describe('view state', () => {
  it('keeps only the last setup lines', () => {
    let state = initialState;
    for (let i = 0; i < SETUP_LOG_LINES + 5; i++) state = reduce(state, { type: 'setup-progress', message: `line ${i}` });
    expect(state.setupLog).toHaveLength(SETUP_LOG_LINES);
    expect(state.setupLog.at(-1)).toBe(`line ${SETUP_LOG_LINES + 4}`);
  });
  it('moves the cursor within the image list', () => {
    let state = reduce(initialState, { type: 'images-loaded', images: [image('a'), image('b')] });
    expect(state.screen).toBe('images');
    state = reduce(state, { type: 'cursor', delta: 5 });
    expect(state.cursor).toBe(1);
    state = reduce(state, { type: 'cursor', delta: -9 });
    expect(state.cursor).toBe(0);
  });
});
