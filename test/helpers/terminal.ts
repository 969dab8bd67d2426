/**
 * Rendering the workbench in a terminal of a given size, for frame tests:
 * a fake TTY with `columns` and `rows`. In `frames` mode every frame is
 * written whole (Ink's debug output), for reading; in `tty` mode Ink writes
 * what it would write to a real terminal, so full-screen clears can be counted.
 */
import { EventEmitter } from 'node:events';
import { render, type RenderOptions } from 'ink';
import type { ReactElement } from 'react';

class FakeStdout extends EventEmitter {
  readonly isTTY = true;
  readonly writes: string[] = [];
  constructor(
    public columns: number,
    public rows: number,
  ) {
    super();
  }
  write = (text: string): boolean => {
    this.writes.push(text);
    return true;
  };
}

class FakeStdin extends EventEmitter {
  readonly isTTY = true;
  private data: string | null = null;
  write = (data: string): void => {
    this.data = data;
    this.emit('readable');
    this.emit('data', data);
  };
  read = (): string | null => {
    const data = this.data;
    this.data = null;
    return data;
  };
  setEncoding(): void {}
  setRawMode(): void {}
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
}

/** ESC [ 2 J: what Ink writes when it clears the whole terminal. */
export const CLEAR_SCREEN = '\u001B[2J';

export function renderIn(tree: ReactElement, size: { columns: number; rows: number }, mode: 'frames' | 'tty' = 'frames', options: RenderOptions = {}) {
  const stdout = new FakeStdout(size.columns, size.rows);
  const stdin = new FakeStdin();
  const instance = render(tree, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: new FakeStdout(size.columns, size.rows) as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    debug: mode === 'frames',
    exitOnCtrlC: false,
    patchConsole: false,
    ...options,
  });
  return {
    stdin,
    lastFrame: () => stdout.writes.at(-1) ?? '',
    writes: stdout.writes,
    /** How many times Ink cleared the whole terminal. */
    clears: () => stdout.writes.reduce((n, w) => n + w.split(CLEAR_SCREEN).length - 1, 0),
    /** The terminal takes a new size, as a real one tells its program (SIGWINCH, then 'resize'). */
    resize: (columns: number, rows: number) => {
      stdout.columns = columns;
      stdout.rows = rows;
      stdout.emit('resize');
    },
    unmount: () => instance.unmount(),
  };
}

/** Every line of a frame fits the width, and the frame is shorter than the terminal. */
export function fits(frame: string, size: { columns: number; rows: number }): { lines: number; widest: number } {
  const lines = frame.replace(/\n$/, '').split('\n');
  // eslint-disable-next-line no-control-regex
  const widest = Math.max(...lines.map((l) => [...l.replace(/\u001B\[[0-9;]*m/g, '')].length));
  return { lines: lines.length, widest };
}
