import { describe, expect, it } from 'vitest';
import { initialState, reduce, SETUP_LOG_LINES } from '../../../src/ui/state.js';
import type { RepoImage } from '../../../src/sandbox/repo-images.js';

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
    expect(state).toMatchObject({ ready: true, screen: 'images' });
    state = reduce(state, { type: 'cursor', delta: 5 });
    expect(state.cursor).toBe(1);
    state = reduce(state, { type: 'cursor', delta: -9 });
    expect(state.cursor).toBe(0);
  });

  it('keeps the cursor on its image when another one is built above it, and within the list when its image goes', () => {
    let state = reduce(initialState, { type: 'images-loaded', images: [image('a'), image('b'), image('c')] });
    state = reduce(state, { type: 'cursor', delta: 1 });
    state = reduce(state, { type: 'images-loaded', images: [image('new'), image('a'), image('b'), image('c')] });
    expect(state.images[state.cursor]!.tag).toBe('b');
    state = reduce(state, { type: 'cursor', delta: 1 });
    state = reduce(state, { type: 'images-loaded', images: [image('new'), image('a')] });
    expect(state.cursor).toBe(1);
  });

  it('switches screens by number and tab only once set up, and shows help until esc', () => {
    expect(reduce(initialState, { type: 'go', screen: 'review' }).screen).toBe('images');
    let state = reduce(initialState, { type: 'images-loaded', images: [image('a')] });
    state = reduce(state, { type: 'go', screen: 'review' });
    expect(state.screen).toBe('review');
    state = reduce(state, { type: 'cycle-screen', delta: 1 });
    expect(state.screen).toBe('training');
    state = reduce(state, { type: 'cycle-screen', delta: 1 });
    expect(state.screen).toBe('images');
    state = reduce(state, { type: 'cycle-screen', delta: -1 });
    expect(state.screen).toBe('training');
    state = reduce(state, { type: 'cycle-screen', delta: -1 });
    expect(state.screen).toBe('review');
    state = reduce(state, { type: 'toggle-help' });
    expect(state.help).toBe(true);
    state = reduce(state, { type: 'back' });
    expect(state).toMatchObject({ help: false, screen: 'review' });
  });
});
