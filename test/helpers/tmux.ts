import { execa } from 'execa';
import { vi } from 'vitest';

/**
 * How long a test waits for a state that work must reach (a run done, a check
 * judged): long enough that only something stuck reaches it. A fixed budget of
 * a minute or two failed on a busy machine while Go was still compiling; a
 * state that cannot come any more (failOn) ends the wait at once instead.
 */
export const STATE_LIMIT_MS = 20 * 60_000;

/** A test that waits for states: its own limit is a few of them. */
export const E2E_TEST_LIMIT_MS = 3 * STATE_LIMIT_MS;

/** A real terminal: a detached tmux session running one command. */
/**
 * Runs tmux on a server of the session's own (`-L`): with one shared server,
 * a test that kills its last session stops the server while another test's
 * new-session is connecting to it, which then fails at once.
 */
function tmux(session: string, args: string[], options: { reject?: boolean } = {}) {
  return execa('tmux', ['-L', session, ...args], options);
}

export class TmuxSession {
  private constructor(readonly name: string) {}

  static async start(command: string, size = { columns: 120, rows: 40 }): Promise<TmuxSession> {
    const name = `bugbench-e2e-${process.pid}-${Date.now()}`;
    await tmux(name, ['new-session', '-d', '-s', name, '-x', String(size.columns), '-y', String(size.rows), command]);
    return new TmuxSession(name);
  }

  async screen(): Promise<string> {
    const result = await tmux(this.name, ['capture-pane', '-p', '-t', this.name], { reject: false });
    return result.stdout;
  }

  async keys(...keys: string[]): Promise<void> {
    await tmux(this.name, ['send-keys', '-t', this.name, '--', ...keys]);
  }

  /** The terminal takes a new size, as when its window is resized. */
  async resize(columns: number, rows: number): Promise<void> {
    await tmux(this.name, ['resize-window', '-t', this.name, '-x', String(columns), '-y', String(rows)]);
  }

  async waitFor(pattern: RegExp, timeout = 30_000): Promise<string> {
    let screen = '';
    await vi.waitFor(
      async () => {
        screen = await this.screen();
        if (!pattern.test(screen)) throw new Error(`screen does not match ${pattern}:\n${screen}`);
      },
      { timeout, interval: 100 },
    );
    return screen;
  }

  /**
   * Waits for the screen to show a state that work reaches (the run done, a
   * check judged), however long the work takes up to STATE_LIMIT_MS; fails at
   * once when the screen shows `failOn`, a state from which it cannot come.
   */
  async waitForState(pattern: RegExp, failOn?: RegExp): Promise<string> {
    let screen = '';
    let failed = false;
    await vi.waitFor(
      async () => {
        screen = await this.screen();
        if (pattern.test(screen)) return;
        if (failOn?.test(screen)) failed = true;
        else throw new Error(`screen does not match ${pattern} yet:\n${screen}`);
      },
      { timeout: STATE_LIMIT_MS, interval: 250 },
    );
    if (failed) throw new Error(`the screen shows ${failOn} instead of ${pattern}:\n${screen}`);
    return screen;
  }

  /** From now on, everything the program writes to the terminal is appended to `file`, raw. */
  async record(file: string): Promise<void> {
    await tmux(this.name, ['pipe-pane', '-o', '-t', this.name, `cat >> '${file}'`]);
  }

  async kill(): Promise<void> {
    await tmux(this.name, ['kill-session', '-t', this.name], { reject: false });
  }
}
